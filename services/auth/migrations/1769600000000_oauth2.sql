-- Up Migration
-- Accounts connected with OAuth 2.0 (Authorization Code with PKCE) beside OAuth 1.0a ones.
-- An OAuth 2.0 account's bearer access token is sealed in access_token_sealed (it has no
-- secret); it expires at access_token_expires_at and is renewed with its refresh token, which
-- the platform rotates on every refresh (the old one stops working). Refreshing locks the
-- account's row (SELECT ... FOR UPDATE) for the whole exchange, so across replicas one
-- refresh per account runs at a time and none uses a refresh token another already spent.
ALTER TABLE accounts
  ADD COLUMN protocol text NOT NULL DEFAULT 'oauth1' CHECK (protocol IN ('oauth1', 'oauth2')),
  ADD COLUMN refresh_token_sealed text,
  ADD COLUMN access_token_expires_at timestamptz,
  ADD COLUMN scopes text[],
  ADD COLUMN token_refreshed_at timestamptz;
ALTER TABLE accounts DROP CONSTRAINT accounts_tokens_unless_revoked;
-- Credentials exactly when not revoked, of the account's protocol only.
ALTER TABLE accounts ADD CONSTRAINT accounts_credentials_by_protocol CHECK (
  CASE protocol
    WHEN 'oauth1' THEN (status = 'revoked') = (access_token_sealed IS NULL AND access_token_secret_sealed IS NULL)
      AND refresh_token_sealed IS NULL AND access_token_expires_at IS NULL
    ELSE access_token_secret_sealed IS NULL
      AND (status = 'revoked') = (access_token_sealed IS NULL AND refresh_token_sealed IS NULL)
      AND (status = 'revoked' OR access_token_expires_at IS NOT NULL)
  END
);
-- What the periodic refresh looks for.
CREATE INDEX accounts_oauth2_expiry_idx ON accounts (access_token_expires_at) WHERE protocol = 'oauth2' AND status = 'connected';

-- A PKCE connection request: token_sha256 is the sha256 of its `state` (which travels in
-- browser URLs, like a request token), code_verifier_sealed its sealed code_verifier; the
-- start link, browser binding, expiry and single use work as for OAuth 1.0a.
ALTER TABLE connection_requests
  ADD COLUMN protocol text NOT NULL DEFAULT 'oauth1' CHECK (protocol IN ('oauth1', 'oauth2')),
  ADD COLUMN code_verifier_sealed text,
  ALTER COLUMN token_secret_sealed DROP NOT NULL;
ALTER TABLE connection_requests ADD CONSTRAINT connection_requests_secret_by_protocol CHECK (
  CASE protocol
    WHEN 'oauth1' THEN token_secret_sealed IS NOT NULL AND code_verifier_sealed IS NULL
    ELSE token_secret_sealed IS NULL AND code_verifier_sealed IS NOT NULL
  END
);

-- Down Migration
DELETE FROM connection_requests WHERE protocol = 'oauth2';
ALTER TABLE connection_requests DROP CONSTRAINT connection_requests_secret_by_protocol;
ALTER TABLE connection_requests ALTER COLUMN token_secret_sealed SET NOT NULL;
ALTER TABLE connection_requests DROP COLUMN code_verifier_sealed, DROP COLUMN protocol;
DELETE FROM accounts WHERE protocol = 'oauth2';
DROP INDEX accounts_oauth2_expiry_idx;
ALTER TABLE accounts DROP CONSTRAINT accounts_credentials_by_protocol;
ALTER TABLE accounts ADD CONSTRAINT accounts_tokens_unless_revoked CHECK (
  (status = 'revoked') = (access_token_sealed IS NULL AND access_token_secret_sealed IS NULL)
);
ALTER TABLE accounts
  DROP COLUMN token_refreshed_at,
  DROP COLUMN scopes,
  DROP COLUMN access_token_expires_at,
  DROP COLUMN refresh_token_sealed,
  DROP COLUMN protocol;
