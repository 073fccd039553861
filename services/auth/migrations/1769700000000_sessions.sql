-- Up Migration
-- Sessions auth issues to the console (token crs_<id>_<secret>; only the secret's sha256 is
-- kept). kind 'credential': a sign-in with an API credential, whose grant is read from the
-- credential's current row (scopes stays null), so revoking the credential ends it.
-- 'bootstrap': a sign-in with a CRM_API_TOKENS token (bootstrap_sha256: the session ends
-- once that token leaves the list). 'launch': a link limited to tickets (ticket_ids).
-- principal_id/name (and scopes, without a credential) are the grant; issued_by is the
-- principal that asked (the console's credential).
CREATE TABLE sessions (
  id               text PRIMARY KEY CHECK (id ~ '^[a-z0-9]{16}$'),
  secret_sha256    text NOT NULL,
  kind             text NOT NULL CHECK (kind IN ('credential', 'bootstrap', 'launch')),
  credential_id    text REFERENCES api_credentials (id),
  bootstrap_sha256 text,
  principal_id     text NOT NULL,
  principal_name   text NOT NULL,
  scopes           text[] CHECK (cardinality(scopes) > 0),
  ticket_ids       text[],
  issued_by        text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  ended_at         timestamptz,
  CHECK ((kind = 'credential') = (credential_id IS NOT NULL AND scopes IS NULL)),
  CHECK ((kind = 'bootstrap') = (bootstrap_sha256 IS NOT NULL)),
  CHECK ((kind = 'launch') = (ticket_ids IS NOT NULL)),
  CHECK (expires_at > created_at)
);
CREATE INDEX sessions_credential_idx ON sessions (credential_id) WHERE credential_id IS NOT NULL;
-- What the periodic purge looks for.
CREATE INDEX sessions_expiry_idx ON sessions (expires_at);

-- Down Migration
DROP TABLE sessions;
