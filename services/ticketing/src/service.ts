import type { Server } from 'node:http';
import type { Express } from 'express';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { accessControl, rpcCredentialVerifier, type AccessControl } from '@crm/access';
import { ACTIVITY_PARTITIONS_EXCHANGE, Queues, RawActivity, SocialCommandResult, SYSTEM_TOPOLOGY, type RawActivityPayload, type SocialCommandResultPayload, type Topology } from '@crm/contracts';
import { createPool, ensureDatabase, migrate, type Pool } from '@crm/db';
import { closeServer, createHttpApp, listen, readOpenApiDocument, type StopStep } from '@crm/http';
import type { Logger } from '@crm/logging';
import { SecretBox } from '@crm/secrets';
import { Broker, Consumer, ConsumerGroup, OutboxRelay, ReplicaPresence, Publisher, RpcClient } from '@crm/messaging';
import { PeriodicJob } from '@crm/periodic';
import { AuthSearchClient } from './adapters/broker/auth-search';
import { TrackingClient } from './adapters/broker/tracking';
import { ActorDirectory } from './adapters/db/actors';
import { ChangeListener } from './adapters/db/change-listener';
import { TicketingStore } from './adapters/db/store';
import type { TicketingConfig } from './config';
import { ACCOUNT_EVENT_CONTRACTS, createAccountEventsHandler, type AccountEventPayload } from './handlers/account-events-handler';
import type { RawLog } from './adapters/db/raw-log';
import { watchStore } from './adapters/metrics';
import { createActivityHandler } from './handlers/activity-handler';
import type { HandlerDeps } from './handlers/handler-deps';
import { createCommandResultsHandler } from './handlers/command-results-handler';
import { createTrackingEventsHandler, TRACKING_EVENT_CONTRACTS } from './handlers/tracking-events-handler';
import { OrderFinder } from './operations/order-finding';
import type { TrackingEventPayload } from './operations/order-updates';
import { isUuid } from './domain/ids';
import { invalidRequestCode } from './http/errors';
import { EventStreams } from './http/live-routes';
import { ticketingRoutes } from './http/routes';
import { TicketList } from './operations/list-tickets';
import { LiveEvents, TYPING_TTL_MS } from './operations/live-events';
import { Merges } from './operations/merges';
import { Presence } from './operations/presence';
import { TicketActions } from './operations/ticket-actions';
import { TicketChanges } from './operations/ticket-changes';
import { WebhookDispatcher, WebhookEndpoints } from './operations/webhooks';
import { OrderLinks } from './operations/link-order';
import { recordUnsendableCommand } from './operations/record-command-result';
import { HeldRelease } from './operations/release-held';
import { SearchQueries, type SearchClient } from './operations/search-queries';
import { retiredActivityConsumer } from './adapters/retired-activity-queue';
import { Replies } from './operations/send-reply';
import { SilenceWatch } from './operations/silences';
import { SlaClocks } from './operations/sla';

/** Versioned SQL migrations of ticketing's database. */
export const MIGRATIONS_DIR = path.resolve(__dirname, '..', 'migrations');

/** The HTTP API's shapes (served at /openapi.json and /docs; every request is checked against it), by its path from the workspace root. */
export const OPENAPI_DOCUMENT = 'services/ticketing/openapi.yaml';

export interface TicketingOptions {
  logger: Logger;
  /** Broker objects to declare and use; the system's by default. */
  topology?: Topology;
  /** The queues of raw activity within `topology`; by default every queue bound to its activity partitions exchange. */
  activityQueues?: string[];
  /** The queue of account events within `topology`. */
  accountEventsQueue?: string;
  /** The queue of command results within `topology`. */
  commandResultsQueue?: string;
  /** The queue of tracking's events about followed tasks within `topology`. */
  trackingEventsQueue?: string;
  /** The exchange reply commands are published on. */
  commandsExchange?: string;
  /** Interface to listen on. */
  host?: string;
  /** Called with a delivery's envelope id once it is in the raw log; tests wait on it. */
  onRawLogged?: (envelopeId: string) => void;
  /** Called with each message's envelope id once it is handled (activity, account events, command results); tests wait on it. */
  onHandled?: (envelopeId: string) => void;
  /** The time SLA timers, search queries and the silence alarm go by (tests move it); the system clock by default. */
  clock?: () => Date;
  /** Where search queries go; auth over `auth.rpc` by default. */
  search?: SearchClient;
}

