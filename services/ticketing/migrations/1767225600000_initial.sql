-- Up Migration

-- Ticketing's own data: contacts, tickets and their activities (docs/architecture.md, "Services" and "CRM-facing HTTP").
-- Account ids and platform ids are the social platform's ids, always kept as text.

CREATE TABLE contacts (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id          text NOT NULL,
  platform_user_id    text NOT NULL,
  screen_name         text,
  name                text,
  avatar_url          text,
  -- the latest user object seen, as the platform sent it (followers, verified, ... for later use)
  profile             jsonb,
  -- when the platform event that carried `profile` happened: an older event never overwrites a newer profile
  profile_observed_at timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT contacts_account_platform_user_key UNIQUE (account_id, platform_user_id)
);

CREATE TABLE tickets (
  id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id            text NOT NULL,
  status                text NOT NULL DEFAULT 'open'
                          CHECK (status IN ('open', 'pending', 'resolved', 'closed', 'merged')),
  channel               text NOT NULL CHECK (channel IN ('dm', 'public')),
  queue                 text NOT NULL,
  folder                text NOT NULL,
  contact_id            uuid REFERENCES contacts (id),
  -- what threads activity into this ticket: 'dm:<account>:<counterpart>' for DMs
  -- (later e.g. 'thread:<account>:<root post id>' for public threads)
  conversation_key      text NOT NULL,
  subject               text NOT NULL,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  last_activity_at      timestamptz NOT NULL,
  first_response_due_at timestamptz,
  resolution_due_at     timestamptz
);

-- At most one open or pending ticket per conversation, whatever the number of replicas.
CREATE UNIQUE INDEX tickets_one_open_per_conversation
  ON tickets (account_id, conversation_key) WHERE status IN ('open', 'pending');
-- Keyset paging: newest first, ties broken by id.
CREATE INDEX tickets_created_idx ON tickets (created_at DESC, id DESC);
CREATE INDEX tickets_account_created_idx ON tickets (account_id, created_at DESC, id DESC);
CREATE INDEX tickets_conversation_idx ON tickets (account_id, conversation_key, created_at DESC);

CREATE TABLE activities (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id          text NOT NULL,
  -- nullable for timeline entries that belong to a contact rather than a ticket (later kinds)
  ticket_id           uuid REFERENCES tickets (id) ON DELETE CASCADE,
  kind                text NOT NULL,
  direction           text NOT NULL CHECK (direction IN ('inbound', 'outbound', 'event')),
  text                text,
  -- the platform's id of the event (DM id, post id, ...); null only for our own pending sends
  platform_event_id   text,
  occurred_at         timestamptz NOT NULL,
  deleted             boolean NOT NULL DEFAULT false,
  author_contact_id   uuid REFERENCES contacts (id),
  -- the broker message the activity came from, and the platform event as received
  source_envelope_id  text,
  raw                 jsonb,
  created_at          timestamptz NOT NULL DEFAULT now(),
  -- idempotency: a redelivered or duplicated platform event never becomes a second activity
  CONSTRAINT activities_account_platform_event_key UNIQUE (account_id, platform_event_id)
);

CREATE INDEX activities_ticket_idx ON activities (ticket_id, occurred_at, id);
CREATE INDEX activities_author_idx ON activities (author_contact_id);
CREATE INDEX tickets_contact_idx ON tickets (contact_id);

-- Down Migration

DROP TABLE activities;
DROP TABLE tickets;
DROP TABLE contacts;
