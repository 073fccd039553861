-- Up Migration
-- An account whose owner revoked the app on the platform (`account.revoked`): it stays listed
-- as revoked, and its sealed token pair is dropped, so nothing is left to leak or to use.
ALTER TABLE accounts ALTER COLUMN access_token_sealed DROP NOT NULL;
ALTER TABLE accounts ALTER COLUMN access_token_secret_sealed DROP NOT NULL;
ALTER TABLE accounts DROP CONSTRAINT accounts_status_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_status_check CHECK (status IN ('connected', 'needs_reconnect', 'revoked'));
-- Credentials exactly when not revoked.
ALTER TABLE accounts ADD CONSTRAINT accounts_tokens_unless_revoked CHECK (
  (status = 'revoked') = (access_token_sealed IS NULL AND access_token_secret_sealed IS NULL)
);

-- Down Migration
DELETE FROM accounts WHERE status = 'revoked';
ALTER TABLE accounts DROP CONSTRAINT accounts_tokens_unless_revoked;
ALTER TABLE accounts DROP CONSTRAINT accounts_status_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_status_check CHECK (status IN ('connected', 'needs_reconnect'));
ALTER TABLE accounts ALTER COLUMN access_token_secret_sealed SET NOT NULL;
ALTER TABLE accounts ALTER COLUMN access_token_sealed SET NOT NULL;
