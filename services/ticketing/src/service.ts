import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Exchanges, Queues, RawActivity, SocialCommandResult, SYSTEM_TOPOLOGY, type RawActivityPayload, type SocialCommandResultPayload, type Topology } from '@crm/contracts';
import { createPool, ensureDatabase, isReachable, migrate, type Pool } from '@crm/db';
import { closeServer, createHttpApp, listen, type StopStep } from '@crm/http';
import type { Logger } from '@crm/logging';
import { Broker, Consumer, Publisher, RpcClient } from '@crm/messaging';
import { OutboxRelay } from './adapters/broker/outbox-relay';
import { TrackingClient } from './adapters/broker/tracking';
import type { TicketingConfig } from './config';
import { ACCOUNT_EVENT_CONTRACTS, createAccountEventsHandler, type AccountEventPayload } from './handlers/account-events-handler';
import { ActivityPipeline } from './handlers/activity-handler';
import { createCommandResultsHandler } from './handlers/command-results-handler';
import { ticketingRoutes } from './http/routes';
import { OrderLinks } from './operations/order-links';
import { commandNotSendable, Replies } from './operations/replies';

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
  /** The exchange `account.revoked` is published on. */
  accountEventsExchange?: string;
  /** The exchange reply commands are published on. */
  commandsExchange?: string;
  /** Interface to listen on. */
  host?: string;
}

export interface RunningTicketing {
  port: number;
  server: Server;
  pool: Pool;
  broker: Broker;
  consumer: Consumer<RawActivityPayload>;
  accountEventsConsumer: Consumer<AccountEventPayload>;
  commandResultsConsumer: Consumer<SocialCommandResultPayload>;
  pipeline: ActivityPipeline;
  /** Publishes the commands of replies (transactional outbox). */
  relay: OutboxRelay;
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

  await ensureDatabase(config.DATABASE_MIGRATION_URL ?? config.DATABASE_URL);
  await migrate(config.DATABASE_MIGRATION_URL ?? config.DATABASE_URL, MIGRATIONS_DIR, logger);
  const pool = createPool(config.DATABASE_URL, { max: config.ACTIVITY_PREFETCH + 6, applicationName: 'ticketing' });
  pool.on('error', (error) => logger.warn('idle database connection failed', { reason: error.message }));

  const broker = new Broker({ url: config.AMQP_URL, name: 'ticketing', logger, topology: config.BROKER_TOPOLOGY });
  const publisher = new Publisher(broker, topology);
  const pipeline = new ActivityPipeline({ pool, logger, publisher, accountEventsExchange: options.accountEventsExchange ?? Exchanges.accountEvents });
  const consumer = new Consumer<RawActivityPayload>(broker, {
    queue: activityQueue,
    topology,
    contracts: [RawActivity],
    prefetch: config.ACTIVITY_PREFETCH,
    handler: pipeline.handler(),
  });
  const accountEventsConsumer = new Consumer<AccountEventPayload>(broker, {
    queue: accountEventsQueue,
    topology,
    contracts: ACCOUNT_EVENT_CONTRACTS,
    prefetch: 5,
    handler: createAccountEventsHandler({ pool, logger }),
  });
  const commandResultsConsumer = new Consumer<SocialCommandResultPayload>(broker, {
    queue: commandResultsQueue,
    topology,
    contracts: [SocialCommandResult],
    prefetch: 5,
    handler: createCommandResultsHandler({ pool, logger }),
  });
  const relay = new OutboxRelay({ pool, publisher, logger, onUnpublishable: commandNotSendable });
  const rpc = new RpcClient(broker, 'ticketing', topology);
  const orderLinks = new OrderLinks({
    pool,
    tracking: new TrackingClient(rpc, config.TRACKING_RPC_TIMEOUT_MS),
    logger,
    refreshAfterMs: config.TRACKING_REFRESH_AFTER_MS,
    readWaitMs: config.TRACKING_READ_WAIT_MS,
  });
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
      readiness: { broker: () => broker.isConnected(), database: () => isReachable(pool) },
      routes: ticketingRoutes({
        pool,
        apiTokens: config.CRM_API_TOKENS,
        logger,
        defaults,
        releaseHeld: (accountId) => pipeline.release(accountId),
        replies: new Replies({ pool, logger, relay, commandsExchange: options.commandsExchange }),
        orderLinks,
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
  const releaseReady = () => void pipeline.releaseReady();
  releaseReady();
  const releaseTimer = setInterval(releaseReady, config.HELD_RELEASE_INTERVAL_MS);
  releaseTimer.unref();
  // Commands a crash or a broker outage left in the outbox go out now, then on every interval.
  relay.start(config.OUTBOX_RELAY_INTERVAL_MS);

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
    () => pipeline.stop(),
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
    pipeline,
    relay,
    stopSteps,
    stop: async () => {
      for (const step of stopSteps) await step();
    },
  };
}
