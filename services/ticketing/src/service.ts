import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Queues, RawActivity, SocialCommandResult, SYSTEM_TOPOLOGY, type RawActivityPayload, type SocialCommandResultPayload, type Topology } from '@crm/contracts';
import { createPool, ensureDatabase, migrate, type Pool } from '@crm/db';
import { closeServer, createHttpApp, listen, type StopStep } from '@crm/http';
import type { Logger } from '@crm/logging';
import { Broker, Consumer, Publisher, RpcClient } from '@crm/messaging';
import { AuthSearchClient } from './adapters/broker/auth-search';
import { OutboxRelay } from './adapters/broker/outbox-relay';
import { TrackingClient } from './adapters/broker/tracking';
import { TicketingStore } from './adapters/db/store';
import { Periodic } from './adapters/periodic';
import type { TicketingConfig } from './config';
import { ACCOUNT_EVENT_CONTRACTS, createAccountEventsHandler, type AccountEventPayload } from './handlers/account-events-handler';
import { createActivityHandler } from './handlers/activity-handler';
import { createCommandResultsHandler } from './handlers/command-results-handler';
import { ticketingRoutes } from './http/routes';
import { OrderLinks } from './operations/link-order';
import { recordUnsendableCommand } from './operations/record-command-result';
import { HeldRelease } from './operations/release-held';
import { SearchQueries, type SearchClient } from './operations/search-queries';
import { Replies } from './operations/send-reply';
import { SlaClocks } from './operations/sla';

/** Versioned SQL migrations of ticketing's database. */
export const MIGRATIONS_DIR = path.resolve(__dirname, '..', 'migrations');

export interface TicketingOptions {
  logger: Logger;
  /** Broker objects to declare and use; the system's by default. */
  topology?: Topology;
  /** The queue of raw activity within `topology`. */
  activityQueue?: string;
  /** The queue of account events within `topology`. */
  accountEventsQueue?: string;
  /** The queue of command results within `topology`. */
  commandResultsQueue?: string;
  /** The exchange reply commands are published on. */
  commandsExchange?: string;
  /** Interface to listen on. */
  host?: string;
  /** Called with each message's envelope id once it is handled (activity, account events, command results); tests wait on it. */
  onHandled?: (envelopeId: string) => void;
  /** The time SLA timers and search queries are due by (tests move it); the system clock by default. */
  clock?: () => Date;
  /** Where search queries go; auth over `auth.rpc` by default. */
  search?: SearchClient;
}

export interface RunningTicketing {
  port: number;
  server: Server;
  pool: Pool;
  broker: Broker;
  consumer: Consumer<RawActivityPayload>;
  accountEventsConsumer: Consumer<AccountEventPayload>;
  commandResultsConsumer: Consumer<SocialCommandResultPayload>;
  /** Releases held deliveries of accounts that now have a configuration. */
  heldRelease: HeldRelease;
  /** Publishes the commands of replies (transactional outbox). */
  relay: OutboxRelay;
  /** SLA clocks: `reevaluateSla(ticketId)` after a change of a ticket, `fireDue()` (also run on an interval). */
  sla: SlaClocks;
  /** Search queries: `runDue()` (also run on an interval). */
  searchQueries: SearchQueries;
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

/** SLA clocks and search queries, with the periodic runs every replica makes of both. */
function timedWork(config: TicketingConfig, options: TicketingOptions, deps: { store: TicketingStore; relay: OutboxRelay; rpc: RpcClient }) {
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
  });
  const slaTimers = new Periodic('SLA timers', () => sla.fireDue(), logger);
  const searchRuns = new Periodic('search queries', () => searchQueries.runDue(), logger);
  return { sla, searchQueries, slaTimers, searchRuns };
}

/**
 * Starts the whole service in this process: database (created and migrated), broker,
 * consumers of activity and account events, the release of held deliveries, and the HTTP
 * API. Resolves once it consumes and listens.
 */
