import type { Server } from 'node:http';
import { join } from 'node:path';
import { FollowTask, Queues, SYSTEM_TOPOLOGY, UnfollowTask, type FollowTaskPayload, type UnfollowTaskPayload } from '@crm/contracts';
import { accessControl, rpcCredentialVerifier } from '@crm/access';
import { createPool, ensureDatabase, isReachable, migrate, type Pool } from '@crm/db';
import { closeServer, createHttpApp, listen, portOf, readOpenApiDocument } from '@crm/http';
import { registerSecret, type Logger } from '@crm/logging';
import { Broker, Consumer, OutboxRelay, Publisher, RpcClient, RpcServer } from '@crm/messaging';
import { PeriodicJob } from '@crm/periodic';
import { SecretBox } from '@crm/secrets';
import { ClientBreakers } from './adapters/breakers';
import { ClientsStore } from './adapters/clients-store';
import { FollowedTasks } from './adapters/followed-tasks';
import { TaskEvents } from './adapters/task-events';
import { OsrmRouter } from './adapters/osrm-router';
import { ProviderClient } from './adapters/provider-client';
import { usesLocalOnlySecrets, type TrackingConfig } from './config';
import { followCommandHandler } from './handlers/follow-commands';
import { trackingRpcMethods } from './handlers/rpc-methods';
import { invalidRequestCode } from './http/errors';
import { trackingRoutes } from './http/routes';
import { TaskLookups } from './lookups';
import { TaskFollowing } from './operations/follow-tasks';
import { TaskWatch } from './operations/watch-tasks';
import { RoutePlanner } from './route-planner';

export const MIGRATIONS_DIR = join(__dirname, '..', 'migrations');

export interface RunningService {
  server: Server;
  port: number;
  lookups: TaskLookups;
  watch: TaskWatch;
  stop: () => Promise<void>;
}

/** Task lookups against the provider: retries, a breaker per client, the route planner and the cache. */
function taskLookups(config: TrackingConfig, clients: ClientsStore, logger: Logger): TaskLookups {
  const provider = new ProviderClient({
    baseUrl: config.TRACKING_API_URL,
    includeParam: config.TRACKING_INCLUDE_PARAM,
    createMethod: config.TRACKING_CREATE_METHOD as 'PUT' | 'POST',
    createPath: config.TRACKING_CREATE_PATH,
    timeoutMs: config.PROVIDER_TIMEOUT_MS,
    readRetries: config.PROVIDER_READ_RETRIES,
    retryDelayMs: config.PROVIDER_RETRY_DELAY_MS,
    logger,
  });
  const breakers = new ClientBreakers(
    {
      errorThresholdPercentage: config.BREAKER_ERROR_PERCENT,
      volumeThreshold: config.BREAKER_MIN_CALLS,
      windowMs: config.BREAKER_WINDOW_MS,
      resetTimeoutMs: config.BREAKER_RESET_MS,
    },
    logger,
  );
  const routes = new RoutePlanner({
    router: config.ROUTING_URL ? new OsrmRouter(config.ROUTING_URL, config.ROUTER_TIMEOUT_MS) : null,
    estimate: { detourFactor: config.ROUTE_DETOUR_FACTOR, speedKmh: config.ASSUMED_SPEED_KMH },
    logger,
  });
  return new TaskLookups({
    clients,
    provider,
    breakers,
    routes,
    logger,
    settings: {
      cacheTtlMs: config.TASK_CACHE_TTL_MS,
      cacheMaxEntries: config.TASK_CACHE_MAX_ENTRIES,
      staleMaxSeconds: config.STALE_MAX_SECONDS,
      riderStaleAfterSeconds: config.RIDER_STALE_AFTER_SECONDS,
    },
  });
}

/**
 * Following tasks: the watch (polls in rounds, pushes), its events through the outbox on
 * `tracking.events`, and the follow commands of `tracking.follows`.
 */
