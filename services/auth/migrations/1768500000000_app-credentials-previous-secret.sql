-- Up Migration
-- The consumer secret before the last rotation (sealed) and when it was replaced: during an
-- overlap window webhook-ingest accepts deliveries signed with either.
ALTER TABLE app_credentials
  ADD COLUMN previous_consumer_secret_sealed text,
  ADD COLUMN rotated_at timestamptz;

-- Down Migration
ALTER TABLE app_credentials
  DROP COLUMN previous_consumer_secret_sealed,
  DROP COLUMN rotated_at;
