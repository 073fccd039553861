-- Up Migration
-- Tasks other services follow (a ticket linked to an order), with what tracking last knew of
-- each, so a change is announced once: the comparison and the announcement (the outbox row)
-- commit together, under the task's row lock.
CREATE TABLE followed_tasks (
  client_id text NOT NULL,
  task_id text NOT NULL,
  -- The follower ids (opaque: ticket ids, ...). A task with none left is deleted.
  followers text[] NOT NULL,
  -- The mapped status (assigned, picked_up, ...) and the provider's own; null until first seen.
  status text,
  provider_status text,
  status_at timestamptz,
  -- The ETA last announced (or first seen): a move is measured from it.
  eta timestamptz,
  -- The rider's newest position time, and the one a silence was announced for (once per silence).
  rider_position_at timestamptz,
  silence_announced_for timestamptz,
  -- When the newest record compared was fetched: an older one (a cached read) is not compared.
  observed_at timestamptz,
  -- The poll lease: a replica that claims the task moves this forward, so no other one polls it this round.
  next_poll_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, task_id)
);
CREATE INDEX followed_tasks_due ON followed_tasks (client_id, next_poll_at);

-- The provider calls the polls of each client made per window (the minute, and the round's
-- slot that spreads them over it), shared by every replica: a replica adds its calls under
-- these rows' locks, so together they stay within the budget.
CREATE TABLE poll_budget (
  client_id text NOT NULL,
  window_ms integer NOT NULL,
  window_start timestamptz NOT NULL,
  calls integer NOT NULL,
  PRIMARY KEY (client_id, window_ms, window_start)
);

-- The provider's pushes are signed with a secret per client, sealed like the API key.
ALTER TABLE tracking_clients ADD COLUMN push_secret_sealed text;

-- Events to publish on tracking.events, written with the state they announce (libs/messaging outbox).
CREATE TABLE outbox (
  id            bigserial PRIMARY KEY,
  exchange      text NOT NULL,
  routing_key   text NOT NULL,
  envelope      jsonb NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  attempts      integer NOT NULL DEFAULT 0,
  last_error    text,
  trace_context jsonb
);

-- Down Migration
DROP TABLE outbox;
ALTER TABLE tracking_clients DROP COLUMN push_secret_sealed;
DROP TABLE poll_budget;
DROP TABLE followed_tasks;