function taskFollowing(config: TrackingConfig, deps: { pool: Pool; broker: Broker; lookups: TaskLookups; logger: Logger }) {
  const { pool, broker, lookups, logger } = deps;
  const publisher = new Publisher(broker, SYSTEM_TOPOLOGY);
  const relay = new OutboxRelay({ pool, publisher, logger });
  const followed = new FollowedTasks(pool);
  const watch = new TaskWatch({
    followed,
    events: new TaskEvents(pool, relay),
    lookups,
    logger,
    settings: {
      pollIntervalSeconds: config.FOLLOW_POLL_INTERVAL_SECONDS,
      maxCallsPerMinutePerClient: config.PROVIDER_MAX_CALLS_PER_MINUTE,
      roundMs: config.FOLLOW_ROUND_MS,
      etaMovedThresholdSeconds: config.ETA_MOVED_THRESHOLD_MINUTES * 60,
      riderSilentAfterSeconds: config.RIDER_STALE_AFTER_SECONDS,
    },
  });
  const following = new TaskFollowing({ followed, lookups, watch, logger });
  const rounds = new PeriodicJob('followed tasks poll', () => watch.pollRound(), logger);
  const consumer = new Consumer<FollowTaskPayload | UnfollowTaskPayload>(broker, {
    queue: Queues.trackingFollows,
    topology: SYSTEM_TOPOLOGY,
    contracts: [FollowTask, UnfollowTask],
    handler: followCommandHandler({ following, logger }),
  });
  relay.start(config.OUTBOX_RELAY_INTERVAL_MS);
  rounds.start(config.FOLLOW_ROUND_MS);
  return {
    watch,
    following,
    stop: async () => {
      await consumer.stop();
      await rounds.stop();
      await relay.stop();
      await publisher.close();
    },
  };
}

/**
 * Wires tracking: clients in its database (keys sealed), task lookups against the
 * provider (cache, breakers, retries), the route planner, HTTP for the CRM and RPC on
 * `tracking.rpc` for the other services.
 */
export async function startTracking(config: TrackingConfig, deps: { logger: Logger }): Promise<RunningService> {
  const { logger } = deps;
  registerSecret(config.CREDENTIALS_KEY, { pinned: true });
  if (usesLocalOnlySecrets(config)) logger.warn('accepting the local development API token or credentials key; set CRM_API_TOKENS and CREDENTIALS_KEY outside local development');

  await ensureDatabase(config.DATABASE_MIGRATION_URL ?? config.DATABASE_URL);
  await migrate(config.DATABASE_MIGRATION_URL ?? config.DATABASE_URL, MIGRATIONS_DIR, logger);
  const pool = createPool(config.DATABASE_URL, {
    applicationName: 'tracking',
    onIdleError: (error) => logger.warn('idle database connection failed', { reason: error.message }),
  });
  const clients = new ClientsStore(pool, new SecretBox(config.CREDENTIALS_KEY));

  const lookups = taskLookups(config, clients, logger);

  const broker = new Broker({ url: config.AMQP_URL, name: 'tracking', logger, topology: config.BROKER_TOPOLOGY });
  const rpc = new RpcServer(broker, { queue: Queues.trackingRpc, topology: SYSTEM_TOPOLOGY, producer: 'tracking', methods: trackingRpcMethods(lookups), prefetch: config.RPC_PREFETCH });
  // Asks auth about API credentials presented on /v1.
  const authRpc = new RpcClient(broker, 'tracking', SYSTEM_TOPOLOGY);
  const access = accessControl({
    bootstrapTokens: config.CRM_API_TOKENS,
    verify: rpcCredentialVerifier(authRpc),
    pool,
    logger,
    ratePerMinute: config.API_RATE_LIMIT_PER_MINUTE,
    failuresPerMinute: config.AUTH_FAILURES_PER_MINUTE,
    cacheTtlMs: config.CREDENTIAL_CACHE_TTL_MS,
    broker,
  });
  const follows = taskFollowing(config, { pool, broker, lookups, logger });

  const app = createHttpApp({
    logger,
    readiness: { broker: () => broker.isConnected(), database: () => isReachable(pool) },
    openApi: { document: readOpenApiDocument('services/tracking/openapi.yaml'), invalidRequestCode },
    routes: trackingRoutes({ lookups, clients, access: access.handlers, following: follows.following, watch: follows.watch, logger }),
  });
  const server = await listen(app, config.PORT);
  const port = portOf(server);
  logger.info('tracking listening', { url: `http://127.0.0.1:${port}`, provider: config.TRACKING_API_URL, router: config.ROUTING_URL ?? 'none (straight-line estimates)' });

  return {
    server,
    port,
    lookups,
    watch: follows.watch,
    stop: async () => {
      await rpc.stop();
      await closeServer(server);
      await follows.stop();
      await authRpc.close();
      await access.close();
      await broker.close();
      lookups.close();
      await pool.end();
    },
  };
}
