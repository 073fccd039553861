-- Up Migration

-- Who linked the order (an agent, or ticketing from a customer's words), the words it was found
-- by, and what the followed order last said: its status and ETA, the first ETA seen (what a
-- slip is measured from) and whether a slip already raised the priority.
ALTER TABLE ticket_orders
  ADD COLUMN linked_by     text NOT NULL DEFAULT 'agent' CHECK (linked_by IN ('agent', 'auto')),
  ADD COLUMN reference     text,
  ADD COLUMN status        text,
  ADD COLUMN eta           timestamptz,
  ADD COLUMN first_eta     timestamptz,
  ADD COLUMN slip_raised   boolean NOT NULL DEFAULT false;

-- Order references found in a customer's message, written in the transaction that recorded it,
-- checked with tracking afterwards (retried while tracking cannot answer).
CREATE TABLE order_findings (
  id          bigserial PRIMARY KEY,
  ticket_id   uuid NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
  client_id   text NOT NULL,
  -- [{reference, taskId}] in the order they appear in the text
  candidates  jsonb NOT NULL,
  attempts    integer NOT NULL DEFAULT 0,
  due_at      timestamptz NOT NULL DEFAULT now(),
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_findings_due ON order_findings (due_at);

-- Orders an agent unlinked from a ticket: never linked to it again from a customer's words.
CREATE TABLE refused_order_references (
  ticket_id   uuid NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
  client_id   text NOT NULL,
  task_id     text NOT NULL,
  refused_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (ticket_id, client_id, task_id)
);

-- Tracking events already applied to a ticket (the event's eventId): each applies once.
CREATE TABLE order_events_seen (
  event_id    text NOT NULL,
  ticket_id   uuid NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
  seen_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (event_id, ticket_id)
);

-- Down Migration
DROP TABLE order_events_seen;
DROP TABLE refused_order_references;
DROP TABLE order_findings;
ALTER TABLE ticket_orders DROP COLUMN slip_raised, DROP COLUMN first_eta, DROP COLUMN eta, DROP COLUMN status, DROP COLUMN reference, DROP COLUMN linked_by;
