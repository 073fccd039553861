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
}

/** The error `link` fails with when the ticket does not exist (PostgreSQL's foreign key violation). */
export const isMissingTicket = (error: unknown) => (error as { code?: string }).code === '23503';

const COLUMNS = 'client_id, task_id, linked_at, tracking_available, tracking_reason, tracking_message, tracking_checked_at';

/** The order each ticket is linked to, and tracking's last answer about it. */
export class OrderRepository {
  constructor(private readonly db: Queryable) {}

  /** Links the ticket to an order; the same order again keeps what tracking said, another one starts unchecked. */
  async link(ticketId: string, clientId: string, taskId: string): Promise<OrderRow> {
    const { rows } = await this.db.query<OrderRow>(
      `INSERT INTO ticket_orders (ticket_id, client_id, task_id) VALUES ($1, $2, $3)
       ON CONFLICT (ticket_id) DO UPDATE SET client_id = EXCLUDED.client_id, task_id = EXCLUDED.task_id, linked_at = now(),
         tracking_available = NULL, tracking_reason = NULL, tracking_message = NULL, tracking_checked_at = NULL
         WHERE (ticket_orders.client_id, ticket_orders.task_id) IS DISTINCT FROM (EXCLUDED.client_id, EXCLUDED.task_id)
       RETURNING ${COLUMNS}`,
      [ticketId, clientId, taskId],
    );
    return rows[0] ?? (await this.find(ticketId))!;
  }

  /** Unlinks the ticket from its order, if any; false when there is no such ticket (one statement: nothing to guard a delete). */
  async unlink(ticketId: string): Promise<boolean> {
    const { rows } = await this.db.query<{ found: boolean }>(
      `WITH unlinked AS (DELETE FROM ticket_orders WHERE ticket_id = $1 RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM unlinked) OR EXISTS (SELECT 1 FROM tickets WHERE id = $1) AS found`,
      [ticketId],
    );
    return rows[0]!.found;
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
