-- Up Migration

-- The audit log is append-only (its trigger refuses UPDATE, DELETE and TRUNCATE): the rights say
-- the same. Every role granted rights on it besides its owner (the service's role, through the
-- migrator's default privileges) keeps SELECT and INSERT only. Read from the catalog:
-- information_schema shows only the grants of roles the migrating user holds.
DO $$
DECLARE grantee_name text;
BEGIN
  FOR grantee_name IN
    SELECT DISTINCT CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(acl.grantee)) END
      FROM pg_class c, aclexplode(c.relacl) acl
     WHERE c.oid = 'public.audit_log'::regclass AND acl.grantee <> c.relowner AND acl.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
  LOOP
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM %s', grantee_name);
  END LOOP;
END $$;

-- Down Migration
-- (rights taken back stay so)
