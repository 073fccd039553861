-- Up Migration

-- The raw log refuses DELETE as it refuses UPDATE and TRUNCATE, whatever rights a role was
-- granted (provisioning once granted the service's role DELETE on every table): only the
-- table's owner, or a role holding its rights, deletes. Entries past the retention go through
-- raw_log_purge, which is SECURITY DEFINER: it runs as its owner, who owns the table (the
-- migrator) or holds its rights (a superuser that ran the migrations before provisioning).
CREATE FUNCTION raw_log_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = TG_RELID), 'USAGE') THEN
    RETURN NULL;
  END IF;
  RAISE EXCEPTION 'raw_log is append-only: DELETE refused (entries past the retention go through raw_log_purge)'
    USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER raw_log_delete_by_owner_only BEFORE DELETE ON raw_log
  FOR EACH STATEMENT EXECUTE FUNCTION raw_log_refuse_delete();

-- The rights say the same, for the raw log and the audit log: every role granted rights on
-- them besides their owner (the service's role, through the migrator's default privileges)
-- keeps SELECT and INSERT only. Read from the catalog: information_schema shows only the grants
-- of roles the migrating user holds.
DO $$
DECLARE grant_row record;
BEGIN
  FOR grant_row IN
    SELECT DISTINCT c.relname AS table_name, CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(acl.grantee)) END AS grantee
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace, aclexplode(c.relacl) acl
     WHERE n.nspname = 'public' AND c.relname IN ('raw_log', 'audit_log') AND acl.grantee <> c.relowner
       AND acl.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
  LOOP
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %I FROM %s', grant_row.table_name, grant_row.grantee);
  END LOOP;
END $$;

-- Down Migration
DROP TRIGGER raw_log_delete_by_owner_only ON raw_log;
DROP FUNCTION raw_log_refuse_delete();
