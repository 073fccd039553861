import type { Queryable } from './queryable';
import type { TrackingAvailability } from '@crm/contracts';

/** The order a ticket is linked to, and tracking's last answer about it. */
export interface OrderRow {
  client_id: string;
  task_id: string;
  linked_at: Date;
  tracking_available: boolean | null;
  tracking_reason: string | null;
  tracking_message: string | null;
  tracking_checked_at: Date | null;
  /** `agent` (PUT /v1/tickets/:id/order) or `auto` (found in a customer's message). */
  linked_by: 'agent' | 'auto';
  /** The words it was found by (auto links); null for an agent's. */
  reference: string | null;
  /** The followed task's status (TASK_STATUSES) and ETA, as last heard; null until known. */
  status: string | null;
  eta: Date | null;
}

/** The error `link` fails with when the ticket does not exist (PostgreSQL's foreign key violation). */
export const isMissingTicket = (error: unknown) => (error as { code?: string }).code === '23503';

const COLUMNS = 'client_id, task_id, linked_at, tracking_available, tracking_reason, tracking_message, tracking_checked_at, linked_by, reference, status, eta';

/** The order each ticket is linked to, and tracking's last answer about it. */
export class OrderRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * An agent links the ticket to an order: the same order again keeps what tracking said (and
   * becomes the agent's), another one starts unchecked. The order is no longer refused for it.
   * `changed`: the ticket had no order, or another one.
   */
  async link(ticketId: string, clientId: string, taskId: string): Promise<{ row: OrderRow; changed: boolean; previous: { clientId: string; taskId: string } | null }> {
    const { rows } = await this.db.query<OrderRow & { previous_client_id: string | null; previous_task_id: string | null }>(
      `WITH previous AS (SELECT client_id, task_id FROM ticket_orders WHERE ticket_id = $1 FOR UPDATE),
       allowed AS (DELETE FROM refused_order_references WHERE ticket_id = $1 AND client_id = $2 AND task_id = $3),
       linked AS (
         INSERT INTO ticket_orders (ticket_id, client_id, task_id, linked_by) VALUES ($1, $2, $3, 'agent')
         ON CONFLICT (ticket_id) DO UPDATE SET client_id = EXCLUDED.client_id, task_id = EXCLUDED.task_id, linked_at = now(), linked_by = 'agent', reference = NULL,
           tracking_available = NULL, tracking_reason = NULL, tracking_message = NULL, tracking_checked_at = NULL,
           status = NULL, eta = NULL, first_eta = NULL, slip_raised = false, following = true
           WHERE (ticket_orders.client_id, ticket_orders.task_id) IS DISTINCT FROM (EXCLUDED.client_id, EXCLUDED.task_id)
         RETURNING ${COLUMNS})
       SELECT l.*, p.client_id AS previous_client_id, p.task_id AS previous_task_id FROM linked l LEFT JOIN previous p ON true`,
      [ticketId, clientId, taskId],
    );
    const inserted = rows[0];
    if (!inserted) {
      await this.db.query(`UPDATE ticket_orders SET linked_by = 'agent', reference = NULL WHERE ticket_id = $1`, [ticketId]);
      return { row: (await this.find(ticketId))!, changed: false, previous: null };
    }
    const { previous_client_id: previousClient, previous_task_id: previousTask, ...row } = inserted;
    return { row, changed: true, previous: previousClient !== null && previousTask !== null ? { clientId: previousClient, taskId: previousTask } : null };
  }

  /**
   * Links the ticket to an order found in a customer's words, unless it has one already or an
   * agent unlinked this order from it; null when not linked.
   */
  async autoLink(ticketId: string, clientId: string, taskId: string, reference: string): Promise<OrderRow | null> {
    const { rows } = await this.db.query<OrderRow>(
      `INSERT INTO ticket_orders (ticket_id, client_id, task_id, linked_by, reference)
       SELECT $1, $2, $3, 'auto', $4
        WHERE EXISTS (SELECT 1 FROM tickets WHERE id = $1 AND status NOT IN ('merged'))
          AND NOT EXISTS (SELECT 1 FROM refused_order_references WHERE ticket_id = $1 AND client_id = $2 AND task_id = $3)
       ON CONFLICT (ticket_id) DO NOTHING
       RETURNING ${COLUMNS}`,
      [ticketId, clientId, taskId, reference],
    );
    return rows[0] ?? null;
  }

  /**
   * Unlinks the ticket from its order, if any, remembering the order as refused for it (never
   * linked again from a customer's words). `found` false when there is no such ticket;
   * `unlinked` the order it had (one statement: nothing to guard a delete).
   */
  async unlink(ticketId: string): Promise<{ found: boolean; unlinked: { clientId: string; taskId: string } | null }> {
    const { rows } = await this.db.query<{ found: boolean; client_id: string | null; task_id: string | null }>(
      `WITH unlinked AS (DELETE FROM ticket_orders WHERE ticket_id = $1 RETURNING client_id, task_id),
       refused AS (INSERT INTO refused_order_references (ticket_id, client_id, task_id) SELECT $1, client_id, task_id FROM unlinked ON CONFLICT DO NOTHING)
       SELECT EXISTS (SELECT 1 FROM unlinked) OR EXISTS (SELECT 1 FROM tickets WHERE id = $1) AS found,
              (SELECT client_id FROM unlinked) AS client_id, (SELECT task_id FROM unlinked) AS task_id`,
      [ticketId],
    );
    const { found, client_id: clientId, task_id: taskId } = rows[0]!;
    return { found, unlinked: clientId !== null && taskId !== null ? { clientId, taskId } : null };
  }

  /**
   * The followed task's status and ETA as now known, for the link it was asked about (none
   * when the ticket was linked to another order meanwhile); the first ETA seen is kept, what
   * a slip is measured from. Returns the row as it is now.
   */
  async recordState(
    ticketId: string,
    link: { clientId: string; taskId: string },
    state: { status?: string | null; eta?: Date | null; firstEta?: Date; slipRaised?: boolean },
  ): Promise<OrderRow | null> {
    await this.db.query(
      `UPDATE ticket_orders SET status = CASE WHEN $4 THEN $5 ELSE status END, eta = CASE WHEN $6 THEN $7::timestamptz ELSE eta END,
              first_eta = COALESCE(first_eta, $9::timestamptz, CASE WHEN $6 THEN $7::timestamptz END), slip_raised = slip_raised OR $8
        WHERE ticket_id = $1 AND client_id = $2 AND task_id = $3`,
      [ticketId, link.clientId, link.taskId, state.status !== undefined, state.status ?? null, state.eta !== undefined, state.eta ?? null, state.slipRaised ?? false, state.firstEta ?? null],
    );
    return this.find(ticketId);
  }

  /** What the rules of a followed order need: the first ETA seen and whether a slip raised the priority already. */
  async followState(ticketId: string): Promise<{ first_eta: Date | null; slip_raised: boolean } | null> {
    const { rows } = await this.db.query<{ first_eta: Date | null; slip_raised: boolean }>('SELECT first_eta, slip_raised FROM ticket_orders WHERE ticket_id = $1', [ticketId]);
    return rows[0] ?? null;
  }

  /** The ticket's link, whether it follows the order in tracking now, and the order's status as last heard; null when it has no order. */
  async followingOf(ticketId: string): Promise<{ link: { clientId: string; taskId: string }; following: boolean; status: string | null } | null> {
    const { rows } = await this.db.query<{ client_id: string; task_id: string; following: boolean; status: string | null }>(
      'SELECT client_id, task_id, following, status FROM ticket_orders WHERE ticket_id = $1',
      [ticketId],
    );
    const row = rows[0];
    return row ? { link: { clientId: row.client_id, taskId: row.task_id }, following: row.following, status: row.status } : null;
  }

  /** Notes that the ticket follows the linked order, or no longer does; false when it already did so (or the link is another one now). */
  async setFollowing(ticketId: string, link: { clientId: string; taskId: string }, following: boolean): Promise<boolean> {
    const { rowCount } = await this.db.query('UPDATE ticket_orders SET following = $4 WHERE ticket_id = $1 AND client_id = $2 AND task_id = $3 AND following <> $4', [
      ticketId,
      link.clientId,
      link.taskId,
      following,
    ]);
    return (rowCount ?? 0) > 0;
  }

  /** Whether an agent unlinked this order from the ticket (it is never linked again from a customer's words). */
  async refused(ticketId: string, clientId: string, taskId: string): Promise<boolean> {
    const { rows } = await this.db.query('SELECT 1 FROM refused_order_references WHERE ticket_id = $1 AND client_id = $2 AND task_id = $3', [ticketId, clientId, taskId]);
    return rows.length > 0;
  }

  /** Notes a tracking event as applied to the ticket; false when it was already (the same eventId again). */
  async markSeen(eventId: string, ticketId: string): Promise<boolean> {
    const { rowCount } = await this.db.query('INSERT INTO order_events_seen (event_id, ticket_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [eventId, ticketId]);
    return (rowCount ?? 0) > 0;
  }

  async find(ticketId: string): Promise<OrderRow | null> {
    const { rows } = await this.db.query<OrderRow>(`SELECT ${COLUMNS} FROM ticket_orders WHERE ticket_id = $1`, [ticketId]);
    return rows[0] ?? null;
  }

  /**
   * Keeps tracking's answer for the link it was asked about: not when the ticket was linked to
   * another order meanwhile, nor over a newer answer. Returns the row as it is now (null when unlinked).
   */
  async recordAvailability(ticketId: string, link: { clientId: string; taskId: string }, answer: TrackingAvailability, checkedAt: Date): Promise<OrderRow | null> {
    await this.db.query(
      `UPDATE ticket_orders SET tracking_available = $4, tracking_reason = $5, tracking_message = $6, tracking_checked_at = $7
        WHERE ticket_id = $1 AND client_id = $2 AND task_id = $3 AND (tracking_checked_at IS NULL OR tracking_checked_at < $7)`,
      [ticketId, link.clientId, link.taskId, answer.available, answer.reason, answer.message, checkedAt],
    );
    return this.find(ticketId);
  }
}
