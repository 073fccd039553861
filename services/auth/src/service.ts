import type { Server } from 'node:http';
import { join } from 'node:path';
import { Queues, SYSTEM_TOPOLOGY } from '@crm/contracts';
import { createPool, ensureDatabase, isReachable, migrate } from '@crm/db';
import { closeServer, createHttpApp, listen, portOf } from '@crm/http';
import { registerSecret, type Logger } from '@crm/logging';
import { Broker, RpcServer } from '@crm/messaging';
import { SecretBox } from '@crm/secrets';
import { AppCredentialsStore } from './adapters/app-credentials';
import { usesLocalOnlySecrets, type AuthConfig } from './config';
import { authRpcMethods } from './handlers/rpc-methods';

export const MIGRATIONS_DIR = join(__dirname, '..', 'migrations');

export interface RunningService {
  server: Server;
  port: number;
  stop: () => Promise<void>;
}

/** Wires auth: database, sealed app credentials from the environment, RPC answers, HTTP. */
export async function startAuth(config: AuthConfig, deps: { logger: Logger }): Promise<RunningService> {
  const { logger } = deps;
  for (const secret of [config.SOCIAL_CONSUMER_SECRET, config.CREDENTIALS_KEY]) registerSecret(secret);
  if (usesLocalOnlySecrets(config)) logger.warn('using the local development consumer secret or credentials key; set SOCIAL_CONSUMER_SECRET and CREDENTIALS_KEY outside local development');

  await ensureDatabase(config.DATABASE_URL);
  await migrate(config.DATABASE_URL, MIGRATIONS_DIR, logger);
  const pool = createPool(config.DATABASE_URL, { applicationName: 'auth' });
  const store = new AppCredentialsStore(pool, new SecretBox(config.CREDENTIALS_KEY));
  await store.save(config.SOCIAL_ENV_NAME, { consumerKey: config.SOCIAL_CONSUMER_KEY, consumerSecret: config.SOCIAL_CONSUMER_SECRET });

  const broker = new Broker({ url: config.AMQP_URL, name: 'auth', logger });
  const rpc = new RpcServer(broker, { queue: Queues.authRpc, topology: SYSTEM_TOPOLOGY, producer: 'auth', methods: authRpcMethods(store) });

  const app = createHttpApp({
    logger,
    readiness: { broker: () => broker.isConnected(), database: () => isReachable(pool) },
    routes: () => undefined, // the CRM-facing account routes come with account connection
  });
  const server = await listen(app, config.PORT);
  const port = portOf(server);
  logger.info('auth listening', { url: `http://127.0.0.1:${port}`, envName: config.SOCIAL_ENV_NAME });

  return {
    server,
    port,
    stop: async () => {
      await rpc.stop();
      await closeServer(server);
      await broker.close();
      await pool.end();
    },
  };
}