export interface RunningTicketing {
  port: number;
  server: Server;
  pool: Pool;
  broker: Broker;
  /** The consumers of the activity partitions (a single active consumer each: this replica holds some of them at a time). */
  consumer: ConsumerGroup;
  accountEventsConsumer: Consumer<AccountEventPayload>;
  commandResultsConsumer: Consumer<SocialCommandResultPayload>;
  trackingEventsConsumer: Consumer<TrackingEventPayload>;
  /** Order references found in messages: `runDue()` (also run on an interval, and when a message is recorded). */
  orderFinder: OrderFinder;
  /** Releases held deliveries of accounts that now have a configuration. */
  heldRelease: HeldRelease;
  /** Publishes the commands of replies (transactional outbox). */
  relay: OutboxRelay;
  /** SLA clocks: `reevaluateSla(ticketId)` after a change of a ticket, `fireDue()` (also run on an interval). */
  sla: SlaClocks;
  /** Search queries: `runDue()` (also run on an interval). */
  searchQueries: SearchQueries;
  /** The silence alarm: `check()` (also run on an interval, by one replica at a time). */
  silences: SilenceWatch;
  /** The silence alarm's periodic run: `runNow()` runs it once more after the one in progress (the first starts with the service). */
  silenceChecks: PeriodicJob;
  /** Makes the raw log's coming weeks' partitions, drops its weeks past the retention, deletes held deliveries past theirs and folds the views' counters: `runNow()` (also run on an interval). */
  retention: PeriodicJob;
  /** Every accepted delivery, as it came (purged past RAW_LOG_RETENTION_DAYS). */
  rawLog: RawLog;
  /** In order: stop consuming (in-flight work finishes), close HTTP, stop releases, close the broker, end the pool. */
  stopSteps: StopStep[];
  /** Runs every stop step. */
  stop: () => Promise<void>;
}

function requireWorkQueue(topology: Topology, queue: string): void {
  if (!topology.queues.some((candidate) => candidate.name === queue && candidate.kind === 'work')) {
    throw new Error(`the topology has no work queue named '${queue}'`);
  }
}

interface ConsumedQueues {
  activityQueues: string[];
  accountEventsQueue: string;
  commandResultsQueue: string;
  trackingEventsQueue: string;
}

const activityPartitionsOf = (topology: Topology) =>
  topology.queues.filter((queue) => queue.bindings?.some((binding) => binding.exchange === ACTIVITY_PARTITIONS_EXCHANGE)).map((queue) => queue.name);

/** The queues within the topology this service consumes; each must be a work queue there. */
function queuesOf(topology: Topology, options: TicketingOptions): ConsumedQueues {
  const queues = {
    activityQueues: options.activityQueues ?? activityPartitionsOf(topology),
    accountEventsQueue: options.accountEventsQueue ?? Queues.ticketingAccountEvents,
    commandResultsQueue: options.commandResultsQueue ?? Queues.ticketingCommandResults,
    trackingEventsQueue: options.trackingEventsQueue ?? Queues.ticketingTrackingEvents,
  };
  if (queues.activityQueues.length === 0) throw new Error(`the topology has no queue bound to '${ACTIVITY_PARTITIONS_EXCHANGE}'`);
  for (const queue of [...queues.activityQueues, queues.accountEventsQueue, queues.commandResultsQueue, queues.trackingEventsQueue]) requireWorkQueue(topology, queue);
  return queues;
}

