-- Up Migration
-- Clients for which tracking is turned on (by the CRM, on request), with their provider API
-- key sealed with CREDENTIALS_KEY. Task data is not stored: it is cached in memory for seconds.
CREATE TABLE tracking_clients (
  client_id text PRIMARY KEY,
  enabled boolean NOT NULL,
  api_key_sealed text NOT NULL,
  -- What the API shows instead of the key (abcd…wxyz).
  api_key_masked text NOT NULL,
  -- Extra field groups always asked of the provider for this client.
  include text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE tracking_clients;
