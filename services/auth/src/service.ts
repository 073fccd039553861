import type { Server } from 'node:http';
import { join } from 'node:path';
import { AccountRevoked, Queues, SocialCommand, SYSTEM_TOPOLOGY, type AccountRevokedPayload, type SocialCommandPayload } from '@crm/contracts';
import { createPool, ensureDatabase, isReachable, migrate, type Pool } from '@crm/db';
import { closeServer, createHttpApp, listen, portOf } from '@crm/http';
import { registerSecret, type Logger } from '@crm/logging';
import { Broker, Consumer, Publisher, RpcServer } from '@crm/messaging';
import { AccountStore } from './adapters/accounts';
import { AppCredentialsStore } from './adapters/app-credentials';
import { CommandStore } from './adapters/commands';
import { ConnectionRequests } from './adapters/connection-requests';
import { AuthEvents } from './adapters/events';
import { Keyring } from './adapters/keyring';
import { PlatformClient } from './adapters/platform/client';
import { WebhookRegistrations } from './adapters/webhook-registrations';
import { usesLocalOnlySecrets, type AuthConfig } from './config';
import { RateLimitGate } from './domain/rate-limits';
import { createAccountEventsHandler } from './handlers/account-events-handler';
import { createCommandHandler } from './handlers/command-handler';
import { authRpcMethods } from './handlers/rpc-methods';
import { authRoutes } from './http/routes';
import { AccountService } from './operations/accounts';
import { ActionExecutor } from './operations/executor';
import { WebhookAdmin, type WebhookCheck } from './operations/webhooks';

export const MIGRATIONS_DIR = join(__dirname, '..', 'migrations');

export interface RunningService {
  server: Server;
  port: number;
  pool: Pool;
  webhooks: WebhookAdmin;
  consumer: Consumer<SocialCommandPayload>;
  accountEventsConsumer: Consumer<AccountRevokedPayload>;
  stop: () => Promise<void>;
}

/** What auth's parts are made of, for the service and for the CLI (which needs no broker or HTTP). */
export function platformParts(config: AuthConfig, pool: Pool, logger: Logger) {
  const keys = new Keyring(config.CREDENTIALS_KEY, config.CREDENTIALS_KEY_PREVIOUS);
  const platform = new PlatformClient({
    baseUrl: config.SOCIAL_API_URL,
    consumerKey: config.SOCIAL_CONSUMER_KEY,
    consumerSecret: config.SOCIAL_CONSUMER_SECRET,
    timeoutMs: config.SOCIAL_HTTP_TIMEOUT_MS,
    logger,
  });
  const accounts = new AccountStore(pool, keys);
  return { keys, platform, accounts, appCredentials: new AppCredentialsStore(pool, keys), registrations: new WebhookRegistrations(pool) };
}

export function registerConfigSecrets(config: AuthConfig): void {
  for (const secret of [config.SOCIAL_CONSUMER_SECRET, config.CREDENTIALS_KEY, config.CREDENTIALS_KEY_PREVIOUS, ...config.CRM_API_TOKENS]) registerSecret(secret);
}

/**
 * Wires auth: database, sealed credentials, the platform client, account connection and
 * webhook administration, the command consumer, RPC answers, HTTP, and the periodic
 * webhook check.
 */
