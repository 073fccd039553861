import { randomUUID } from 'node:crypto';
import type { SearchPostsResult } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import type { RunResult, SearchQueryRow } from '../adapters/db/search-queries';
import type { TicketingStore } from '../adapters/db/store';
import { searchQueriesOf, type PartnerConfig } from '../domain/partner-config';
import { searchMatches } from '../domain/search';
import { estimatedMonthlyCost, nextInterval, recentCostPerRun } from '../domain/search-cost';
import { recordEvents } from './recording/record-events';

/** How ticketing asks the platform (through auth) for recent posts. */
export interface SearchClient {
  search(request: { accountId: string; query: string; sinceId?: string; count: number }): Promise<SearchPostsResult>;
}

export interface SearchQueriesDeps {
  store: TicketingStore;
  logger: Logger;
  search: SearchClient;
  /** The time runs are due by (tests move it). */
  clock: () => Date;
  /** Posts asked for on a query's first run: older matches are not turned into tickets. */
  firstRunMax: number;
  /** How long a claimed run keeps other replicas off the query. */
  leaseMs: number;
  /** The longest a query that keeps finding nothing waits between runs (its interval doubles up to this). */
  idleIntervalMaxSeconds: number;
  /** Dollars the platform charges per post read (the rate card's posts_read): a run's cost is its posts at this price. */
  postReadPrice: number;
}

/** A query's state as the API shows it. */
export interface SearchQueryState {
  query: string;
  intervalSeconds: number;
  includeReposts: boolean;
  lastRunAt: string | null;
  lastSuccessAt: string | null;
  nextRunAt: string | null;
  lastError: { code: string; message: string } | null;
  rateLimitedUntil: string | null;
  sinceId: string | null;
  lastMatches: number;
  matches: number;
  /** The interval the next run waits: intervalSeconds, doubled after each run that found nothing (up to a cap). */
  currentIntervalSeconds: number;
  /** Dollars a month (30 days) of runs at the current interval would cost at the recent cost per run; null before a successful run. */
  estimatedMonthlyCost: number | null;
}

const LATER_MAX = 100;
const iso = (date: Date | null) => (date ? date.toISOString() : null);
const after = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);
/** The interval a query's next run waits now. */
const currentInterval = (row: SearchQueryRow) => row.current_interval_seconds ?? row.interval_seconds;

/**
 * Runs every account's configured search queries on their intervals. Matches are recorded
 * like webhook deliveries of the same posts (the pipeline's recorder, the account's lock and
 * configuration), in one transaction with the query's new `since_id`, so a post is one
 * activity whichever way it came first. A 429 moves the next run to the platform's reset.
 */
export class SearchQueries {
  constructor(private readonly deps: SearchQueriesDeps) {}

  /** Makes the schedule follow the configurations, then runs what is due; resolves with the runs made. */
  async runDue(limit = 20): Promise<number> {
    const now = this.deps.clock();
    await this.sync(now);
    const claimed = await this.deps.store.transaction((tx) => tx.searchQueries.claimDueQueries(now, new Date(now.getTime() + this.deps.leaseMs), limit));
    for (const row of claimed) await this.run(row, now);
    return claimed.length;
  }

  /** The configured queries of an account, each with its state (never run yet: nulls). */
  async states(config: PartnerConfig): Promise<SearchQueryState[]> {
    const rows = new Map((await this.deps.store.read.searchQueries.listQueryStates(config.pageId)).map((row) => [row.query, row]));
    return searchQueriesOf(config.searchQueries).map((query) => {
      const row = rows.get(query.query);
      return {
        ...query,
        lastRunAt: iso(row?.last_run_at ?? null),
        lastSuccessAt: iso(row?.last_success_at ?? null),
        nextRunAt: iso(row?.next_run_at ?? null),
        lastError: row?.last_error_code ? { code: row.last_error_code, message: row.last_error ?? '' } : null,
        rateLimitedUntil: iso(row?.rate_limited_until ?? null),
        sinceId: row?.since_id ?? null,
        lastMatches: row?.last_matches ?? 0,
        matches: row?.matches ?? 0,
        currentIntervalSeconds: row ? currentInterval(row) : query.intervalSeconds,
        estimatedMonthlyCost: row ? estimatedMonthlyCost(row.cost_per_run === null ? null : Number(row.cost_per_run), currentInterval(row)) : null,
      };
    });
  }

