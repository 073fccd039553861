-- Up Migration

-- The open work of a year of tickets (plans before and after in bench/ticketing/RESULTS.md,
-- printed by `pnpm bench:reads`). Partial: they hold only open and pending tickets, a few
-- percent of the table, so a closed ticket costs them nothing and they stay small as the
-- year grows.
--
-- An agent's open tickets newest first (`assignee=<agent>|me&status=open,pending`, the `mine`
-- view), with or without an account: without it, tickets_assignee_created_idx walks every
-- ticket the agent ever had, closed ones included, when fewer open ones than a page remain.
CREATE INDEX tickets_open_assignee_idx ON tickets (assignee, created_at DESC, id DESC) WHERE status IN ('open', 'pending');
-- A rare open queue or queue and folder of an account (each folder of the views): without it,
-- tickets_account_queue_idx walks every closed ticket the queue ever had in that account.
CREATE INDEX tickets_open_account_queue_idx ON tickets (account_id, queue, folder, created_at DESC, id DESC) WHERE status IN ('open', 'pending');

-- Down Migration

DROP INDEX tickets_open_account_queue_idx;
DROP INDEX tickets_open_assignee_idx;
