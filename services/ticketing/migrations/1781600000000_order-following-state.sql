-- Up Migration

-- Whether the ticket follows its order in tracking now: a follow_task went out for this link
-- and no unfollow_task since. What lets a reopened ticket follow its order again exactly once,
-- and a ticket already following not be sent a second follow. A link made before this column
-- on a ticket resolved, closed or merged since had its unfollow_task sent.
ALTER TABLE ticket_orders ADD COLUMN following boolean NOT NULL DEFAULT true;
UPDATE ticket_orders o SET following = false FROM tickets t WHERE t.id = o.ticket_id AND t.status IN ('resolved', 'closed', 'merged');

-- Down Migration
ALTER TABLE ticket_orders DROP COLUMN following;
