-- Up Migration

-- An account's breached open work newest first (the breached view): without it, the plan took
-- every open ticket of the account (1,309 in a big account, 984 pages read) and sorted the
-- breached ones; with it, a walk that stops at the page's last ticket (plans in
-- bench/ticketing/RESULTS.md). Partial: breached open tickets are few.
CREATE INDEX tickets_open_breached_idx ON tickets (account_id, created_at DESC, id DESC) WHERE status IN ('open', 'pending') AND sla_breached;

-- Down Migration

DROP INDEX tickets_open_breached_idx;