async function openStore(config: TicketingConfig, logger: Logger): Promise<TicketingStore> {
  await ensureDatabase(config.DATABASE_MIGRATION_URL ?? config.DATABASE_URL);
  await migrate(config.DATABASE_MIGRATION_URL ?? config.DATABASE_URL, MIGRATIONS_DIR, logger);
  const pool = createPool(config.DATABASE_URL, {
    // The recording transactions, the two other consumers' (prefetch 5 each) and the HTTP
    // routes' and periodic jobs' (4); 16 with the defaults.
    max: config.ACTIVITY_TRANSACTIONS + 14,
    applicationName: 'ticketing',
    lockTimeoutMs: config.DB_LOCK_TIMEOUT_MS,
    statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
    idleInTransactionTimeoutMs: config.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    onIdleError: (error) => logger.warn('idle database connection failed', { reason: error.message }),
  });
  return new TicketingStore(pool);
}

/** The consumers of activity, account events and command results. */
function consumersOf(broker: Broker, topology: Topology, queues: ConsumedQueues, config: TicketingConfig, deps: HandlerDeps) {
  // One handler for every partition: their deliveries share the recording transactions. A
  // partition keeps its order through failures (ordered): a conversation's later message never
  // overtakes one that failed and waits in a retry queue.
  const activityHandler = createActivityHandler(deps);
  return {
    activityHandler,
    consumer: new ConsumerGroup(
      queues.activityQueues.map((queue) => new Consumer<RawActivityPayload>(broker, { queue, topology, contracts: [RawActivity], prefetch: config.ACTIVITY_PREFETCH, handler: activityHandler, ordered: true })),
      new ReplicaPresence(broker, Queues.ticketingReplicas),
    ),
    accountEventsConsumer: new Consumer<AccountEventPayload>(broker, {
      queue: queues.accountEventsQueue,
      topology,
      contracts: ACCOUNT_EVENT_CONTRACTS,
      prefetch: 5,
      handler: createAccountEventsHandler(deps),
    }),
    commandResultsConsumer: new Consumer<SocialCommandResultPayload>(broker, {
      queue: queues.commandResultsQueue,
      topology,
      contracts: [SocialCommandResult],
      prefetch: 5,
      handler: createCommandResultsHandler(deps),
    }),
    trackingEventsConsumer: new Consumer<TrackingEventPayload>(broker, {
      queue: queues.trackingEventsQueue,
      topology,
      contracts: TRACKING_EVENT_CONTRACTS,
      prefetch: 5,
      handler: createTrackingEventsHandler(deps),
    }),
  };
}

type Consumers = ReturnType<typeof consumersOf>;

