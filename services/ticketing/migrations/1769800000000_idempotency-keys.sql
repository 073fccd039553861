-- Up Migration
-- Idempotency keys of writes that send something to the platform (replies, actions): one row
-- per (principal, account of the ticket, key), claimed inside the write's own transaction, so
-- concurrent requests with one key wait for the first and replay its answer. `fingerprint` is
-- the sha256 of the operation and its body (another body with the key is refused); `answer` is
-- the first answer, written by the same transaction (never seen null by another one). Rows are deleted after
-- IDEMPOTENCY_KEY_TTL_HOURS.
CREATE TABLE idempotency_keys (
  principal_id  text NOT NULL,
  account_id    text NOT NULL,
  key           text NOT NULL,
  fingerprint   text NOT NULL,
  answer        jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (principal_id, account_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

-- Down Migration
DROP TABLE idempotency_keys;
