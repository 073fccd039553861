-- Up Migration
-- Connections started with POST /v1/connections, waiting for their OAuth callback. The
-- request token is kept only as a hash (it travels in browser URLs); its secret sealed.
CREATE TABLE connection_requests (
  token_sha256 text PRIMARY KEY,
  token_secret_sealed text NOT NULL,
  env_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

-- Connected accounts: the access token pair sealed with CREDENTIALS_KEY, a masked copy of
-- the token for display.
CREATE TABLE accounts (
  account_id text PRIMARY KEY,
  screen_name text NOT NULL,
  name text,
  env_name text NOT NULL,
  consumer_key text NOT NULL,
  access_token_sealed text NOT NULL,
  access_token_secret_sealed text NOT NULL,
  access_token_masked text NOT NULL,
  status text NOT NULL CHECK (status IN ('connected', 'needs_reconnect')),
  status_reason text,
  connected_via text NOT NULL CHECK (connected_via IN ('oauth', 'import')),
  connected_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The webhook auth registered per environment, and whose user context registered it (the
-- app owner's), so the periodic check can re-run its CRC.
CREATE TABLE webhook_registrations (
  env_name text PRIMARY KEY,
  webhook_id text NOT NULL,
  url text NOT NULL,
  owner_account_id text NOT NULL,
  registered_at timestamptz NOT NULL DEFAULT now(),
  -- set while a webhook.invalid event stands for it, so the check does not repeat it
  invalid_reported_at timestamptz
);

-- Every command is recorded before auth calls out: a redelivered command is never sent
-- twice, and a send whose outcome is unknown is reported as such, not retried.
CREATE TABLE commands (
  command_id text PRIMARY KEY,
  source text NOT NULL CHECK (source IN ('broker', 'http')),
  action text NOT NULL,
  account_id text NOT NULL,
  input_sha256 text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'sending', 'succeeded', 'failed', 'unknown')),
  attempts integer NOT NULL DEFAULT 0,
  sending_since timestamptz,
  result jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commands_account_idx ON commands (account_id, created_at);

-- Down Migration
DROP TABLE commands;
DROP TABLE webhook_registrations;
DROP TABLE accounts;
DROP TABLE connection_requests;
