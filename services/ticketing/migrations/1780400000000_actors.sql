-- Up Migration
-- Who the principals that act on tickets are, by name: `activities.actor` holds a principal's
-- id (an agent's, a credential's, bootstrap-<n>); the timeline shows the name recorded here,
-- the last one the principal had when it wrote.
CREATE TABLE actors (
  id      text PRIMARY KEY,
  name    text NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE actors;
