-- Up Migration
-- The silence alarm's state: one row per silence of an account (one that usually gets
-- deliveries and had none for SILENCE_AFTER_MINUTES), open (ended_at null) until a delivery
-- comes again. At most one open silence per account, so the alarm is raised once per silence.
-- Deliveries are read from raw_log by its existing (for_user_id, seq) index: nothing is added
-- to the work of recording a delivery.
CREATE TABLE account_silences (
  id            bigserial PRIMARY KEY,
  account_id    text NOT NULL,
  -- when the last delivery before the silence was received, and its place in the raw log
  silent_since  timestamptz NOT NULL,
  last_seq      bigint NOT NULL,
  detected_at   timestamptz NOT NULL,
  -- when the first delivery after it was received, and when the check saw it
  resumed_at    timestamptz,
  ended_at      timestamptz
);
CREATE UNIQUE INDEX account_silences_open_idx ON account_silences (account_id) WHERE ended_at IS NULL;
CREATE INDEX account_silences_account_idx ON account_silences (account_id, id DESC);

-- Down Migration
DROP TABLE account_silences;
