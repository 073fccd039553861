import { LRUCache } from 'lru-cache';
import prometheus from 'prom-client';
import type { TrackingAvailability, TrackingFreshness, TrackingLiveView, TrackingTaskResult } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import type { ClientBreakers } from './adapters/breakers';
import type { ClientCredentials, ClientsStore } from './adapters/clients-store';
import type { ProviderClient, TaskRecord } from './adapters/provider-client';
import { TrackingError } from './domain/errors';
import type { FieldError } from './domain/field-errors';
import { buildLiveView, routeEnds } from './domain/live-view';
import { readTask } from './domain/task-record';
import { checkTaskSeed } from './domain/task-seed';
import type { RoutePlanner } from './route-planner';

export interface LookupSettings {
  /** How long a fetched task record answers lookups without asking the provider again. */
  cacheTtlMs: number;
  cacheMaxEntries: number;
  /** How old the last good record may be to be served (flagged stale) when the provider fails. */
  staleMaxSeconds: number;
  riderStaleAfterSeconds: number;
}

export interface LookupDeps {
  clients: ClientsStore;
  provider: ProviderClient;
  breakers: ClientBreakers;
  routes: RoutePlanner;
  logger: Logger;
  settings: LookupSettings;
}

/** A create body that failed validation; each error names its field. */
export class InvalidTaskSeed extends Error {
  override name = 'InvalidTaskSeed';
  constructor(readonly errors: FieldError[]) {
    super('the task is not valid');
  }
}

interface CachedTask {
  record: TaskRecord;
  fetchedAtMs: number;
  /** Set when the provider failed and this is the last good record. */
  staleReason: string | null;
}

interface FetchContext {
  client: ClientCredentials;
  taskId: string;
  include: string[];
}

/**
 * Task lookups for HTTP and RPC alike. Task records are cached in this process's memory
 * (LRU, seconds): concurrent lookups of one task share one provider call (lru-cache's
 * fetch coalesces them), and when the provider fails, the last good record is served,
 * flagged stale with its age. Clients are read from the database on every lookup, so
 * disabling one takes effect at once on every replica.
 */
/** How task lookups were answered: hit (cached), inflight (joined a provider call under way), miss, stale, refresh. */
const taskCacheLookups = new prometheus.Counter({
  name: 'tracking_task_cache_lookups_total',
  help: 'Task lookups by how the cache answered them: hit, inflight (joined a call under way), miss, stale or refresh (a provider call).',
  labelNames: ['result'] as const,
});

export class TaskLookups {
  private readonly cache: LRUCache<string, CachedTask, FetchContext>;

  constructor(private readonly deps: LookupDeps) {
    const { settings, logger } = deps;
    this.cache = new LRUCache<string, CachedTask, FetchContext>({
      max: settings.cacheMaxEntries,
      ttl: settings.cacheTtlMs,
      // A client's entries are dropped when its settings change; lookups already waiting still get their answer.
      ignoreFetchAbort: true,
      fetchMethod: async (_key, stale, { context }) => {
        const { client, taskId, include } = context;
        try {
          const record = await deps.breakers.run(client.clientId, () => deps.provider.getTask(client, taskId, include));
          return { record, fetchedAtMs: Date.now(), staleReason: null };
        } catch (error) {
          const usable = stale && Date.now() - stale.fetchedAtMs <= settings.staleMaxSeconds * 1000;
          if (error instanceof TrackingError && error.transient && usable) {
            logger.warn('provider failed; serving the last good task record', { clientId: client.clientId, taskId, code: error.code, ageMs: Date.now() - stale.fetchedAtMs });
            return { ...stale, staleReason: error.message };
          }
          throw error;
        }
      },
    });
  }

