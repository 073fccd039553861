-- Up Migration
-- Every write request of the CRM API: who (the principal), what, the answer. Append-only:
-- the trigger refuses UPDATE, DELETE and TRUNCATE, so not even the service can rewrite it.
CREATE TABLE audit_log (
  id             bigserial PRIMARY KEY,
  at             timestamptz NOT NULL DEFAULT now(),
  principal_id   text NOT NULL,
  principal_name text NOT NULL,
  method         text NOT NULL,
  path           text NOT NULL,
  status         integer NOT NULL,
  request_id     text
);
CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();

-- Down Migration
DROP TABLE audit_log;
DROP FUNCTION audit_log_refuse_change();