/** SLA clocks, search queries and the silence alarm, with the periodic runs every replica makes of them. */
function timedWork(config: TicketingConfig, options: TicketingOptions, deps: { store: TicketingStore; relay: OutboxRelay; rpc: RpcClient; rawLog: RawLog }) {
  const { store, relay } = deps;
  const { logger } = options;
  const clock = options.clock ?? (() => new Date());
  const sla = new SlaClocks({ store, logger, clock, relay });
  const searchQueries = new SearchQueries({
    store,
    logger,
    clock,
    search: options.search ?? new AuthSearchClient(deps.rpc, config.SEARCH_RPC_TIMEOUT_MS),
    firstRunMax: Math.min(config.SEARCH_FIRST_RUN_MAX, 100),
    leaseMs: config.SEARCH_RPC_TIMEOUT_MS + 60_000,
    idleIntervalMaxSeconds: config.SEARCH_IDLE_INTERVAL_MAX_SECONDS,
    postReadPrice: config.SEARCH_POST_READ_PRICE,
  });
  const slaTimers = new PeriodicJob('SLA timers', () => sla.fireDue(), logger);
  const searchRuns = new PeriodicJob('search queries', () => searchQueries.runDue(), logger);
  const silences = new SilenceWatch({
    store,
    logger,
    clock,
    relay,
    settings: { silentAfterMs: config.SILENCE_AFTER_MINUTES * 60_000, lookbackMs: config.SILENCE_LOOKBACK_HOURS * 3_600_000, minDeliveries: config.SILENCE_MIN_DELIVERIES },
  });
  const silenceChecks = new PeriodicJob('silence check', () => silences.check(), logger);
  const orderFinder = new OrderFinder({
    store,
    logger,
    tracking: new TrackingClient(deps.rpc, config.TRACKING_RPC_TIMEOUT_MS),
    retryDelaysMs: config.ORDER_FINDING_RETRY_DELAYS_MS,
    kick: () => void relay.kick(),
  });
  const orderFinding = new PeriodicJob('order finding', async () => {
    await orderFinder.runDue();
  }, logger);
  const daysAgo = (days: number) => new Date(clock().getTime() - days * 24 * 3_600_000);
  const retention = new PeriodicJob('retention', async () => {
    // The coming weeks' partitions first: a run that fails after this still leaves them made.
    const partitionsMade = await deps.rawLog.preparePartitions();
    const purged = await deps.rawLog.purgeBefore(daysAgo(config.RAW_LOG_RETENTION_DAYS));
    const expired = await store.transaction((tx) => tx.held.expireBefore(daysAgo(config.HELD_TTL_DAYS)));
    const keysForgotten = await store.transaction((tx) => tx.idempotencyKeys.purgeBefore(new Date(clock().getTime() - config.IDEMPOTENCY_KEY_TTL_HOURS * 3_600_000)));
    const viewCountRowsFolded = await store.transaction((tx) => tx.viewCounts.fold());
    if (partitionsMade + purged + expired + keysForgotten + viewCountRowsFolded > 0) logger.info('retention applied', { rawLogPartitionsMade: partitionsMade, rawLogPurged: purged, heldExpired: expired, idempotencyKeysForgotten: keysForgotten, viewCountRowsFolded });
  }, logger);
  return { sla, searchQueries, slaTimers, searchRuns, retention, silences, silenceChecks, orderFinder, orderFinding };
}
type TimedWork = ReturnType<typeof timedWork>;

/**
 * ticketing's use cases for the API: replies, order links, the ticket list, changes, notes,
 * merges, actions, presence, partner configurations and the CRM's webhook endpoints (with the
 * dispatcher that delivers to them).
 */
function useCases(config: TicketingConfig, options: TicketingOptions, parts: { store: TicketingStore; heldRelease: HeldRelease; relay: OutboxRelay; rpc: RpcClient }) {
  const { store, heldRelease, relay } = parts;
  const { logger } = options;
  const defaults = { queue: config.DEFAULT_QUEUE, folder: config.DEFAULT_FOLDER, firstResponseMinutes: config.SLA_FIRST_RESPONSE_MINUTES, resolutionMinutes: config.SLA_RESOLUTION_MINUTES };
  const tracking = new TrackingClient(parts.rpc, config.TRACKING_RPC_TIMEOUT_MS);
  const common = { store, logger, isId: isUuid, kick: () => void relay.kick() };
  const box = config.WEBHOOK_SECRETS_KEY ? new SecretBox(config.WEBHOOK_SECRETS_KEY) : null;
  const webhookEndpoints = new WebhookEndpoints({ store, logger, box, isId: isUuid, kick: () => void webhookDispatcher.kick(), allowedRanges: config.WEBHOOK_ALLOWED_CIDRS });
  const webhookDispatcher = new WebhookDispatcher({ store, logger, endpoints: webhookEndpoints, retryDelaysMs: config.WEBHOOK_RETRY_DELAYS_MS, timeoutMs: config.WEBHOOK_TIMEOUT_MS, allowedRanges: config.WEBHOOK_ALLOWED_CIDRS });
  return {
    replies: new Replies({ store, logger, relay, commandsExchange: options.commandsExchange }),
    orderLinks: new OrderLinks({ store, tracking, logger, refreshAfterMs: config.TRACKING_REFRESH_AFTER_MS, readWaitMs: config.TRACKING_READ_WAIT_MS, kick: () => void relay.kick() }),
    ticketList: new TicketList(store, { searchesPerCredential: config.SEARCHES_PER_CREDENTIAL, searchStatementTimeoutMs: config.SEARCH_STATEMENT_TIMEOUT_MS }),
    changes: new TicketChanges(common),
    merges: new Merges(common),
    actions: new TicketActions({ ...common, commandsExchange: options.commandsExchange }),
    presence: new Presence(store),
    partnerConfigs: { store, logger, defaults, heldRelease },
    tracking,
    webhookEndpoints,
    webhookDispatcher,
  };
}
type UseCases = ReturnType<typeof useCases>;

