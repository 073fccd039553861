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

  /**
   * Keeps a delivery for an account without a partner configuration (once per message id):
   * `held`, or `full` when the account already has `cap` held deliveries (nothing written).
   * Recording holds the account's lock shared, so transactions holding at the same moment may
   * each add one past the cap: a bound on growth, not an exact count.
   */
  async hold(envelope: Envelope<RawActivityPayload>, accountId: string, eventCount: number, cap: number): Promise<'held' | 'full'> {
    const { rows } = await this.db.query<{ full: boolean }>(
      `WITH existing AS (
         SELECT count(*) AS n, COALESCE(bool_or(envelope_id = $2), false) AS already FROM held_deliveries WHERE account_id = $1
       ), added AS (
         INSERT INTO held_deliveries (account_id, envelope_id, correlation_id, kind, event_count, payload)
         SELECT $1, $2, $3, $4, $5, $6::jsonb FROM existing WHERE NOT already AND n < $7
         ON CONFLICT (envelope_id) DO NOTHING RETURNING 1
       )
       SELECT NOT already AND n >= $7 AS full FROM existing`,
      [accountId, envelope.id, envelope.correlationId, envelope.payload.kind, eventCount, envelope.payload, cap],
    );
    return rows[0]!.full ? 'full' : 'held';
  }

  /** Deletes deliveries held since before `cutoff`, counting them per account in held_expired; answers how many went. */
  async expireBefore(cutoff: Date): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>(
      `WITH gone AS (
         DELETE FROM held_deliveries WHERE held_at < $1 RETURNING account_id
       ), counted AS (
         INSERT INTO held_expired (account_id, deliveries, last_expired_at)
         SELECT account_id, count(*), now() FROM gone GROUP BY account_id
         ON CONFLICT (account_id) DO UPDATE SET deliveries = held_expired.deliveries + EXCLUDED.deliveries, last_expired_at = EXCLUDED.last_expired_at
       )
       SELECT count(*) AS n FROM gone`,
      [cutoff],
    );
    return Number(rows[0]!.n);
  }

  /** Per account, how many held deliveries expired in all and when the last did. */
  async expired(accountId?: string): Promise<{ account_id: string; deliveries: number; last_expired_at: Date }[]> {
    const { rows } = await this.db.query<{ account_id: string; deliveries: string; last_expired_at: Date }>(
      'SELECT account_id, deliveries, last_expired_at FROM held_expired WHERE $1::text IS NULL OR account_id = $1 ORDER BY account_id',
      [accountId ?? null],
    );
    return rows.map((row) => ({ ...row, deliveries: Number(row.deliveries) }));
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
