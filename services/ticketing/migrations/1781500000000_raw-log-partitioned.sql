-- Up Migration

-- The raw log partitioned by its logging time, a week to a partition, so the retention drops
-- whole weeks (DROP TABLE: no row-by-row DELETE, no WAL per entry, nothing left for VACUUM)
-- instead of deleting entries in batches.
--
-- A week: with RAW_LOG_RETENTION_DAYS at its default (30) five or six partitions are live, so
-- the reads that go through every partition (the rebuild's seq order, the silence alarm's
-- latest entry of an account, the duplicate look-up below) stay a handful of index probes,
-- where days would make thirty; an entry stays at most a week past the retention before its
-- week goes whole.
--
-- One entry per delivery: a unique index of a partitioned table must hold its partition key,
-- so it is (delivery_id, logged_at), and a delivery logged again takes the logging time of its
-- first entry (raw_log_logged_at): the same key, in the same partition, where ON CONFLICT finds
-- it, however much later it comes back (the platform sending the same bytes again next week).
-- Two transactions logging the same delivery at once (a broker redelivery while the first is
-- still recording) are put in line by a lock on the delivery: the second looks once the first
-- has committed and sees its entry.
--
-- A partition is made ahead for this week and the next two (raw_log_prepare, run by the
-- retention job and here); should the job not run for that long, entries go to the DEFAULT
-- partition instead of failing the delivery, and are moved into their week's partition when
-- it is made.

ALTER TABLE raw_log RENAME TO raw_log_unpartitioned;
ALTER TABLE raw_log_unpartitioned DROP CONSTRAINT raw_log_pkey, DROP CONSTRAINT raw_log_delivery_id_key;
DROP INDEX raw_log_account_idx;
DROP INDEX raw_log_logged_at_idx;
DROP FUNCTION raw_log_purge(timestamptz, integer);

CREATE TABLE raw_log (
  seq          bigint NOT NULL DEFAULT nextval('raw_log_seq_seq'),
  -- the envelope id: delivery-<sha256 of the bytes received>; one entry per delivery
  delivery_id  text NOT NULL,
  env_name     text NOT NULL,
  kind         text NOT NULL,
  for_user_id  text,
  received_at  timestamptz NOT NULL,
  logged_at    timestamptz NOT NULL DEFAULT now(),
  body_sha256  text NOT NULL,
  -- the message's bytes (the envelope webhook-ingest published, the delivery's body inside)
  message      bytea NOT NULL,
  PRIMARY KEY (seq, logged_at),
  UNIQUE (delivery_id, logged_at)
) PARTITION BY RANGE (logged_at);
ALTER SEQUENCE raw_log_seq_seq OWNED BY raw_log.seq;
CREATE INDEX raw_log_account_idx ON raw_log (for_user_id, seq);

-- Appending: UPDATE and TRUNCATE refused to everyone, DELETE to all but the owner, on the
-- table and on each partition (a statement naming a partition fires that partition's triggers).
CREATE TRIGGER raw_log_append_only BEFORE UPDATE OR TRUNCATE ON raw_log
  FOR EACH STATEMENT EXECUTE FUNCTION raw_log_refuse_change();
CREATE TRIGGER raw_log_delete_by_owner_only BEFORE DELETE ON raw_log
  FOR EACH STATEMENT EXECUTE FUNCTION raw_log_refuse_delete();

-- The rights on one part of the raw log (the table or a partition): its owner's, and SELECT
-- and INSERT for every other role granted any (the service's role, through the migrator's
-- default privileges).
CREATE FUNCTION raw_log_keep_append_only(part regclass) RETURNS void LANGUAGE plpgsql SET search_path = public AS $$
DECLARE grantee_name text;
BEGIN
  FOR grantee_name IN
    SELECT DISTINCT CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(acl.grantee)) END
      FROM pg_class c, aclexplode(c.relacl) acl
     WHERE c.oid = part AND acl.grantee <> c.relowner AND acl.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
  LOOP
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %s FROM %s', part, grantee_name);
  END LOOP;
