-- Up Migration

-- Every kind of account activity (issue 3): contact flags and timelines, public threads,
-- DM conversation state, deleted posts, partner configurations, accounts, held deliveries.

ALTER TABLE contacts
  ADD COLUMN followers_count   integer,
  ADD COLUMN verified          boolean,
  ADD COLUMN blocked           boolean NOT NULL DEFAULT false,
  -- (time, event id) of the block/unblock that set `blocked`: the newest wins whatever the
  -- arrival order, and the event id breaks ties the same way on every replica
  ADD COLUMN blocked_changed_at timestamptz,
  ADD COLUMN blocked_change_id text,
  ADD COLUMN muted             boolean NOT NULL DEFAULT false,
  ADD COLUMN muted_changed_at  timestamptz,
  ADD COLUMN muted_change_id   text;
CREATE INDEX contacts_account_created_idx ON contacts (account_id, created_at DESC, id DESC);
CREATE INDEX contacts_created_idx ON contacts (created_at DESC, id DESC);

ALTER TABLE tickets
  ADD COLUMN resolved_at      timestamptz,
  -- the routing rule that chose queue and folder (null: the defaults)
  ADD COLUMN routing_rule     text,
  -- queue and folder are still routing's choice, made on the earliest inbound message (deliveries
  -- arrive in any order, so an earlier one arriving later routes the ticket again); whoever moves
  -- a ticket by hand sets it false, and routing leaves the ticket alone from then on
  ADD COLUMN auto_routed      boolean NOT NULL DEFAULT true,
  -- the activity routing looked at
  ADD COLUMN routed_by_event_id text,
  ADD COLUMN opened_by_kind   text,
  -- a reply opened this ticket while no ticket held its parent post; when the parent turns up
  -- on another ticket, this one's activities move there (the result in-order processing gives)
  ADD COLUMN awaiting_post_id text;
UPDATE tickets t SET opened_by_kind = 'dm_received',
  routed_by_event_id = (SELECT a.platform_event_id FROM activities a WHERE a.ticket_id = t.id AND a.direction = 'inbound'
                         ORDER BY a.occurred_at, a.platform_event_id LIMIT 1)
  WHERE channel = 'dm';
CREATE INDEX tickets_awaiting_idx ON tickets (account_id, awaiting_post_id) WHERE awaiting_post_id IS NOT NULL;
CREATE INDEX tickets_account_queue_idx ON tickets (account_id, queue, folder, created_at DESC, id DESC);

-- resolved_at follows the status, whoever changes it: it starts the reopen window.
CREATE FUNCTION tickets_track_resolution() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'resolved' THEN
    IF TG_OP = 'INSERT' THEN
      NEW.resolved_at := COALESCE(NEW.resolved_at, now());
    ELSIF OLD.status <> 'resolved' AND NEW.resolved_at IS NOT DISTINCT FROM OLD.resolved_at THEN
      NEW.resolved_at := now();
    END IF;
  ELSE
    NEW.resolved_at := NULL;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER tickets_track_resolution BEFORE INSERT OR UPDATE OF status, resolved_at ON tickets
  FOR EACH ROW EXECUTE FUNCTION tickets_track_resolution();

ALTER TABLE activities
  -- the customer the activity is about: its timeline holds it, with or without a ticket
  ADD COLUMN contact_id          uuid REFERENCES contacts (id),
  -- DMs: their conversation, so DMs recorded before the conversation had a ticket join its first one
  ADD COLUMN conversation_key    text,
  ADD COLUMN parent_post_id      text,
  -- the liked, reposted or quoted post
  ADD COLUMN related_post_id     text,
  ADD COLUMN attachments         jsonb,
  ADD COLUMN deleted_at          timestamptz,
  -- activities the CRM sends: pending (no platform id yet) -> sent (platform id set) | failed | unknown.
  -- The echo of a sent one carries the same platform id and so collapses into it (unique key).
  ADD COLUMN send_status         text CHECK (send_status IN ('pending', 'sent', 'failed', 'unknown')),
  ADD COLUMN send_error          text;
