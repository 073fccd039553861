-- Up Migration
-- The app's consumer key and secret per webhook environment; the secret sealed with CREDENTIALS_KEY.
CREATE TABLE app_credentials (
  env_name text PRIMARY KEY,
  consumer_key text NOT NULL,
  consumer_secret_sealed text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE app_credentials;
