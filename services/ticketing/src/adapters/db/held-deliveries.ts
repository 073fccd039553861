import type { Envelope, RawActivityPayload } from '@crm/contracts';
import type { Queryable } from './queryable';

export interface HeldRow {
  id: number;
  account_id: string;
  envelope_id: string;
  correlation_id: string;
  kind: string;
  event_count: number;
  payload: RawActivityPayload;
  held_at: Date;
}

export interface HeldCount {
  account_id: string;
  deliveries: number;
  events: number;
  oldest_held_at: Date;
}

/** Deliveries held until their account has a partner configuration. */
export class HeldDeliveryRepository {
  constructor(private readonly db: Queryable) {}

  /** Keeps a delivery for an account without a partner configuration (once per message id). */
  async hold(envelope: Envelope<RawActivityPayload>, accountId: string, eventCount: number): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `INSERT INTO held_deliveries (account_id, envelope_id, correlation_id, kind, event_count, payload)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb)
       ON CONFLICT (envelope_id) DO NOTHING`,
      [accountId, envelope.id, envelope.correlationId, envelope.payload.kind, eventCount, envelope.payload],
    );
    return (rowCount ?? 0) > 0;
  }

  /**
   * The oldest held delivery of an account that no other transaction is releasing right now
   * (and not one of `skipIds`), locked until this transaction ends, so replicas releasing
   * together never take the same one.
   */
  async claimOldest(accountId: string, skipIds: number[] = []): Promise<HeldRow | null> {
    const { rows } = await this.db.query<HeldRow>(
      'SELECT * FROM held_deliveries WHERE account_id = $1 AND id <> ALL($2::bigint[]) ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED',
      [accountId, skipIds],
    );
    return rows[0] ?? null;
  }

  async delete(id: number): Promise<void> {
    await this.db.query('DELETE FROM held_deliveries WHERE id = $1', [id]);
  }

  /** Accounts that have held deliveries and, by now, a partner configuration. */
  async accountsReadyForRelease(): Promise<string[]> {
    const { rows } = await this.db.query<{ account_id: string }>(
      'SELECT DISTINCT h.account_id FROM held_deliveries h JOIN partner_configs p ON p.page_id = h.account_id ORDER BY h.account_id',
    );
    return rows.map((row) => row.account_id);
  }

  async count(accountId?: string): Promise<HeldCount[]> {
    const { rows } = await this.db.query<HeldCount>(
      `SELECT account_id, count(*) AS deliveries, sum(event_count) AS events, min(held_at) AS oldest_held_at
         FROM held_deliveries WHERE $1::text IS NULL OR account_id = $1
        GROUP BY account_id ORDER BY account_id`,
      [accountId ?? null],
    );
    return rows.map((row) => ({ ...row, deliveries: Number(row.deliveries), events: Number(row.events) }));
  }

  /** One page of held deliveries, oldest first, after the row id `afterId`. */
  async list(filter: { accountId?: string; afterId?: number; limit: number }): Promise<{ rows: HeldRow[]; more: boolean }> {
    const { rows } = await this.db.query<HeldRow>(
      `SELECT * FROM held_deliveries
        WHERE ($1::text IS NULL OR account_id = $1) AND ($2::bigint IS NULL OR id > $2)
        ORDER BY id LIMIT $3`,
      [filter.accountId ?? null, filter.afterId ?? null, filter.limit + 1],
    );
    return { rows: rows.slice(0, filter.limit), more: rows.length > filter.limit };
  }
}
