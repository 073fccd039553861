-- Up Migration

-- The agents' workspace's views (GET /v1/ticket-counts) answer from these counters instead of
-- counting over the tickets: how many open or pending tickets each account holds per status,
-- queue, folder, assignee (null: nobody) and SLA breach. A trigger on tickets keeps them.
--
-- Each combination is spread over slots (the writing session's backend pid modulo 8), so
-- transactions that change tickets of the same view at the same time (deliveries opening
-- tickets of one account) each add to a row of their own instead of queueing on one row lock
-- until the other commits. A view's count is the sum over its slots; one slot alone may be
-- negative (a ticket counted in one slot and closed from another). ticket_view_counts_fold()
-- folds the slots back into slot 0 and drops empty rows (ticketing runs it periodically).
CREATE TABLE ticket_view_counts (
  account_id text NOT NULL,
  status     text NOT NULL CHECK (status IN ('open', 'pending')),
  queue      text NOT NULL,
  folder     text NOT NULL,
  assignee   text,
  breached   boolean NOT NULL,
  slot       smallint NOT NULL,
  tickets    bigint NOT NULL,
  CONSTRAINT ticket_view_counts_key UNIQUE NULLS NOT DISTINCT (account_id, status, queue, folder, assignee, breached, slot)
);

CREATE FUNCTION ticket_view_counts_add(p_account text, p_status text, p_queue text, p_folder text, p_assignee text, p_breached boolean, p_delta integer)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO ticket_view_counts AS c (account_id, status, queue, folder, assignee, breached, slot, tickets)
  VALUES (p_account, p_status, p_queue, p_folder, p_assignee, p_breached, pg_backend_pid() % 8, p_delta)
  ON CONFLICT (account_id, status, queue, folder, assignee, breached, slot) DO UPDATE SET tickets = c.tickets + excluded.tickets
$$;

-- A ticket leaves its old view (if it was open or pending) and enters its new one (if it is).
CREATE FUNCTION ticket_view_counts_after_tickets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.status IN ('open', 'pending') THEN
    PERFORM ticket_view_counts_add(OLD.account_id, OLD.status, OLD.queue, OLD.folder, OLD.assignee, OLD.sla_breached, -1);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status IN ('open', 'pending') THEN
    PERFORM ticket_view_counts_add(NEW.account_id, NEW.status, NEW.queue, NEW.folder, NEW.assignee, NEW.sla_breached, 1);
  END IF;
  RETURN NULL;
END $$;

-- Only the changes that move a ticket between views run the function: a new activity on a
-- ticket (last_activity_at, updated_at) does not.
CREATE TRIGGER ticket_view_counts_inserted AFTER INSERT ON tickets FOR EACH ROW
  WHEN (NEW.status IN ('open', 'pending')) EXECUTE FUNCTION ticket_view_counts_after_tickets();
CREATE TRIGGER ticket_view_counts_updated AFTER UPDATE OF account_id, status, queue, folder, assignee, sla_breached ON tickets FOR EACH ROW
  WHEN ((OLD.status IN ('open', 'pending') OR NEW.status IN ('open', 'pending'))
        AND (OLD.account_id, OLD.status, OLD.queue, OLD.folder, OLD.assignee, OLD.sla_breached)
            IS DISTINCT FROM (NEW.account_id, NEW.status, NEW.queue, NEW.folder, NEW.assignee, NEW.sla_breached))
  EXECUTE FUNCTION ticket_view_counts_after_tickets();
CREATE TRIGGER ticket_view_counts_deleted AFTER DELETE ON tickets FOR EACH ROW
  WHEN (OLD.status IN ('open', 'pending')) EXECUTE FUNCTION ticket_view_counts_after_tickets();

CREATE FUNCTION ticket_view_counts_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE ticket_view_counts;
  RETURN NULL;
END $$;
CREATE TRIGGER ticket_view_counts_truncated AFTER TRUNCATE ON tickets FOR EACH STATEMENT
  EXECUTE FUNCTION ticket_view_counts_after_truncate();

-- Folds the slots of each combination into slot 0 and drops the combinations no ticket is in
-- any more; the counts stay the same. The rows it takes are locked until it commits.
CREATE FUNCTION ticket_view_counts_fold() RETURNS bigint LANGUAGE sql AS $$
  WITH taken AS (
    DELETE FROM ticket_view_counts c
     USING (SELECT account_id, status, queue, folder, assignee, breached
              FROM ticket_view_counts GROUP BY 1, 2, 3, 4, 5, 6
            HAVING count(*) > 1 OR sum(tickets) = 0 OR min(slot) <> 0) spread
     WHERE (c.account_id, c.status, c.queue, c.folder, c.breached) = (spread.account_id, spread.status, spread.queue, spread.folder, spread.breached)
       AND c.assignee IS NOT DISTINCT FROM spread.assignee
    RETURNING c.*),
  kept AS (
    INSERT INTO ticket_view_counts (account_id, status, queue, folder, assignee, breached, slot, tickets)
    SELECT account_id, status, queue, folder, assignee, breached, 0, sum(tickets)
      FROM taken GROUP BY account_id, status, queue, folder, assignee, breached HAVING sum(tickets) <> 0
    ON CONFLICT (account_id, status, queue, folder, assignee, breached, slot) DO UPDATE SET tickets = ticket_view_counts.tickets + excluded.tickets
    RETURNING 1)
  SELECT count(*) FROM taken
$$;

-- The tickets there are already (the trigger above is in place, and blocks writes to tickets
-- until this migration commits, so none is missed or counted twice).
INSERT INTO ticket_view_counts (account_id, status, queue, folder, assignee, breached, slot, tickets)
SELECT account_id, status, queue, folder, assignee, sla_breached, 0, count(*)
  FROM tickets WHERE status IN ('open', 'pending')
 GROUP BY account_id, status, queue, folder, assignee, sla_breached;

-- Down Migration

DROP FUNCTION ticket_view_counts_fold();
DROP TRIGGER ticket_view_counts_truncated ON tickets;
DROP FUNCTION ticket_view_counts_after_truncate();
DROP TRIGGER ticket_view_counts_deleted ON tickets;
DROP TRIGGER ticket_view_counts_updated ON tickets;
DROP TRIGGER ticket_view_counts_inserted ON tickets;
DROP FUNCTION ticket_view_counts_after_tickets();
DROP FUNCTION ticket_view_counts_add(text, text, text, text, text, boolean, integer);
DROP TABLE ticket_view_counts;
