import type { Queryable } from './queryable';
import type { SearchQuery, SearchQueryInput } from '../../domain/partner-config';

/** A configured search query and where it stands. */
export interface SearchQueryRow {
  account_id: string;
  query: string;
  interval_seconds: number;
  include_reposts: boolean;
  next_run_at: Date;
  since_id: string | null;
  last_run_at: Date | null;
  last_success_at: Date | null;
  last_error_code: string | null;
  last_error: string | null;
  rate_limited_until: Date | null;
  last_matches: number;
  matches: number;
  /** The interval the next run waits (doubled after runs that found nothing); null: interval_seconds. */
  current_interval_seconds: number | null;
  /** Recent dollars per successful run; null before the first. */
  cost_per_run: string | null;
}

export interface RunResult {
  now: Date;
  nextRunAt: Date;
  /** The newest post id seen (kept when the run saw none). */
  sinceId: string | null;
  /** New activities the run made; null when it failed. */
  matches: number | null;
  error: { code: string; message: string } | null;
  rateLimitedUntil: Date | null;
  /** A successful run's new current interval and recent cost per run (a failed run keeps both). */
  intervalSeconds?: number;
  costPerRun?: number;
}

/** The schedule and state of the accounts' search queries. */
export class SearchQueryRepository {
  constructor(private readonly db: Queryable) {}

  /** Every account's configured search queries, as stored in the partner configurations. */
  async configuredQueries(): Promise<{ accountId: string; queries: SearchQueryInput[] }[]> {
    const { rows } = await this.db.query<{ page_id: string; queries: SearchQueryInput[] | null }>(
      `SELECT page_id, config->'searchQueries' AS queries FROM partner_configs`,
    );
    return rows.map((row) => ({ accountId: row.page_id, queries: row.queries ?? [] }));
  }

  /**
   * Makes an account's rows follow its configuration: new queries are due at once, removed ones
   * go (with their state), kept ones take the new interval and repost setting.
   */
  async syncAccountQueries(accountId: string, queries: SearchQuery[], now: Date): Promise<void> {
    await this.db.query('DELETE FROM search_queries WHERE account_id = $1 AND NOT (query = ANY($2::text[]))', [accountId, queries.map((q) => q.query)]);
    for (const query of queries) {
      await this.db.query(
        `INSERT INTO search_queries (account_id, query, interval_seconds, include_reposts, next_run_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (account_id, query) DO UPDATE SET interval_seconds = EXCLUDED.interval_seconds, include_reposts = EXCLUDED.include_reposts, current_interval_seconds = NULL
          WHERE search_queries.interval_seconds <> EXCLUDED.interval_seconds OR search_queries.include_reposts <> EXCLUDED.include_reposts`,
        [accountId, query.query, query.intervalSeconds, query.includeReposts, now],
      );
    }
  }

  /** Removes the rows of accounts that no longer have a configuration. */
  async dropUnconfigured(): Promise<void> {
    await this.db.query('DELETE FROM search_queries s WHERE NOT EXISTS (SELECT 1 FROM partner_configs p WHERE p.page_id = s.account_id)');
  }

  /**
   * Claims queries due at `now`: their next run moves to `leaseUntil`, so no other replica runs
   * them meanwhile (rows another replica is claiming are skipped). A run that dies leaves the
   * query due again once the lease ends.
   */
  async claimDueQueries(now: Date, leaseUntil: Date, limit: number): Promise<SearchQueryRow[]> {
    const { rows } = await this.db.query<SearchQueryRow>(
      `UPDATE search_queries SET next_run_at = $2
        WHERE (account_id, query) IN (
          SELECT account_id, query FROM search_queries WHERE next_run_at <= $1 ORDER BY next_run_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING *`,
      [now, leaseUntil, limit],
    );
    return rows;
  }

  /** The query's row, locked; null when it was removed from the configuration meanwhile. */
  async lockQuery(accountId: string, query: string): Promise<SearchQueryRow | null> {
    const { rows } = await this.db.query<SearchQueryRow>('SELECT * FROM search_queries WHERE account_id = $1 AND query = $2 FOR UPDATE', [accountId, query]);
    return rows[0] ?? null;
  }

  async saveRun(accountId: string, query: string, run: RunResult): Promise<void> {
    await this.db.query(
      `UPDATE search_queries SET
         next_run_at = $3, last_run_at = $4, since_id = COALESCE($5, since_id),
         last_success_at = CASE WHEN $6::integer IS NULL THEN last_success_at ELSE $4 END,
         last_matches = COALESCE($6, last_matches), matches = matches + COALESCE($6, 0),
         last_error_code = $7, last_error = $8, rate_limited_until = $9,
         current_interval_seconds = COALESCE($10, current_interval_seconds), cost_per_run = COALESCE($11, cost_per_run)
       WHERE account_id = $1 AND query = $2`,
      [accountId, query, run.nextRunAt, run.now, run.sinceId, run.matches, run.error?.code ?? null, run.error?.message ?? null, run.rateLimitedUntil, run.intervalSeconds ?? null, run.costPerRun?.toFixed(6) ?? null],
    );
  }

  /** Marks the activities a search run recorded (not those a webhook recorded before) as found by the query. */
  async markFoundBySearch(accountId: string, postIds: string[], envelopeId: string, query: string): Promise<void> {
    await this.db.query(
      `UPDATE activities SET source = 'search', search_query = $4 WHERE account_id = $1 AND platform_event_id = ANY($2::text[]) AND source_envelope_id = $3`,
      [accountId, postIds, envelopeId, query],
    );
  }

  async listQueryStates(accountId: string): Promise<SearchQueryRow[]> {
    const { rows } = await this.db.query<SearchQueryRow>('SELECT * FROM search_queries WHERE account_id = $1', [accountId]);
    return rows;
  }
}
