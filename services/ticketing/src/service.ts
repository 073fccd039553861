import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Queues, RawActivity, SYSTEM_TOPOLOGY, type RawActivityPayload, type Topology } from '@crm/contracts';
import { createPool, ensureDatabase, isReachable, migrate, type Pool } from '@crm/db';
import { closeServer, createHttpApp, listen, type StopStep } from '@crm/http';
import type { Logger } from '@crm/logging';
import { Broker, Consumer } from '@crm/messaging';
import type { TicketingConfig } from './config';
import { createActivityHandler } from './handlers/activity-handler';
import { ticketingRoutes } from './http/routes';

/** Versioned SQL migrations of ticketing's database. */
export const MIGRATIONS_DIR = path.resolve(__dirname, '..', 'migrations');

export interface TicketingOptions {
  logger: Logger;
  /** Broker objects to declare and use; the system's by default (tests pass renamed copies). */
  topology?: Topology;
  /** The queue of raw activity within `topology`. */
  activityQueue?: string;
  /** Interface to listen on. */
  host?: string;
}

export interface RunningTicketing {
  port: number;
  server: Server;
  pool: Pool;
  broker: Broker;
  consumer: Consumer<RawActivityPayload>;
  /** In order: stop consuming (in-flight work finishes), close HTTP, close the broker, end the pool. */
  stopSteps: StopStep[];
  /** Runs every stop step. */
  stop: () => Promise<void>;
}

/**
 * Starts the whole service in this process: database (created and migrated), broker,
 * activity consumer and HTTP API. Resolves once it consumes and listens.
 */
export async function startTicketing(config: TicketingConfig, options: TicketingOptions): Promise<RunningTicketing> {
  const { logger } = options;
  const topology = options.topology ?? SYSTEM_TOPOLOGY;
  const activityQueue = options.activityQueue ?? Queues.ticketingActivity;
  if (!topology.queues.some((queue) => queue.name === activityQueue && queue.kind === 'work')) {
    throw new Error(`the topology has no work queue named '${activityQueue}'`);
  }

  await ensureDatabase(config.DATABASE_URL);
  await migrate(config.DATABASE_URL, MIGRATIONS_DIR, logger);
  const pool = createPool(config.DATABASE_URL, { max: config.ACTIVITY_PREFETCH + 5, applicationName: 'ticketing' });
  pool.on('error', (error) => logger.warn('idle database connection failed', { reason: error.message }));

  const broker = new Broker({ url: config.AMQP_URL, name: 'ticketing', logger });
  const consumer = new Consumer<RawActivityPayload>(broker, {
    queue: activityQueue,
    topology,
    contracts: [RawActivity],
    prefetch: config.ACTIVITY_PREFETCH,
    handler: createActivityHandler({
      pool,
      logger,
      defaults: {
        queue: config.DEFAULT_QUEUE,
        folder: config.DEFAULT_FOLDER,
        firstResponseMinutes: config.SLA_FIRST_RESPONSE_MINUTES,
        resolutionMinutes: config.SLA_RESOLUTION_MINUTES,
      },
    }),
  });

  let server: Server | undefined;
  try {
    await consumer.ready();
    const app = createHttpApp({
      logger,
      readiness: { broker: () => broker.isConnected(), database: () => isReachable(pool) },
      routes: ticketingRoutes({ pool, apiTokens: config.CRM_API_TOKENS }),
    });
    server = await listen(app, config.PORT, options.host);
  } catch (error) {
    await consumer.stop(1_000).catch(() => undefined);
    await broker.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
    throw error;
  }

  const httpServer = server;
  const stopSteps: StopStep[] = [
    () => consumer.stop(config.SHUTDOWN_TIMEOUT_MS),
    () => closeServer(httpServer),
    () => broker.close(),
    () => pool.end(),
  ];
  const port = (httpServer.address() as AddressInfo).port;
  logger.info('ticketing started', { port, activityQueue });
  return {
    port,
    server: httpServer,
    pool,
    broker,
    consumer,
    stopSteps,
    stop: async () => {
      for (const step of stopSteps) await step();
    },
  };
}
