import type { AccountTraffic, OpenSilence } from '../../domain/silence';
import type { Queryable } from './queryable';

interface TrafficRow {
  account_id: string;
  connected: boolean;
  last_seq: string | null;
  last_at: Date | null;
  nth_at: Date | null;
  open_id: string | null;
  silent_since: Date | null;
  resumed_at: Date | null;
}

/** The key of the advisory lock the silence check takes: one check at a time across replicas. */
const CHECK_LOCK = 'silence-check';

/**
 * The silence alarm's state (`account_silences`) and what it reads of the raw log. Every read of
 * the raw log goes through its (for_user_id, seq) index, a few entries per account.
 */
export class SilenceRepository {
  constructor(private readonly db: Queryable) {}

  /** Takes the check's lock for this transaction without waiting; false when another replica checks now. */
  async tryLockCheck(): Promise<boolean> {
    const { rows } = await this.db.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked', [CHECK_LOCK]);
    return rows[0]!.locked;
  }

  /**
   * What the check needs of each connected account and each account with an open silence: the
   * newest delivery, and, only when it is older than `quietBefore`, when the `minDeliveries`-th
   * newest came (no more is read for an account that is not quiet); for an open silence, the
   * first delivery after its last one.
   */
  async traffic(minDeliveries: number, quietBefore: Date): Promise<AccountTraffic[]> {
    const { rows } = await this.db.query<TrafficRow>(
      `SELECT c.account_id, coalesce(a.status = 'connected', false) AS connected,
              last.seq::text AS last_seq, last.received_at AS last_at, nth.received_at AS nth_at,
              s.id::text AS open_id, s.silent_since, resumed.received_at AS resumed_at
         FROM (SELECT account_id FROM accounts WHERE status = 'connected'
               UNION SELECT account_id FROM account_silences WHERE ended_at IS NULL) c
         LEFT JOIN accounts a ON a.account_id = c.account_id
         LEFT JOIN account_silences s ON s.account_id = c.account_id AND s.ended_at IS NULL
         LEFT JOIN LATERAL (
           SELECT r.seq, r.received_at FROM raw_log r WHERE s.id IS NULL AND r.for_user_id = c.account_id ORDER BY r.seq DESC LIMIT 1) last ON true
         LEFT JOIN LATERAL (
           SELECT r.received_at FROM raw_log r WHERE last.received_at < $2 AND r.for_user_id = c.account_id ORDER BY r.seq DESC OFFSET $1 - 1 LIMIT 1) nth ON true
         LEFT JOIN LATERAL (
           SELECT r.received_at FROM raw_log r WHERE s.id IS NOT NULL AND r.for_user_id = c.account_id AND r.seq > s.last_seq ORDER BY r.seq LIMIT 1) resumed ON true
        ORDER BY c.account_id`,
      [minDeliveries, quietBefore],
    );
    return rows.map((row) => ({
      accountId: row.account_id,
      connected: row.connected,
      last: row.last_seq !== null && row.last_at ? { seq: row.last_seq, at: row.last_at } : null,
      nthNewestAt: row.nth_at,
      open: row.open_id !== null && row.silent_since ? { id: row.open_id, silentSince: row.silent_since } : null,
      resumedAt: row.resumed_at,
    }));
  }

  /** Records a silence; false when the account has an open one already. */
  async open(silence: { accountId: string; silentSince: Date; lastSeq: string; detectedAt: Date }): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `INSERT INTO account_silences (account_id, silent_since, last_seq, detected_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id) WHERE ended_at IS NULL DO NOTHING`,
      [silence.accountId, silence.silentSince, silence.lastSeq, silence.detectedAt],
    );
    return rowCount === 1;
  }

  /** Ends an open silence; false when it had ended already. */
  async end(silence: OpenSilence, resumedAt: Date, endedAt: Date): Promise<boolean> {
    const { rowCount } = await this.db.query('UPDATE account_silences SET resumed_at = $2, ended_at = $3 WHERE id = $1 AND ended_at IS NULL', [silence.id, resumedAt, endedAt]);
    return rowCount === 1;
  }

  /** Connected accounts silent now (all replicas). */
  async countSilent(): Promise<number> {
    const { rows } = await this.db.query<{ silent: number }>(
      `SELECT count(*)::int AS silent FROM account_silences s JOIN accounts a ON a.account_id = s.account_id
        WHERE s.ended_at IS NULL AND a.status = 'connected'`,
    );
    return rows[0]!.silent;
  }
}
