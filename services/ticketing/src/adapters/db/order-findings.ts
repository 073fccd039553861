import type { Queryable } from './queryable';

/** Order references found in a customer's message, waiting to be checked with tracking. */
export interface OrderFinding {
  id: string;
  ticket_id: string;
  client_id: string;
  candidates: { reference: string; taskId: string }[];
  attempts: number;
}

/** The outbox of order references: written with the message, worked after the commit. */
export class OrderFindingRepository {
  constructor(private readonly db: Queryable) {}

  /** Notes the references found for a ticket, unless it has an order already. */
  async enqueue(ticketId: string, clientId: string, candidates: OrderFinding['candidates']): Promise<void> {
    await this.db.query(
      `INSERT INTO order_findings (ticket_id, client_id, candidates)
       SELECT $1, $2, $3::jsonb WHERE NOT EXISTS (SELECT 1 FROM ticket_orders WHERE ticket_id = $1)`,
      [ticketId, clientId, JSON.stringify(candidates)],
    );
  }

  /**
   * Up to `limit` findings due now, each put off by `leaseMs` so no other run (another replica)
   * takes it while this one works it; it is deleted or rescheduled once worked.
   */
  async claimDue(limit: number, leaseMs: number): Promise<OrderFinding[]> {
    const { rows } = await this.db.query<OrderFinding>(
      `UPDATE order_findings f SET due_at = now() + $2 * interval '1 millisecond'
        WHERE id IN (SELECT id FROM order_findings WHERE due_at <= now() ORDER BY due_at, id LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING id::text, ticket_id, client_id, candidates, attempts`,
      [limit, leaseMs],
    );
    return rows;
  }

  async done(id: string): Promise<void> {
    await this.db.query('DELETE FROM order_findings WHERE id = $1', [id]);
  }

  /** Tracking could not answer: asked again after `delayMs`. */
  async retryLater(id: string, delayMs: number): Promise<void> {
    await this.db.query(`UPDATE order_findings SET attempts = attempts + 1, due_at = now() + $2 * interval '1 millisecond' WHERE id = $1`, [id, delayMs]);
  }
}
