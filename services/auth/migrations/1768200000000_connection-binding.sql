-- Up Migration
-- A connection is bound to the browser that started it: the CRM gets a one-time start link,
-- opening it sets a binding cookie, and only a callback carrying that cookie may complete or
-- cancel the request. Only hashes of the link and the binding are stored.
ALTER TABLE connection_requests
  ADD COLUMN start_link_sha256 text UNIQUE,
  ADD COLUMN authorize_url text,
  ADD COLUMN binding_sha256 text,
  ADD COLUMN opened_at timestamptz;

-- Down Migration
ALTER TABLE connection_requests
  DROP COLUMN start_link_sha256,
  DROP COLUMN authorize_url,
  DROP COLUMN binding_sha256,
  DROP COLUMN opened_at;
