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
 */
export const appendRawLog = (parameter: string): string => `INSERT INTO raw_log (delivery_id, env_name, kind, for_user_id, received_at, body_sha256, message)
  SELECT id, env_name, kind, for_user_id, received_at, body_sha256, convert_to(message::text, 'UTF8')
    FROM ROWS FROM (json_to_recordset(${parameter}::json) AS (id text, env_name text, kind text, for_user_id text, received_at timestamptz, body_sha256 text, message json))
      WITH ORDINALITY AS t(id, env_name, kind, for_user_id, received_at, body_sha256, message, n)
   ORDER BY n
  ON CONFLICT (delivery_id) DO NOTHING`;

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
 * The append-only raw log of accepted deliveries (migration raw-log). The service adds and
 * reads; entries past the retention go through `raw_log_purge`, which runs as the table's owner.
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

  /** Deletes entries logged before `cutoff`, in batches of `batchSize`; answers how many went. */
  async purgeBefore(cutoff: Date, batchSize = 5_000): Promise<number> {
    let purged = 0;
    for (;;) {
      const { rows } = await this.db.query<{ purged: number }>('SELECT raw_log_purge($1, $2) AS purged', [cutoff, batchSize]);
      purged += rows[0]!.purged;
      if (rows[0]!.purged < batchSize) return purged;
    }
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