UPDATE activities a SET contact_id = a.author_contact_id, conversation_key = t.conversation_key
  FROM tickets t WHERE t.id = a.ticket_id;
CREATE INDEX activities_contact_idx ON activities (contact_id, occurred_at, id);
CREATE INDEX activities_awaiting_parent_idx ON activities (account_id, parent_post_id)
  WHERE ticket_id IS NULL AND parent_post_id IS NOT NULL;
CREATE INDEX activities_unthreaded_dm_idx ON activities (account_id, conversation_key)
  WHERE ticket_id IS NULL AND conversation_key IS NOT NULL;

-- Posts reported deleted; a post that arrives after its delete is stored already marked deleted.
CREATE TABLE deleted_posts (
  account_id text NOT NULL,
  post_id    text NOT NULL,
  deleted_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, post_id)
);

-- The current state of a DM conversation (typing, read receipts): state, not history.
CREATE TABLE dm_conversations (
  account_id            text NOT NULL,
  counterpart_id        text NOT NULL,
  contact_typing_at     timestamptz,
  account_typing_at     timestamptz,
  contact_read_event_id text,
  contact_read_at       timestamptz,
  account_read_event_id text,
  account_read_at       timestamptz,
  PRIMARY KEY (account_id, counterpart_id)
);

-- Connected accounts as auth reports them (and revokes seen by webhook).
CREATE TABLE accounts (
  account_id          text PRIMARY KEY,
  status              text NOT NULL CHECK (status IN ('connected', 'disconnected', 'revoked', 'needs_reconnect')),
  screen_name         text,
  consumer_key_masked text,
  access_token_masked text,
  -- when the event that set `status` happened: an older event never overrides a newer one
  status_changed_at   timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL DEFAULT now()
);

-- One row per connected account (page): the whole configuration as PUT, defaults filled in.
CREATE TABLE partner_configs (
  page_id    text PRIMARY KEY,
  config     jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Deliveries for accounts without a partner configuration: kept, acked, processed when it appears.
CREATE TABLE held_deliveries (
  id             bigserial PRIMARY KEY,
  account_id     text NOT NULL,
  envelope_id    text NOT NULL UNIQUE,
  correlation_id text NOT NULL,
  kind           text NOT NULL,
  event_count    integer NOT NULL,
  payload        jsonb NOT NULL,
  held_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX held_deliveries_account_idx ON held_deliveries (account_id, id);

-- Down Migration

DROP TABLE held_deliveries;
DROP TABLE partner_configs;
DROP TABLE accounts;
DROP TABLE dm_conversations;
DROP TABLE deleted_posts;
DROP INDEX activities_unthreaded_dm_idx;
DROP INDEX activities_awaiting_parent_idx;
DROP INDEX activities_contact_idx;
ALTER TABLE activities
  DROP COLUMN send_error, DROP COLUMN send_status, DROP COLUMN deleted_at, DROP COLUMN attachments,
  DROP COLUMN related_post_id, DROP COLUMN parent_post_id, DROP COLUMN conversation_key, DROP COLUMN contact_id;
DROP TRIGGER tickets_track_resolution ON tickets;
DROP FUNCTION tickets_track_resolution();
DROP INDEX tickets_account_queue_idx;
DROP INDEX tickets_awaiting_idx;
ALTER TABLE tickets DROP COLUMN awaiting_post_id, DROP COLUMN opened_by_kind, DROP COLUMN routed_by_event_id, DROP COLUMN auto_routed, DROP COLUMN routing_rule, DROP COLUMN resolved_at;
DROP INDEX contacts_created_idx;
DROP INDEX contacts_account_created_idx;
ALTER TABLE contacts
  DROP COLUMN muted_change_id, DROP COLUMN muted_changed_at, DROP COLUMN muted,
  DROP COLUMN blocked_change_id, DROP COLUMN blocked_changed_at, DROP COLUMN blocked,
  DROP COLUMN verified, DROP COLUMN followers_count;