export async function startTicketing(config: TicketingConfig, options: TicketingOptions): Promise<RunningTicketing> {
  const { logger } = options;
  const topology = options.topology ?? SYSTEM_TOPOLOGY;
  const activityQueue = options.activityQueue ?? Queues.ticketingActivity;
  const accountEventsQueue = options.accountEventsQueue ?? Queues.ticketingAccountEvents;
  const commandResultsQueue = options.commandResultsQueue ?? Queues.ticketingCommandResults;
  requireWorkQueue(topology, activityQueue);
  requireWorkQueue(topology, accountEventsQueue);
  requireWorkQueue(topology, commandResultsQueue);

  await ensureDatabase(config.DATABASE_URL);
  await migrate(config.DATABASE_URL, MIGRATIONS_DIR, logger);
  const pool = createPool(config.DATABASE_URL, { max: config.ACTIVITY_PREFETCH + 6, applicationName: 'ticketing' });
  pool.on('error', (error) => logger.warn('idle database connection failed', { reason: error.message }));

  const store = new TicketingStore(pool);

  const broker = new Broker({ url: config.AMQP_URL, name: 'ticketing', logger });
  const publisher = new Publisher(broker, topology);
  const heldRelease = new HeldRelease({ store, logger });
  const consumer = new Consumer<RawActivityPayload>(broker, {
    queue: activityQueue,
    topology,
    contracts: [RawActivity],
    prefetch: config.ACTIVITY_PREFETCH,
    handler: createActivityHandler({ store, logger, onHandled: options.onHandled }),
  });
  const accountEventsConsumer = new Consumer<AccountEventPayload>(broker, {
    queue: accountEventsQueue,
    topology,
    contracts: ACCOUNT_EVENT_CONTRACTS,
    prefetch: 5,
    handler: createAccountEventsHandler({ store, logger, onHandled: options.onHandled }),
  });
  const commandResultsConsumer = new Consumer<SocialCommandResultPayload>(broker, {
    queue: commandResultsQueue,
    topology,
    contracts: [SocialCommandResult],
    prefetch: 5,
    handler: createCommandResultsHandler({ store, logger, onHandled: options.onHandled }),
  });
  const relay = new OutboxRelay({ pool, publisher, logger, onUnpublishable: store.inTransactionOf(recordUnsendableCommand) });
  const rpc = new RpcClient(broker, 'ticketing', topology);
  const orderLinks = new OrderLinks({
    store,
    tracking: new TrackingClient(rpc, config.TRACKING_RPC_TIMEOUT_MS),
    logger,
    refreshAfterMs: config.TRACKING_REFRESH_AFTER_MS,
    readWaitMs: config.TRACKING_READ_WAIT_MS,
  });
  const { sla, searchQueries, slaTimers, searchRuns } = timedWork(config, options, { store, relay, rpc });
  const defaults = {
    queue: config.DEFAULT_QUEUE,
    folder: config.DEFAULT_FOLDER,
    firstResponseMinutes: config.SLA_FIRST_RESPONSE_MINUTES,
    resolutionMinutes: config.SLA_RESOLUTION_MINUTES,
  };

  let server: Server | undefined;
  try {
    await Promise.all([consumer.ready(), accountEventsConsumer.ready(), commandResultsConsumer.ready(), publisher.ready()]);
    const app = createHttpApp({
      logger,
      readiness: { broker: () => broker.isConnected(), database: () => store.isReachable() },
      routes: ticketingRoutes({
        store,
        apiTokens: config.CRM_API_TOKENS,
        partnerConfigs: { store, logger, defaults, heldRelease },
        replies: new Replies({ store, logger, relay, commandsExchange: options.commandsExchange }),
        orderLinks,
        searchQueries,
        view: { trackingRefreshAfterMs: config.TRACKING_REFRESH_AFTER_MS },
      }),
    });
    server = await listen(app, config.PORT, options.host);
  } catch (error) {
    await consumer.stop(1_000).catch(() => undefined);
    await accountEventsConsumer.stop(1_000).catch(() => undefined);
    await commandResultsConsumer.stop(1_000).catch(() => undefined);
    await rpc.close().catch(() => undefined);
    await broker.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
    throw error;
  }

  // Deliveries held while this process was down, or whose release a crash interrupted.
  const releaseReady = () => void heldRelease.releaseReady();
  releaseReady();
  const releaseTimer = setInterval(releaseReady, config.HELD_RELEASE_INTERVAL_MS);
  releaseTimer.unref();
  // Commands a crash or a broker outage left in the outbox go out now, then on every interval.
  relay.start(config.OUTBOX_RELAY_INTERVAL_MS);
  // Timers that came due while no replica ran fire now; then on every interval.
  slaTimers.start(config.SLA_TIMER_INTERVAL_MS);
  searchRuns.start(config.SEARCH_INTERVAL_MS);

  const httpServer = server;
  const stopSteps: StopStep[] = [
    async () => {
      clearInterval(releaseTimer);
      await Promise.all([
        consumer.stop(config.SHUTDOWN_TIMEOUT_MS),
        accountEventsConsumer.stop(config.SHUTDOWN_TIMEOUT_MS),
        commandResultsConsumer.stop(config.SHUTDOWN_TIMEOUT_MS),
      ]);
    },
    () => closeServer(httpServer),
    // Releases started by a PUT or the timer stop, and a relay run finishes, before the pool closes.
    () => heldRelease.stop(),
    () => slaTimers.stop(),
    () => searchRuns.stop(),
    () => relay.stop(),
    // Checks of tracking still waiting are dropped: the answer is asked for again on the next read.
    () => rpc.close(),
    () => publisher.close(),
    () => broker.close(),
    () => pool.end(),
  ];
  const port = (httpServer.address() as AddressInfo).port;
  logger.info('ticketing started', { port, activityQueue, accountEventsQueue, commandResultsQueue });
  return {
    port,
    server: httpServer,
    pool,
    broker,
    consumer,
    accountEventsConsumer,
    commandResultsConsumer,
    heldRelease,
    relay,
    sla,
    searchQueries,
    stopSteps,
    stop: async () => {
      for (const step of stopSteps) await step();
    },
  };
}