  /** The client's settings and key; a clear error when it is unknown or disabled. */
  async client(clientId: string): Promise<ClientCredentials> {
    const client = await this.deps.clients.credentials(clientId);
    if (!client) throw new TrackingError('client_not_found', `tracking is not set up for client '${clientId}'; the CRM turns it on with PUT /v1/clients/${clientId}`);
    if (!client.enabled) throw new TrackingError('client_disabled', `tracking is turned off for client '${clientId}'`);
    return client;
  }

  async task(clientId: string, taskId: string, include: string[] = []): Promise<TrackingTaskResult> {
    return this.taskOf(await this.client(clientId), taskId, include);
  }

  /** A task record of an enabled client: cached, coalesced, stale on provider failure. */
  async taskOf(client: ClientCredentials, taskId: string, include: string[] = []): Promise<TrackingTaskResult> {
    const groups = [...new Set([...client.include, ...include])].sort();
    const key = [client.clientId, taskId, groups.join(',')].join('\u0000');
    const status: LRUCache.Status<string, CachedTask, FetchContext> = {};
    const cached = (await this.cache.fetch(key, { context: { client, taskId, include: groups }, status }))!;
    taskCacheLookups.inc({ result: status.fetch ?? 'miss' });
    return { clientId: client.clientId, taskId, task: cached.record, freshness: freshness(cached) };
  }

  async live(clientId: string, taskId: string): Promise<TrackingLiveView> {
    const { task, freshness: data } = await this.task(clientId, taskId);
    const facts = readTask(task);
    const ends = routeEnds(facts);
    const route = ends ? await this.deps.routes.plan(ends.from, ends.to) : null;
    return buildLiveView({ clientId, taskId, facts, route, now: new Date(), freshness: data, riderStaleAfterSeconds: this.deps.settings.riderStaleAfterSeconds });
  }

  /** Whether tracking can be shown for the client (and the task, when given). */
  async availability(clientId: string, taskId?: string): Promise<TrackingAvailability> {
    try {
      const client = await this.client(clientId);
      if (taskId) await this.taskOf(client, taskId);
      return { clientId, taskId: taskId ?? null, available: true, reason: 'available', message: 'tracking is available' };
    } catch (error) {
      if (!(error instanceof TrackingError)) throw error;
      return { clientId, taskId: taskId ?? null, available: false, reason: error.code, message: error.message };
    }
  }

  /** Creates a task under its caller-chosen or derived id, so a repeated create finds the same task. */
  async create(clientId: string, body: unknown): Promise<{ taskId: string; created: boolean; task: TaskRecord }> {
    const client = await this.client(clientId);
    const check = checkTaskSeed(clientId, body);
    if (!check.ok) throw new InvalidTaskSeed(check.errors);
    const { task, created } = await this.deps.breakers.run(clientId, () => this.deps.provider.createTask(client, check.taskId, { ...check.seed, taskId: check.taskId }));
    this.deps.logger.info(created ? 'task created' : 'task existed already', { clientId, taskId: check.taskId });
    return { taskId: check.taskId, created, task };
  }

  /** Whether a record of the task is cached and not yet expired (whatever its extra fields): a lookup now would not call the provider. */
  holdsFresh(clientId: string, taskId: string): boolean {
    const prefix = `${clientId}\u0000${taskId}\u0000`;
    return [...this.cache.keys()].some((key) => key.startsWith(prefix) && this.cache.has(key));
  }

  /** Drops what is cached for a client (its key or extra fields changed). */
  forget(clientId: string): void {
    for (const key of [...this.cache.keys()]) {
      if (key.startsWith(`${clientId}\u0000`)) this.cache.delete(key);
    }
  }

  close(): void {
    this.cache.clear();
    this.deps.breakers.shutdown();
  }
}

function freshness(cached: CachedTask): TrackingFreshness {
  return {
    fetchedAt: new Date(cached.fetchedAtMs).toISOString(),
    ageSeconds: Math.max(0, Math.floor((Date.now() - cached.fetchedAtMs) / 1000)),
    stale: cached.staleReason !== null,
    staleReason: cached.staleReason,
  };
}
