-- Up Migration

-- Replies from a ticket (issue 4) and tickets linked to orders (issue 5).

-- Why a send did not succeed, as auth reported it (send_error keeps the message).
ALTER TABLE activities
  ADD COLUMN send_error_code          text,
  ADD COLUMN send_error_platform_code integer;

-- The first reply of this system the platform accepted: the ticket's first response (SLA).
ALTER TABLE tickets ADD COLUMN first_response_at timestamptz;

-- Commands waiting to be published, written in the transaction that records their effect
-- (the pending outbound activity). The relay publishes each with a broker confirm, then
-- deletes it; a row stays until then, so a command is never lost. A command published twice
-- (a crash between the confirm and the delete) carries the same command id, which auth
-- executes at most once.
CREATE TABLE outbox (
  id          bigserial PRIMARY KEY,
  exchange    text NOT NULL,
  routing_key text NOT NULL,
  envelope    jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  attempts    integer NOT NULL DEFAULT 0,
  last_error  text
);

-- The order a ticket is about (a tracking client and task), and whether tracking can show
-- it, as tracking last answered.
CREATE TABLE ticket_orders (
  ticket_id           uuid PRIMARY KEY REFERENCES tickets (id) ON DELETE CASCADE,
  client_id           text NOT NULL,
  task_id             text NOT NULL,
  linked_at           timestamptz NOT NULL DEFAULT now(),
  -- null until tracking has answered for this link
  tracking_available  boolean,
  tracking_reason     text,
  tracking_message    text,
  tracking_checked_at timestamptz
);

-- Down Migration

DROP TABLE ticket_orders;
DROP TABLE outbox;
ALTER TABLE tickets DROP COLUMN first_response_at;
ALTER TABLE activities DROP COLUMN send_error_platform_code, DROP COLUMN send_error_code;