END $$;

-- A partition with the table's guarantees: its triggers and its rights.
CREATE FUNCTION raw_log_guard_partition(part regclass) RETURNS void LANGUAGE plpgsql SET search_path = public AS $$
BEGIN
  EXECUTE format('CREATE TRIGGER raw_log_append_only BEFORE UPDATE OR TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION raw_log_refuse_change()', part);
  EXECUTE format('CREATE TRIGGER raw_log_delete_by_owner_only BEFORE DELETE ON %s FOR EACH STATEMENT EXECUTE FUNCTION raw_log_refuse_delete()', part);
  PERFORM raw_log_keep_append_only(part);
END $$;

CREATE TABLE raw_log_default PARTITION OF raw_log DEFAULT;
SELECT raw_log_guard_partition('raw_log_default');
SELECT raw_log_keep_append_only('raw_log');

-- The Monday (UTC) starting the week of a moment: the lower bound of its partition.
CREATE FUNCTION raw_log_week_of(at timestamptz) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT date_trunc('week', at AT TIME ZONE 'UTC')::date
$$;

-- Makes the partitions of the weeks from `first_week` to the week `weeks_ahead` after the
-- current one that do not exist yet (raw_log_YYYY_MM_DD, by their Monday), moving into each
-- the entries of its week the DEFAULT partition took meanwhile. Answers how many it made.
-- SECURITY DEFINER: the service's role may not create tables; this runs as the table's owner.
CREATE FUNCTION raw_log_prepare(weeks_ahead integer, first_week date DEFAULT NULL) RETURNS integer
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  week date;
  part text;
  made integer := 0;
BEGIN
  FOR week IN
    SELECT generate_series(COALESCE(least(first_week, raw_log_week_of(now())), raw_log_week_of(now())),
                           raw_log_week_of(now()) + 7 * weeks_ahead, interval '7 days')::date
  LOOP
    part := 'raw_log_' || to_char(week, 'YYYY_MM_DD');
    CONTINUE WHEN to_regclass(part) IS NOT NULL;
    EXECUTE format('CREATE TABLE %I (LIKE raw_log INCLUDING DEFAULTS)', part);
    EXECUTE format(
      'WITH moved AS (DELETE FROM raw_log_default WHERE logged_at >= $1 AND logged_at < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved', part)
      USING (week::timestamp AT TIME ZONE 'UTC'), ((week + 7)::timestamp AT TIME ZONE 'UTC');
    EXECUTE format('ALTER TABLE raw_log ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part,
                   week::timestamp AT TIME ZONE 'UTC', (week + 7)::timestamp AT TIME ZONE 'UTC');
    PERFORM raw_log_guard_partition(part::regclass);
    made := made + 1;
  END LOOP;
  RETURN made;
END $$;

-- Entries past the retention: each week's partition once its whole week is before `cutoff`
-- (dropped), and whatever the DEFAULT partition holds from before it (deleted: it holds
-- entries only when the partitions were not made ahead). Answers how many entries went.
-- SECURITY DEFINER: run as the table's owner, the one role that may drop or delete. Dropping a
-- partition locks the whole table until it commits, after the transactions appending to it end:
-- it waits 2 s at most for them (new appends queue behind it meanwhile), else fails and the
-- next run drops the week.
CREATE FUNCTION raw_log_purge(cutoff timestamptz) RETURNS bigint
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public SET lock_timeout = '2s' AS $$
DECLARE
  part record;
  entries bigint;
  purged bigint := 0;
BEGIN
  FOR part IN
    SELECT c.oid::regclass AS name
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'raw_log'::regclass AND c.relname ~ '^raw_log_\d{4}_\d{2}_\d{2}$'
       AND (to_date(substr(c.relname, 9), 'YYYY_MM_DD') + 7)::timestamp AT TIME ZONE 'UTC' <= cutoff
     ORDER BY c.relname
  LOOP
    EXECUTE format('SELECT count(*) FROM %s', part.name) INTO entries;
    EXECUTE format('DROP TABLE %s', part.name);
    purged := purged + entries;
  END LOOP;
  DELETE FROM raw_log_default WHERE logged_at < cutoff;
  GET DIAGNOSTICS entries = ROW_COUNT;
  RETURN purged + entries;
