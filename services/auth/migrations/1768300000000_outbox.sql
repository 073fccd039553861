-- Up Migration
-- What auth announces (account events, command results), stored in the transaction that stores
-- the change it announces (a transactional outbox, @crm/messaging). The relay publishes each
-- with a broker confirm and only then deletes it, so a change is never announced unless stored,
-- nor stored and never announced.
CREATE TABLE outbox (
  id          bigserial PRIMARY KEY,
  exchange    text NOT NULL,
  routing_key text NOT NULL,
  envelope    jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  attempts    integer NOT NULL DEFAULT 0,
  last_error  text
);

-- Down Migration
DROP TABLE outbox;
