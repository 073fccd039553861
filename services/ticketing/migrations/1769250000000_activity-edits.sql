-- Up Migration

-- A DM or post delivered again under its id with another text is an edit: the activity shows
-- the newest text (by when webhook-ingest received it), and keeps the others in `edits`.
ALTER TABLE activities ADD COLUMN text_received_at timestamptz;
ALTER TABLE activities ADD COLUMN edited_at timestamptz;
-- [{text, receivedAt, replacedAt, envelopeId}], oldest first: every text the activity had but the current one.
ALTER TABLE activities ADD COLUMN edits jsonb NOT NULL DEFAULT '[]'::jsonb;

-- Down Migration

ALTER TABLE activities DROP COLUMN edits, DROP COLUMN edited_at, DROP COLUMN text_received_at;