export async function startAuth(config: AuthConfig, deps: { logger: Logger }): Promise<RunningService> {
  const { logger } = deps;
  registerConfigSecrets(config);
  if (usesLocalOnlySecrets(config)) logger.warn('using local development secrets (consumer secret, credentials key or CRM token); set them outside local development');

  await ensureDatabase(config.DATABASE_URL);
  await migrate(config.DATABASE_URL, MIGRATIONS_DIR, logger);
  const pool = createPool(config.DATABASE_URL, { applicationName: 'auth' });
  pool.on('error', (error) => logger.warn('idle database connection failed', { reason: error.message }));
  const { keys, platform, accounts, appCredentials, registrations } = platformParts(config, pool, logger);
  await appCredentials.save(config.SOCIAL_ENV_NAME, { consumerKey: config.SOCIAL_CONSUMER_KEY, consumerSecret: config.SOCIAL_CONSUMER_SECRET });

  const broker = new Broker({ url: config.AMQP_URL, name: 'auth', logger });
  const publisher = new Publisher(broker, SYSTEM_TOPOLOGY);
  const events = new AuthEvents(publisher);
  let port = 0;
  const publicUrl = () => (config.PUBLIC_URL ?? `http://127.0.0.1:${port}`).replace(/\/$/, '');

  const webhooks = new WebhookAdmin(
    { platform, accounts, registrations, logger },
    { envName: config.SOCIAL_ENV_NAME, publicWebhookUrl: config.PUBLIC_WEBHOOK_URL, ownerAccountId: config.SOCIAL_APP_OWNER_ACCOUNT_ID },
  );
  // One check at a time (timer and HTTP share the running one): two overlapping checks would both publish webhook.invalid.
  let checking: Promise<WebhookCheck> | null = null;
  const checkWebhooks = () =>
    (checking ??= webhooks.checkInvalid((payload) => events.webhookInvalid(payload)).finally(() => {
      checking = null;
    }));
  const accountService = new AccountService(
    { pool, accounts, requests: new ConnectionRequests(pool, keys), platform, events, logger, unsubscribe: (accountId) => webhooks.unsubscribe(accountId) },
    {
      envName: config.SOCIAL_ENV_NAME,
      consumerKey: config.SOCIAL_CONSUMER_KEY,
      authorizeUrl: config.SOCIAL_AUTHORIZE_URL ?? `${config.SOCIAL_API_URL.replace(/\/$/, '')}/oauth/authorize`,
      callbackUrl: () => `${publicUrl()}/v1/oauth/callback`,
      connectionTtlSeconds: config.CONNECTION_TTL_SECONDS,
    },
  );
  const executor = new ActionExecutor({
    accounts,
    accountService,
    commands: new CommandStore(pool),
    platform,
    gate: new RateLimitGate(),
    logger,
    // A send in flight longer than two timeouts belongs to a worker that died.
    leaseMs: 2 * config.SOCIAL_HTTP_TIMEOUT_MS + 5_000,
  });

  const consumer = new Consumer<SocialCommandPayload>(broker, {
    queue: Queues.authCommands,
    topology: SYSTEM_TOPOLOGY,
    contracts: [SocialCommand],
    prefetch: config.COMMAND_PREFETCH,
    handler: createCommandHandler({ executor, events }),
  });
  const accountEventsConsumer = new Consumer<AccountRevokedPayload>(broker, {
    queue: Queues.authAccountEvents,
    topology: SYSTEM_TOPOLOGY,
    contracts: [AccountRevoked],
    handler: createAccountEventsHandler({ accounts, logger }),
  });
  const rpc = new RpcServer(broker, { queue: Queues.authRpc, topology: SYSTEM_TOPOLOGY, producer: 'auth', methods: authRpcMethods(appCredentials, executor) });

  const app = createHttpApp({
    logger,
    readiness: { broker: () => broker.isConnected(), database: () => isReachable(pool) },
    routes: authRoutes({
      accounts: accountService,
      webhooks,
      executor,
      checkWebhooks,
      logger,
      crmApiTokens: config.CRM_API_TOKENS,
      crmConnectedUrl: config.CRM_CONNECTED_URL ?? null,
      publicUrl,
      connectionTtlSeconds: config.CONNECTION_TTL_SECONDS,
    }),
  });
  const server = await listen(app, config.PORT);
  port = portOf(server);
  logger.info('auth listening', { url: `http://127.0.0.1:${port}`, envName: config.SOCIAL_ENV_NAME, callback: `${publicUrl()}/v1/oauth/callback` });

  const timer =
    config.WEBHOOK_CHECK_INTERVAL_MS > 0
      ? setInterval(() => {
          checkWebhooks().catch((error: unknown) => logger.warn('webhook check failed', { reason: (error as Error).message }));
        }, config.WEBHOOK_CHECK_INTERVAL_MS)
      : null;
  timer?.unref();

  return {
    server,
    port,
    pool,
    webhooks,
    consumer,
    accountEventsConsumer,
    stop: async () => {
      if (timer) clearInterval(timer);
      await Promise.all([consumer.stop(), accountEventsConsumer.stop()]);
      await rpc.stop();
      await closeServer(server);
      await checking?.catch(() => undefined); // its failure was logged or answered already
      await publisher.close();
      await broker.close();
      await pool.end();
    },
  };
}
