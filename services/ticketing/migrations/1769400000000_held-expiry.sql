-- Up Migration
-- Held deliveries of accounts that never get a configuration do not stay forever: those held
-- past HELD_TTL_DAYS are deleted (each is still in the raw log) and counted here per account.
CREATE TABLE held_expired (
  account_id      text PRIMARY KEY,
  deliveries      bigint NOT NULL,
  last_expired_at timestamptz NOT NULL
);
CREATE INDEX held_deliveries_held_at_idx ON held_deliveries (held_at);

-- Down Migration
DROP INDEX held_deliveries_held_at_idx;
DROP TABLE held_expired;
