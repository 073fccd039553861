-- Up Migration

-- The raw log: every delivery webhook-ingest accepted, as it crossed the broker, kept whatever
-- ticketing made of it (recorded, held, ignored or dead-lettered), so tickets can be rebuilt
-- from it. Append-only: nobody updates or truncates it; the service's role may only add and
-- read; entries past the retention go through raw_log_purge, which runs as the table's owner.
CREATE TABLE raw_log (
  seq          bigserial PRIMARY KEY,
  -- the envelope id: delivery-<sha256 of the bytes received>; one entry per delivery
  delivery_id  text NOT NULL UNIQUE,
  env_name     text NOT NULL,
  kind         text NOT NULL,
  for_user_id  text,
  received_at  timestamptz NOT NULL,
  logged_at    timestamptz NOT NULL DEFAULT now(),
  body_sha256  text NOT NULL,
  -- the message's bytes (the envelope webhook-ingest published, the delivery's body inside)
  message      bytea NOT NULL
);
CREATE INDEX raw_log_account_idx ON raw_log (for_user_id, seq);
CREATE INDEX raw_log_logged_at_idx ON raw_log (logged_at);

CREATE FUNCTION raw_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'raw_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER raw_log_append_only BEFORE UPDATE OR TRUNCATE ON raw_log
  FOR EACH STATEMENT EXECUTE FUNCTION raw_log_refuse_change();

-- Whoever was granted rights on new tables (the service's role) keeps SELECT and INSERT only.
DO $$
DECLARE grantee_name text;
BEGIN
  FOR grantee_name IN
    SELECT DISTINCT grantee FROM information_schema.role_table_grants
    WHERE table_schema = 'public' AND table_name = 'raw_log' AND grantee <> current_user
  LOOP
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON raw_log FROM %I', grantee_name);
  END LOOP;
END $$;

-- Deletes up to max_rows entries logged before cutoff, oldest first; answers how many went.
CREATE FUNCTION raw_log_purge(cutoff timestamptz, max_rows integer) RETURNS integer
  LANGUAGE sql SECURITY DEFINER SET search_path = public AS $$
  WITH gone AS (
    DELETE FROM raw_log WHERE seq IN (SELECT seq FROM raw_log WHERE logged_at < cutoff ORDER BY seq LIMIT max_rows)
    RETURNING 1
  )
  SELECT count(*)::integer FROM gone
$$;

-- Down Migration
DROP FUNCTION raw_log_purge(timestamptz, integer);
DROP TABLE raw_log;
DROP FUNCTION raw_log_refuse_change();
