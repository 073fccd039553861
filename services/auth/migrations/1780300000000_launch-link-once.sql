-- Up Migration
-- A launch link opens one session, whichever console replica opens it: its id is unique.
ALTER TABLE sessions ADD COLUMN launch_link_id text;
CREATE UNIQUE INDEX sessions_launch_link_once ON sessions (launch_link_id) WHERE launch_link_id IS NOT NULL;

-- Down Migration
DROP INDEX sessions_launch_link_once;
ALTER TABLE sessions DROP COLUMN launch_link_id;
