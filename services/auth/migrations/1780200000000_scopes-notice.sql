-- Up Migration

-- When auth announced that an OAuth 2.0 account lacks scopes it asks for now (once per connection).
ALTER TABLE accounts ADD COLUMN scopes_notice_at timestamptz;
