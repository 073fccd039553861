import type { EndpointInput } from '../../domain/webhooks';
import type { Queryable } from './queryable';

export interface EndpointRow {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  created_at: Date;
}

export interface DueDelivery {
  id: string;
  event_id: string;
  body: Record<string, unknown>;
  attempts: number;
  url: string;
  secret_sealed: string;
}

export interface FailureRow {
  id: string;
  event_id: string;
  event_type: string;
  attempts: number;
  last_error: string | null;
  created_at: Date;
}

const ENDPOINT_COLUMNS = 'id, url, description, event_types, created_at';

/** The CRM's webhook endpoints and the table of their deliveries. */
export class WebhookRepository {
  constructor(private readonly db: Queryable) {}

  async insert(endpoint: EndpointInput, secretSealed: string): Promise<EndpointRow> {
    const { rows } = await this.db.query<EndpointRow>(
      `INSERT INTO webhook_endpoints (url, description, event_types, secret_sealed) VALUES ($1, $2, $3, $4) RETURNING ${ENDPOINT_COLUMNS}`,
      [endpoint.url, endpoint.description, endpoint.eventTypes, secretSealed],
    );
    return rows[0]!;
  }

  async list(): Promise<EndpointRow[]> {
    return (await this.db.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints ORDER BY created_at, id`)).rows;
  }

  async find(id: string): Promise<EndpointRow | null> {
    return (await this.db.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1`, [id])).rows[0] ?? null;
  }

  /** Removes an endpoint and its deliveries; false when there was none. */
  async remove(id: string): Promise<boolean> {
    return ((await this.db.query('DELETE FROM webhook_endpoints WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }

  /**
   * Takes due deliveries for one attempt: each is leased (its next attempt moved `leaseMs` ahead)
   * in a short transaction that skips rows another replica holds, so the HTTP call holds no lock;
   * a replica dying mid-call leaves the delivery to be tried again when the lease ends.
   */
  async leaseDue(limit: number, leaseMs: number): Promise<DueDelivery[]> {
    const { rows } = await this.db.query<DueDelivery>(
      `WITH due AS (
         SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()
          ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries d SET next_attempt_at = now() + make_interval(secs => $2::double precision / 1000), attempts = d.attempts + 1
         FROM due, webhook_endpoints e
        WHERE d.id = due.id AND e.id = d.endpoint_id
       RETURNING d.id, d.event_id, d.body, d.attempts, e.url, e.secret_sealed`,
      [limit, leaseMs],
    );
    return rows;
  }

  async markDelivered(id: string): Promise<void> {
    await this.db.query(`UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now(), last_error = NULL WHERE id = $1`, [id]);
  }

  /** A failed attempt: tried again after `retryInMs`, or dead when null. */
  async markFailed(id: string, error: string, retryInMs: number | null): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET last_error = $2,
         status = CASE WHEN $3::double precision IS NULL THEN 'dead' ELSE 'pending' END,
         next_attempt_at = CASE WHEN $3::double precision IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $3::double precision / 1000) END
       WHERE id = $1`,
      [id, error.slice(0, 1_000), retryInMs],
    );
  }

  /** The endpoint's dead deliveries (the dead-letter list), oldest first. */
  async failures(endpointId: string): Promise<FailureRow[]> {
    const { rows } = await this.db.query<FailureRow>(
      `SELECT id, event_id, event_type, attempts, last_error, created_at FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'dead' ORDER BY id LIMIT 500`,
      [endpointId],
    );
    return rows;
  }

  /** Sends one event to the endpoint again, from the first attempt; false when the endpoint never had it. */
  async replay(endpointId: string, eventId: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = now(), last_error = NULL, delivered_at = NULL
        WHERE endpoint_id = $1 AND event_id = $2`,
      [endpointId, eventId],
    );
    return (rowCount ?? 0) > 0;
  }
}
