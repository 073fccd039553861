-- Up Migration

-- A ticket has a life: workflow, assignment, priority, tags, notes and changes on the
-- timeline with who made them, merges, CRM events and outbound webhooks to the CRM.

ALTER TABLE tickets
  ADD COLUMN assignee    text,
  ADD COLUMN team        text,
  ADD COLUMN priority    text NOT NULL DEFAULT 'normal' CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
  ADD COLUMN tags        text[] NOT NULL DEFAULT '{}',
  -- a merged ticket points at the ticket that took its timeline; threading follows the pointer
  ADD COLUMN merged_into uuid REFERENCES tickets (id),
  ADD COLUMN merged_at   timestamptz,
  -- the partner configuration's merge rule that merged it (null: merged by a person)
  ADD COLUMN merge_rule  text,
  -- the status the ticket had before it was merged (restored by an unmerge)
  ADD COLUMN status_before_merge text;
-- Shared with the SLA work: whichever migration runs first creates it.
ALTER TABLE tickets ADD COLUMN IF NOT EXISTS sla_breached boolean NOT NULL DEFAULT false;

CREATE INDEX tickets_last_activity_idx ON tickets (last_activity_at DESC, id DESC);
CREATE INDEX tickets_assignee_idx ON tickets (assignee) WHERE assignee IS NOT NULL;
CREATE INDEX tickets_tags_idx ON tickets USING gin (tags);
CREATE INDEX tickets_merged_into_idx ON tickets (merged_into) WHERE merged_into IS NOT NULL;

-- Timeline entries made by people (notes, status changes, merges, actions): `internal`,
-- never sent to the platform, with who made them and what changed.
ALTER TABLE activities DROP CONSTRAINT activities_direction_check;
ALTER TABLE activities ADD CONSTRAINT activities_direction_check CHECK (direction IN ('inbound', 'outbound', 'event', 'internal'));
ALTER TABLE activities
  ADD COLUMN actor            text,
  ADD COLUMN data             jsonb,
  -- the ticket an activity was on before a merge moved it (an unmerge moves it back)
  ADD COLUMN merged_from      uuid REFERENCES tickets (id) ON DELETE SET NULL;
CREATE INDEX activities_merged_from_idx ON activities (merged_from) WHERE merged_from IS NOT NULL;

-- The CRM's registered webhook endpoints. The signing secret is sealed (AES-GCM): signing needs it back.
CREATE TABLE webhook_endpoints (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  url           text NOT NULL,
  description   text,
  -- event types it receives (routing keys of crm.events); empty: all of them
  event_types   text[] NOT NULL DEFAULT '{}',
  secret_sealed text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- One row per (endpoint, event): worked by a timer (FOR UPDATE SKIP LOCKED), retried on a growing
-- schedule, `dead` after the last attempt (the endpoint's failures list; a replay sets it pending again).
CREATE TABLE webhook_deliveries (
  id              bigserial PRIMARY KEY,
  endpoint_id     uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id        text NOT NULL,
  event_type      text NOT NULL,
  body            jsonb NOT NULL,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  delivered_at    timestamptz,
  CONSTRAINT webhook_deliveries_endpoint_event_key UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_dead_idx ON webhook_deliveries (endpoint_id, id) WHERE status = 'dead';

-- Down Migration

DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
DROP INDEX activities_merged_from_idx;
ALTER TABLE activities DROP COLUMN merged_from, DROP COLUMN data, DROP COLUMN actor;
DELETE FROM activities WHERE direction = 'internal';
ALTER TABLE activities DROP CONSTRAINT activities_direction_check;
ALTER TABLE activities ADD CONSTRAINT activities_direction_check CHECK (direction IN ('inbound', 'outbound', 'event'));
DROP INDEX tickets_merged_into_idx;
DROP INDEX tickets_tags_idx;
DROP INDEX tickets_assignee_idx;
DROP INDEX tickets_last_activity_idx;
ALTER TABLE tickets DROP COLUMN status_before_merge, DROP COLUMN merge_rule, DROP COLUMN merged_at, DROP COLUMN merged_into,
  DROP COLUMN tags, DROP COLUMN priority, DROP COLUMN team, DROP COLUMN assignee;
