-- Up Migration
-- The X Activity API: the v2 webhook auth registered for each environment, the activity
-- subscriptions it made per account and event type, a heartbeat per environment (a gap in it at
-- start-up means deliveries may have been missed), and the replay windows requested or waiting.
CREATE TABLE xaa_webhooks (
  env_name text PRIMARY KEY,
  webhook_id text NOT NULL,
  url text NOT NULL,
  registered_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE xaa_subscriptions (
  subscription_id text PRIMARY KEY,
  env_name text NOT NULL,
  account_id text NOT NULL,
  event_type text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (env_name, account_id, event_type)
);

CREATE TABLE heartbeats (
  env_name text PRIMARY KEY,
  beat_at timestamptz NOT NULL
);

-- One row per missed window, keyed on its start: replicas that find the same gap insert it once.
CREATE TABLE xaa_replays (
  id bigserial PRIMARY KEY,
  env_name text NOT NULL,
  from_at timestamptz NOT NULL,
  to_at timestamptz NOT NULL,
  reason text NOT NULL,
  status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'requesting', 'requested', 'failed')),
  not_before timestamptz NOT NULL,
  claimed_at timestamptz,
  job_id text,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  requested_at timestamptz,
  UNIQUE (env_name, from_at)
);
CREATE INDEX xaa_replays_due ON xaa_replays (env_name, not_before) WHERE status IN ('waiting', 'requesting');

-- Down Migration
DROP TABLE xaa_replays;
DROP TABLE heartbeats;
DROP TABLE xaa_subscriptions;
DROP TABLE xaa_webhooks;