END $$;

-- The logging time a delivery's entry has: its first entry's when it was logged before, else
-- now. The lock on the delivery (until the transaction ends) makes a second transaction logging
-- it wait for the first; this function being VOLATILE, its look-up then sees the first's entry.
CREATE FUNCTION raw_log_logged_at(delivery text) RETURNS timestamptz LANGUAGE plpgsql VOLATILE SET search_path = public AS $$
DECLARE first_logged timestamptz;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('raw_log ' || delivery, 0));
  SELECT logged_at INTO first_logged FROM raw_log WHERE delivery_id = delivery ORDER BY logged_at LIMIT 1;
  RETURN COALESCE(first_logged, now());
END $$;

-- The entries already there, in the weeks they were logged in.
SELECT raw_log_prepare(2, (SELECT raw_log_week_of(min(logged_at)) FROM raw_log_unpartitioned));
INSERT INTO raw_log SELECT seq, delivery_id, env_name, kind, for_user_id, received_at, logged_at, body_sha256, message FROM raw_log_unpartitioned;
DROP TABLE raw_log_unpartitioned;

-- Down Migration

ALTER TABLE raw_log RENAME TO raw_log_partitioned;
ALTER TABLE raw_log_partitioned RENAME CONSTRAINT raw_log_pkey TO raw_log_partitioned_pkey;
ALTER TABLE raw_log_partitioned RENAME CONSTRAINT raw_log_delivery_id_logged_at_key TO raw_log_partitioned_delivery_id_logged_at_key;
ALTER INDEX raw_log_account_idx RENAME TO raw_log_partitioned_account_idx;
CREATE TABLE raw_log (
  seq          bigint PRIMARY KEY DEFAULT nextval('raw_log_seq_seq'),
  delivery_id  text NOT NULL UNIQUE,
  env_name     text NOT NULL,
  kind         text NOT NULL,
  for_user_id  text,
  received_at  timestamptz NOT NULL,
  logged_at    timestamptz NOT NULL DEFAULT now(),
  body_sha256  text NOT NULL,
  message      bytea NOT NULL
);
INSERT INTO raw_log SELECT DISTINCT ON (delivery_id) * FROM raw_log_partitioned ORDER BY delivery_id, logged_at;
ALTER SEQUENCE raw_log_seq_seq OWNED BY raw_log.seq;
DROP TABLE raw_log_partitioned;
CREATE INDEX raw_log_account_idx ON raw_log (for_user_id, seq);
CREATE INDEX raw_log_logged_at_idx ON raw_log (logged_at);
CREATE TRIGGER raw_log_append_only BEFORE UPDATE OR TRUNCATE ON raw_log
  FOR EACH STATEMENT EXECUTE FUNCTION raw_log_refuse_change();
CREATE TRIGGER raw_log_delete_by_owner_only BEFORE DELETE ON raw_log
  FOR EACH STATEMENT EXECUTE FUNCTION raw_log_refuse_delete();
SELECT raw_log_keep_append_only('raw_log');
DROP FUNCTION raw_log_logged_at(text);
DROP FUNCTION raw_log_purge(timestamptz);
DROP FUNCTION raw_log_prepare(integer, date);
DROP FUNCTION raw_log_week_of(timestamptz);
DROP FUNCTION raw_log_guard_partition(regclass);
DROP FUNCTION raw_log_keep_append_only(regclass);
CREATE FUNCTION raw_log_purge(cutoff timestamptz, max_rows integer) RETURNS integer
  LANGUAGE sql SECURITY DEFINER SET search_path = public AS $$
  WITH gone AS (
    DELETE FROM raw_log WHERE seq IN (SELECT seq FROM raw_log WHERE logged_at < cutoff ORDER BY seq LIMIT max_rows)
    RETURNING 1
  )
  SELECT count(*)::integer FROM gone
$$;