  private async sync(now: Date): Promise<void> {
    await this.deps.store.transaction(async (tx) => {
      for (const { accountId, queries } of await tx.searchQueries.configuredQueries()) await tx.searchQueries.syncAccountQueries(accountId, searchQueriesOf(queries), now);
      await tx.searchQueries.dropUnconfigured();
    });
  }

  private async ask(row: SearchQueryRow): Promise<SearchPostsResult> {
    const count = row.since_id ? LATER_MAX : this.deps.firstRunMax;
    try {
      return await this.deps.search.search({ accountId: row.account_id, query: row.query, count, ...(row.since_id ? { sinceId: row.since_id } : {}) });
    } catch (error) {
      return { status: 'failed', code: 'auth_unavailable', message: `auth did not answer the search: ${(error as Error).message}` };
    }
  }

  private async run(row: SearchQueryRow, now: Date): Promise<void> {
    const result = await this.ask(row);
    const failed = (nextRunAt: Date, error: { code: string; message: string }, rateLimitedUntil: Date | null = null): RunResult => ({
      now,
      nextRunAt,
      sinceId: null,
      matches: null,
      error,
      rateLimitedUntil,
    });
    if (result.status === 'rate_limited') {
      const reset = new Date(result.resetAt);
      const next = reset > now ? reset : after(now, 1);
      return this.save(row, failed(next, { code: 'rate_limited', message: `the platform's rate limit: no search before ${reset.toISOString()}` }, reset));
    }
    if (result.status === 'failed') return this.save(row, failed(after(now, currentInterval(row)), { code: result.code, message: result.message }));
    await this.record(row, result.posts, now);
  }

  private async save(row: SearchQueryRow, run: RunResult): Promise<void> {
    await this.deps.store.transaction(async (tx) => {
      if (await tx.searchQueries.lockQuery(row.account_id, row.query)) await tx.searchQueries.saveRun(row.account_id, row.query, run);
    });
    if (run.error) this.deps.logger.warn('search query did not run', { accountId: row.account_id, query: row.query, code: run.error.code, nextRunAt: run.nextRunAt.toISOString() });
  }

  private async record(row: SearchQueryRow, posts: Record<string, unknown>[], now: Date): Promise<void> {
    const matches = searchMatches(row.account_id, posts, { includeReposts: row.include_reposts });
    const envelopeId = `search:${randomUUID()}`;
    // Runs that find nothing wait longer and longer; one that finds posts is back on the configured interval.
    const interval = nextInterval(row.interval_seconds, row.current_interval_seconds, posts.length > 0, this.deps.idleIntervalMaxSeconds);
    const costPerRun = recentCostPerRun(row.cost_per_run === null ? null : Number(row.cost_per_run), posts.length, this.deps.postReadPrice);
    const made = await this.deps.store.transaction(async (tx) => {
      await tx.locks.accountShared(row.account_id);
      const config = await tx.partnerConfigs.load(row.account_id);
      if (!config || !(await tx.searchQueries.lockQuery(row.account_id, row.query))) return null;
      const counts = matches.events.length > 0 ? await recordEvents(tx, matches.events, config, { envelopeId, receivedAt: now }) : null;
      const postIds = matches.events.map((event) => event.platformEventId);
      if (counts) await tx.searchQueries.markFoundBySearch(row.account_id, postIds, envelopeId, row.query);
      const count = counts ? counts.opened + counts.appended + counts.timeline : 0;
      await tx.searchQueries.saveRun(row.account_id, row.query, { now, nextRunAt: after(now, interval), sinceId: matches.newestId, matches: count, error: null, rateLimitedUntil: null, intervalSeconds: interval, costPerRun });
      return { count, duplicates: counts?.duplicate ?? 0 };
    });
    this.deps.logger.info('search query ran', { accountId: row.account_id, query: row.query, results: posts.length, skipped: matches.skipped.length, nextIntervalSeconds: interval, ...made });
  }
}
