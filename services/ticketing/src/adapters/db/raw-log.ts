import type { Envelope, RawActivityPayload } from '@crm/contracts';
import type { Queryable } from './queryable';

/** One entry of the raw log, as read back for a rebuild. */
export interface RawLogEntry {
  seq: string;
  deliveryId: string;
  envName: string;
  forUserId: string | null;
  loggedAt: Date;
  /** The envelope exactly as it was logged. */
  envelope: Envelope<RawActivityPayload>;
}

interface RawLogRow {
  seq: string;
  delivery_id: string;
  env_name: string;
  for_user_id: string | null;
  logged_at: Date;
  message: Buffer;
}

/**
 * The INSERT that logs deliveries, in the order given, each once, from `parameter`: one JSON
 * array (rawLogRows). A JSON parameter is written and read without the per-character escaping
 * text arrays need, and a `json` value keeps its text as given, so `message` holds the
 * envelope's bytes exactly as JSON.stringify wrote them. It runs alone (append) or as a CTE of
 * the statement that takes a recording's locks (Locks.forDeliveries), one round trip for both.
 * A delivery logged before keeps its first logging time (raw_log_logged_at, which also waits
 * for a transaction logging it now), so it meets its entry in the unique index of its
 * partition (migration raw-log-partitioned); the deliveries are looked up in the order of
 * their ids, so two transactions logging the same ones wait for each other in one order.
 */
export const appendRawLog = (parameter: string): string => `INSERT INTO raw_log (delivery_id, env_name, kind, for_user_id, received_at, logged_at, body_sha256, message)
  SELECT t.id, t.env_name, t.kind, t.for_user_id, t.received_at, first.logged_at, t.body_sha256, convert_to(t.message::text, 'UTF8')
    FROM ROWS FROM (json_to_recordset(${parameter}::json) AS (id text, env_name text, kind text, for_user_id text, received_at timestamptz, body_sha256 text, message json))
      WITH ORDINALITY AS t(id, env_name, kind, for_user_id, received_at, body_sha256, message, n)
    JOIN (SELECT id, raw_log_logged_at(id) AS logged_at
            FROM (SELECT DISTINCT id FROM json_to_recordset(${parameter}::json) AS ids(id text) ORDER BY id) ids) first ON first.id = t.id
   ORDER BY t.n
  ON CONFLICT (delivery_id, logged_at) DO NOTHING`;

const APPEND_RAW_LOG = appendRawLog('$1');

/** appendRawLog's parameter: one JSON array of the envelopes' rows, their order kept. */
export function rawLogRows(envelopes: Envelope<RawActivityPayload>[]): string {
  return JSON.stringify(
    envelopes.map((envelope) => ({
      id: envelope.id,
      env_name: envelope.payload.envName,
      kind: envelope.payload.kind,
      for_user_id: envelope.payload.forUserId,
      received_at: envelope.payload.receivedAt,
      body_sha256: envelope.payload.bodySha256,
      message: envelope,
    })),
  );
}

/**
 * The append-only raw log of accepted deliveries (migrations raw-log, raw-log-partitioned),
 * a partition a week. The service adds and reads; its partitions are made and dropped through
 * `raw_log_prepare` and `raw_log_purge`, which run as the table's owner.
 */
export class RawLog {
  constructor(private readonly db: Queryable) {}

  /**
   * Logs deliveries once each, in one statement: the same delivery again (a redelivery, the
   * platform sending it twice) adds nothing. Answers how many were new.
   */
  async append(envelopes: Envelope<RawActivityPayload>[]): Promise<number> {
    if (envelopes.length === 0) return 0;
    const { rowCount } = await this.db.query(APPEND_RAW_LOG, [rawLogRows(envelopes)]);
    return rowCount ?? 0;
  }

  /**
   * Makes the partitions of this week and the next `weeksAhead` (those missing), so entries
   * land in their week's partition rather than the DEFAULT one; answers how many it made.
   */
  async preparePartitions(weeksAhead = 2): Promise<number> {
    const { rows } = await this.db.query<{ made: number }>('SELECT raw_log_prepare($1) AS made', [weeksAhead]);
    return rows[0]!.made;
  }

  /**
   * Drops the weeks wholly logged before `cutoff` (an entry stays until its week is past it),
   * and deletes what the DEFAULT partition holds from before it; answers how many entries went.
   */
  async purgeBefore(cutoff: Date): Promise<number> {
    const { rows } = await this.db.query<{ purged: string | number }>('SELECT raw_log_purge($1) AS purged', [cutoff]);
    return Number(rows[0]!.purged);
  }

  /** How many entries there are, of one account or of all. */
  async count(accountId?: string): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>('SELECT count(*) AS n FROM raw_log WHERE $1::text IS NULL OR for_user_id = $1', [accountId ?? null]);
    return Number(rows[0]!.n);
  }

  /** Every entry in the order it was logged (of one account, or of all), a page at a time. */
  async *inOrder(accountId?: string, pageSize = 500): AsyncGenerator<RawLogEntry> {
    let after = '0';
    for (;;) {
      const { rows } = await this.db.query<RawLogRow>(
        `SELECT seq, delivery_id, env_name, for_user_id, logged_at, message FROM raw_log
         WHERE seq > $1 AND ($2::text IS NULL OR for_user_id = $2) ORDER BY seq LIMIT $3`,
        [after, accountId ?? null, pageSize],
      );
      for (const row of rows) {
        yield {
          seq: row.seq,
          deliveryId: row.delivery_id,
          envName: row.env_name,
          forUserId: row.for_user_id,
          loggedAt: row.logged_at,
          envelope: JSON.parse(row.message.toString('utf8')) as Envelope<RawActivityPayload>,
        };
      }
      if (rows.length < pageSize) return;
      after = rows[rows.length - 1]!.seq;
    }
  }
}
