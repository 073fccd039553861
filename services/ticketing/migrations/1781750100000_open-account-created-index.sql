-- Up Migration

-- An account's open work newest first (the agents' default view, and its unassigned tickets):
-- without it, the plan walked every account's tickets newest first (tickets_created_idx),
-- 2,560 read for a page of 51 unassigned open ones in a big account; with it, 69 (plans in
-- bench/ticketing/RESULTS.md). Partial: the open and pending tickets are a few in a hundred.
CREATE INDEX tickets_open_account_created_idx ON tickets (account_id, created_at DESC, id DESC) WHERE status IN ('open', 'pending');

-- Down Migration

DROP INDEX tickets_open_account_created_idx;