/**
 * Committed changes as they happen: the listener of changes (NOTIFY) feeds the event streams
 * and publishes the outbox and webhooks at once. A stream ends when its credential or session
 * is announced revoked, or at its next keep-alive when the announcement was missed.
 */
function liveChanges(config: TicketingConfig, parts: { logger: Logger; access: AccessControl; relay: OutboxRelay; webhookDispatcher: WebhookDispatcher; findOrders: () => void }) {
  const listener = new ChangeListener(config.DATABASE_URL, parts.logger);
  const live = new LiveEvents(TYPING_TTL_MS);
  const limits = { perPrincipal: config.EVENT_STREAMS_PER_CREDENTIAL, perProcess: config.EVENT_STREAMS_PER_PROCESS, bufferBytes: config.EVENT_STREAM_BUFFER_BYTES, keepaliveMs: config.EVENT_STREAM_KEEPALIVE_MS };
  const streams = new EventStreams(limits, async (token) => (await parts.access.verify(token)) !== null);
  const stopHearingRevocations = parts.access.onRevoked((id) => streams.endRevoked(id));
  listener.onChange((notice) => {
    live.publish(notice);
    // CRM events (of tickets, and of accounts: the silence alarm) went to the outbox; typing and read state did not.
    if (!notice.type.startsWith('ticket.') && !notice.type.startsWith('account.')) return;
    void parts.relay.kick();
    // A customer's message may have named an order (order_findings): looked for now rather than at the next interval.
    if (notice.type === 'ticket.created' || notice.type === 'ticket.activity') parts.findOrders();
    // Only a change that queued webhook deliveries has work for the dispatcher (its interval catches the rest).
    if (notice.webhooks) void parts.webhookDispatcher.kick();
  });
  return {
    live,
    streams,
    /** Resolves once committed changes are heard. */
    ready: () => listener.start(),
    /** Before HTTP closes: streams never end by themselves. */
    end: async () => {
      stopHearingRevocations();
      live.close();
      streams.endAll();
      await listener.stop();
    },
  };
}
type LiveChanges = ReturnType<typeof liveChanges>;

/** The HTTP API's routes over the use cases. */
function routesOf(config: TicketingConfig, parts: { store: TicketingStore; access: AccessControl; cases: UseCases; live: LiveChanges; searchQueries: SearchQueries }) {
  const { store, cases } = parts;
  return ticketingRoutes({
    ...cases,
    store,
    access: parts.access.handlers,
    actors: new ActorDirectory(store.pool),
    searchQueries: parts.searchQueries,
    view: { trackingRefreshAfterMs: config.TRACKING_REFRESH_AFTER_MS },
    live: parts.live.live,
    streams: parts.live.streams,
  });
}

