-- Up Migration
-- The people who work tickets in the console. An agent signs in with its email and a local
-- password (password_hash: scrypt with a per-password salt, see adapters/passwords.ts; null for
-- an agent that only ever arrives through the CRM's launch link), or is named by the CRM's
-- launch link (external_id: the CRM's own id of the person). role decides its rights:
-- 'admin' everything, 'agent' tickets and actions on them.
CREATE TABLE agents (
  id            text PRIMARY KEY CHECK (id ~ '^[a-z0-9]{16}$'),
  email         text NOT NULL CHECK (email = lower(email) AND email ~ '^[^@\s]+@[^@\s]+$'),
  display_name  text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 200),
  role          text NOT NULL CHECK (role IN ('admin', 'agent')),
  password_hash text,
  external_id   text CHECK (length(external_id) BETWEEN 1 AND 200),
  created_at    timestamptz NOT NULL DEFAULT now(),
  disabled_at   timestamptz
);
CREATE UNIQUE INDEX agents_email_key ON agents (email);
CREATE UNIQUE INDEX agents_external_id_key ON agents (external_id) WHERE external_id IS NOT NULL;

CREATE TABLE teams (
  id         text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
  name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE agent_teams (
  agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  team_id  text NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  PRIMARY KEY (agent_id, team_id)
);
CREATE INDEX agent_teams_team_idx ON agent_teams (team_id);

-- kind 'agent': a sign-in with an email and password (or a launch link naming the agent keeps
-- kind 'launch' with agent_id set); its grant is read from the agent's current row, so a
-- disabled agent or a changed role takes effect at the next check.
ALTER TABLE sessions ADD COLUMN agent_id text REFERENCES agents (id);
ALTER TABLE sessions DROP CONSTRAINT sessions_kind_check;
ALTER TABLE sessions ADD CONSTRAINT sessions_kind_check CHECK (kind IN ('credential', 'bootstrap', 'launch', 'agent'));
ALTER TABLE sessions ADD CONSTRAINT sessions_agent_check CHECK (kind <> 'agent' OR agent_id IS NOT NULL);
CREATE INDEX sessions_agent_idx ON sessions (agent_id) WHERE agent_id IS NOT NULL;

-- Down Migration
DROP INDEX sessions_agent_idx;
ALTER TABLE sessions DROP CONSTRAINT sessions_agent_check;
DELETE FROM sessions WHERE kind = 'agent';
ALTER TABLE sessions DROP CONSTRAINT sessions_kind_check;
ALTER TABLE sessions ADD CONSTRAINT sessions_kind_check CHECK (kind IN ('credential', 'bootstrap', 'launch'));
ALTER TABLE sessions DROP COLUMN agent_id;
DROP TABLE agent_teams;
DROP TABLE teams;
DROP TABLE agents;
