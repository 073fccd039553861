import type { Server } from 'node:http';
import { SYSTEM_TOPOLOGY } from '@crm/contracts';
import { createPool, ensureDatabase, isReachable } from '@crm/db';
import { closeServer, createHttpApp, listen, portOf } from '@crm/http';
import type { Logger } from '@crm/logging';
import { Broker, Publisher } from '@crm/messaging';
import type { TrackingConfig } from './config';

export interface RunningService {
  server: Server;
  port: number;
  stop: () => Promise<void>;
}

/**
 * tracking, as far as it goes today: connected to the broker (its topology declared) and to
 * its database, reporting health. Task lookups come with the tracking integration.
 */
export async function startTracking(config: TrackingConfig, deps: { logger: Logger }): Promise<RunningService> {
  const { logger } = deps;
  await ensureDatabase(config.DATABASE_URL);
  const pool = createPool(config.DATABASE_URL, { applicationName: 'tracking' });
  const broker = new Broker({ url: config.AMQP_URL, name: 'tracking', logger });
  const topology = new Publisher(broker, SYSTEM_TOPOLOGY);

  const app = createHttpApp({
    logger,
    readiness: { broker: () => broker.isConnected(), database: () => isReachable(pool) },
    routes: () => undefined,
  });
  const server = await listen(app, config.PORT);
  const port = portOf(server);
  logger.info('tracking listening', { url: `http://127.0.0.1:${port}` });

  return {
    server,
    port,
    stop: async () => {
      await closeServer(server);
      await topology.close();
      await broker.close();
      await pool.end();
    },
  };
}