/** Consumers ready, then HTTP listening; on a failure, what was opened is closed again. */
async function serve(
  config: TicketingConfig,
  options: TicketingOptions,
  parts: Consumers & { broker: Broker; publisher: Publisher; rpc: RpcClient; routes: (app: Express) => void; store: TicketingStore; live: LiveChanges; access: AccessControl },
): Promise<Server> {
  const consumers = [parts.consumer, parts.accountEventsConsumer, parts.commandResultsConsumer, parts.trackingEventsConsumer];
  try {
    await Promise.all([...consumers.map((consumer) => consumer.ready()), parts.publisher.ready(), parts.live.ready(), parts.access.ready()]);
    const app = createHttpApp({
      logger: options.logger,
      readiness: { broker: () => parts.broker.isConnected(), database: () => parts.store.isReachable() },
      openApi: { document: readOpenApiDocument(OPENAPI_DOCUMENT), invalidRequestCode },
      routes: parts.routes,
    });
    return await listen(app, config.PORT, options.host);
  } catch (error) {
    for (const consumer of consumers) await consumer.stop(1_000).catch(() => undefined);
    await parts.rpc.close().catch(() => undefined);
    await parts.access.close().catch(() => undefined);
    await parts.live.end();
    await parts.broker.close().catch(() => undefined);
    await parts.store.end().catch(() => undefined);
    throw error;
  }
}

/** Stop steps, in order: stop consuming (in-flight work finishes), close HTTP, stop releases and the relay, close the broker, end the pool. */
function stopStepsOf(config: TicketingConfig, parts: Consumers & Pick<TimedWork, 'slaTimers' | 'searchRuns' | 'retention' | 'silenceChecks' | 'orderFinding'> & { server: Server; releaseSweeps: PeriodicJob; partitionBalance: PeriodicJob; heldRelease: HeldRelease; relay: OutboxRelay; rpc: RpcClient; publisher: Publisher; broker: Broker; store: TicketingStore; live: LiveChanges; webhookDispatcher: WebhookDispatcher; access: AccessControl }): StopStep[] {
  return [
    async () => {
      // Only its timer stops here: a sweep in progress ends with heldRelease.stop() below.
      void parts.releaseSweeps.stop();
      await parts.partitionBalance.stop();
      await Promise.all([parts.consumer, parts.accountEventsConsumer, parts.commandResultsConsumer, parts.trackingEventsConsumer].map((consumer) => consumer.stop(config.SHUTDOWN_TIMEOUT_MS)));
    },
    // Live streams never end by themselves: ended first, so HTTP can close.
    () => parts.live.end(),
    () => closeServer(parts.server),
    // Releases started by a PUT or the timer stop, and a relay run finishes, before the pool closes.
    () => parts.heldRelease.stop(),
    () => parts.slaTimers.stop(),
    () => parts.searchRuns.stop(),
    () => parts.retention.stop(),
    () => parts.silenceChecks.stop(),
    () => parts.orderFinding.stop(),
    () => parts.relay.stop(),
    () => parts.webhookDispatcher.stop(),
    // Checks of tracking still waiting are dropped: the answer is asked for again on the next read.
    () => parts.rpc.close(),
    () => parts.access.close(),
    () => parts.publisher.close(),
    () => parts.broker.close(),
    () => parts.store.end(),
  ];
}

/** Authentication, rate limits and the audit of writes on /v1; ticketing serves sessions limited to tickets (it checks each ticket). */
function accessOf(config: TicketingConfig, parts: { store: TicketingStore; logger: Logger; rpc: RpcClient; broker: Broker }): AccessControl {
  return accessControl({
    bootstrapTokens: config.CRM_API_TOKENS,
    verify: rpcCredentialVerifier(parts.rpc),
    pool: parts.store.pool,
    logger: parts.logger,
    ratePerMinute: config.API_RATE_LIMIT_PER_MINUTE,
    failuresPerMinute: config.AUTH_FAILURES_PER_MINUTE,
    cacheTtlMs: config.CREDENTIAL_CACHE_TTL_MS,
    broker: parts.broker,
    servesTicketLimited: true,
  });
}

/**
 * Starts the whole service in this process: database (created and migrated), broker,
 * consumers of activity, account events and command results, the release of held
 * deliveries, the outbox relay, and the HTTP API. Resolves once it consumes and listens.
 */
