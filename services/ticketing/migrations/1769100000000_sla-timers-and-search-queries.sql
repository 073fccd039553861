-- Up Migration

-- SLA clocks (issue "A ticket has a life"): the breach and at-risk flags, the status history
-- the clocks are computed from, and durable timers; search queries run on a schedule.

ALTER TABLE tickets ADD COLUMN IF NOT EXISTS sla_breached boolean NOT NULL DEFAULT false;
ALTER TABLE tickets ADD COLUMN IF NOT EXISTS sla_at_risk boolean NOT NULL DEFAULT false;
-- low | normal | high | urgent (the workflow sets it); null counts as normal
ALTER TABLE tickets ADD COLUMN IF NOT EXISTS priority text;

-- Every status a ticket has had, as the SLA clocks saw it (appended by the SLA re-evaluation).
CREATE TABLE ticket_sla_history (
  id        bigserial PRIMARY KEY,
  ticket_id uuid NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
  status    text NOT NULL,
  at        timestamptz NOT NULL
);
CREATE INDEX ticket_sla_history_ticket_idx ON ticket_sla_history (ticket_id, at, id);
INSERT INTO ticket_sla_history (ticket_id, status, at) SELECT id, 'open', created_at FROM tickets;
INSERT INTO ticket_sla_history (ticket_id, status, at)
  SELECT id, status, GREATEST(created_at, COALESCE(resolved_at, updated_at)) FROM tickets WHERE status <> 'open';

-- One timer per ticket, clock and stage. due_at null: the clock does not run (paused, stopped).
-- Every replica polls the due ones (FOR UPDATE SKIP LOCKED); fired_at makes firing once.
CREATE TABLE sla_timers (
  ticket_id uuid NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
  clock     text NOT NULL CHECK (clock IN ('first_response', 'resolution')),
  stage     text NOT NULL CHECK (stage IN ('at_risk', 'breach')),
  due_at    timestamptz,
  fired_at  timestamptz,
  PRIMARY KEY (ticket_id, clock, stage)
);
CREATE INDEX sla_timers_due_idx ON sla_timers (due_at) WHERE fired_at IS NULL AND due_at IS NOT NULL;
INSERT INTO sla_timers (ticket_id, clock, stage, due_at)
  SELECT id, 'first_response', 'breach', first_response_due_at FROM tickets
   WHERE status IN ('open', 'pending') AND first_response_at IS NULL AND first_response_due_at IS NOT NULL;
INSERT INTO sla_timers (ticket_id, clock, stage, due_at)
  SELECT id, 'resolution', 'breach', resolution_due_at FROM tickets WHERE status = 'open' AND resolution_due_at IS NOT NULL;

-- Where an activity came from: null is a webhook delivery; 'search' a search query (named).
ALTER TABLE activities
  ADD COLUMN source       text CHECK (source IN ('search')),
  ADD COLUMN search_query text;

-- The configured search queries of each account and their state; rows follow the partner
-- configurations. A replica claims a due query by moving next_run_at on (SKIP LOCKED).
CREATE TABLE search_queries (
  account_id         text NOT NULL,
  query              text NOT NULL,
  interval_seconds   integer NOT NULL,
  include_reposts    boolean NOT NULL DEFAULT false,
  next_run_at        timestamptz NOT NULL,
  -- the newest post id seen: the next run asks for newer ones only (null: never ran)
  since_id           text,
  last_run_at        timestamptz,
  last_success_at    timestamptz,
  last_error_code    text,
  last_error         text,
  rate_limited_until timestamptz,
  last_matches       integer NOT NULL DEFAULT 0,
  matches            integer NOT NULL DEFAULT 0,
  created_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, query)
);
CREATE INDEX search_queries_due_idx ON search_queries (next_run_at);

-- Down Migration

DROP TABLE search_queries;
ALTER TABLE activities DROP COLUMN search_query, DROP COLUMN source;
DROP TABLE sla_timers;
DROP TABLE ticket_sla_history;
ALTER TABLE tickets DROP COLUMN sla_at_risk;