export async function startTicketing(config: TicketingConfig, options: TicketingOptions): Promise<RunningTicketing> {
  const { logger } = options;
  const topology = options.topology ?? SYSTEM_TOPOLOGY;
  const queues = queuesOf(topology, options);
  const store = await openStore(config, logger);

  const broker = new Broker({ url: config.AMQP_URL, name: 'ticketing', logger, topology: config.BROKER_TOPOLOGY });
  const publisher = new Publisher(broker, topology);
  const heldRelease = new HeldRelease({ store, logger });
  const { rawLog } = store;
  watchStore(store);
  const consumers = consumersOf(broker, topology, queues, config, { store, logger, onHandled: options.onHandled, heldCap: config.HELD_MAX_PER_ACCOUNT, recordingTransactions: config.ACTIVITY_TRANSACTIONS, onRawLogged: options.onRawLogged });
  const retired = await retiredActivityConsumer(broker, config.AMQP_URL, topology, { handler: consumers.activityHandler, prefetch: config.ACTIVITY_PREFETCH });
  if (retired) consumers.consumer.add(retired);
  const relay = new OutboxRelay({ pool: store.pool, publisher, logger, onUnpublishable: store.inTransactionOf(recordUnsendableCommand) });
  const rpc = new RpcClient(broker, 'ticketing', topology);
  const access = accessOf(config, { store, logger, rpc, broker });
  const timed = timedWork(config, options, { store, relay, rpc, rawLog });
  const cases = useCases(config, options, { store, heldRelease, relay, rpc });
  const live = liveChanges(config, { logger, access, relay, webhookDispatcher: cases.webhookDispatcher, findOrders: () => void timed.orderFinding.runNow() });
  const routes = routesOf(config, { store, access, cases, live, searchQueries: timed.searchQueries });
  const server = await serve(config, options, { ...consumers, broker, publisher, rpc, routes, store, live, access });

  // Deliveries held while this process was down, or whose release a crash interrupted; then on every interval.
  const releaseSweeps = new PeriodicJob('held release sweep', () => heldRelease.releaseReady(), logger);
  releaseSweeps.start(config.HELD_RELEASE_INTERVAL_MS);
  // A replica that came first holds every partition (single active consumer): it hands the excess to the others.
  const partitionBalance = new PeriodicJob('activity partition balance', () => consumers.consumer.balance(), logger);
  partitionBalance.start(config.ACTIVITY_BALANCE_INTERVAL_MS);
  // Commands a crash or a broker outage left in the outbox go out now, then on every interval.
  relay.start(config.OUTBOX_RELAY_INTERVAL_MS);
  cases.webhookDispatcher.start(config.WEBHOOK_INTERVAL_MS);
  // Timers that came due while no replica ran fire now; then on every interval.
  timed.slaTimers.start(config.SLA_TIMER_INTERVAL_MS);
  timed.searchRuns.start(config.SEARCH_INTERVAL_MS);
  timed.retention.start(config.RETENTION_INTERVAL_MS);
  timed.silenceChecks.start(config.SILENCE_CHECK_INTERVAL_MS);
  timed.orderFinding.start(config.ORDER_FINDING_INTERVAL_MS);

  const stopSteps = stopStepsOf(config, { ...consumers, ...timed, server, releaseSweeps, partitionBalance, heldRelease, relay, rpc, publisher, broker, store, live, webhookDispatcher: cases.webhookDispatcher, access });
  const port = (server.address() as AddressInfo).port;
  logger.info('ticketing started', { port, ...queues });
  return {
    port,
    server,
    pool: store.pool,
    broker,
    ...consumers,
    heldRelease,
    relay,
    sla: timed.sla,
    searchQueries: timed.searchQueries,
    rawLog,
    retention: timed.retention,
    silences: timed.silences,
    silenceChecks: timed.silenceChecks,
    orderFinder: timed.orderFinder,
    stopSteps,
    stop: async () => {
      for (const step of stopSteps) await step();
    },
  };
}
