import type { Server } from 'node:http';
import { join } from 'node:path';
import { AccountSilent, Queues, RawActivity, SocialCommand, SYSTEM_TOPOLOGY, type AccountSilentPayload, type RawActivityPayload, type SocialCommandPayload } from '@crm/contracts';
import type { Pool } from '@crm/db';
import { closeServer, createHttpApp, listen, portOf, readOpenApiDocument } from '@crm/http';
import { registerSecret, type Logger } from '@crm/logging';
import { Broker, Consumer, Publisher, RpcServer, type OutboxRelay } from '@crm/messaging';
import { PeriodicJob } from '@crm/periodic';
import { accessControl } from '@crm/access';
import { AuthDatabase } from './adapters/database';
import type { AuthEvents } from './adapters/events';
import { measureCredentialState } from './adapters/metrics';
import { PlatformClient } from './adapters/platform/client';
import { OAuth2TokenEndpoint } from './adapters/platform/oauth2';
import { usesLocalOnlySecrets, type AuthConfig } from './config';
import { AppRefusalGate, RateLimitGate } from './domain/rate-limits';
import { createAccountSilentHandler } from './handlers/account-silent-handler';
import { createActivityHandler } from './handlers/activity-handler';
import { createCommandHandler } from './handlers/command-handler';
import { credentialRpcMethods } from './handlers/credential-rpc';
import { authRpcMethods } from './handlers/rpc-methods';
import { authRoutes } from './http/routes';
import { AccountService } from './operations/accounts';
import { AppCredit } from './operations/credit';
import { ActionExecutor } from './operations/executor';
import { AgentChangesService } from './operations/agent-changes';
import { AgentAdmin } from './operations/agents';
import { SessionService } from './operations/sessions';
import { TokenRefresher } from './operations/token-refresh';
import { UsageMeter } from './operations/usage';
import { WebhookAdmin, type WebhookCheck } from './operations/webhooks';
import { XaaAdmin, XaaReplays } from './operations/xaa';

export const MIGRATIONS_DIR = join(__dirname, '..', 'migrations');
/** auth's HTTP API, from the workspace root: every request is checked against it before a route sees it. */
export const OPENAPI_DOCUMENT = 'services/auth/openapi.yaml';

export interface RunningService {
  server: Server;
  port: number;
  pool: Pool;
  webhooks: WebhookAdmin;
  xaa: ReturnType<typeof xaaParts>;
  /** Refreshes OAuth 2.0 access tokens (the periodic round runs it every OAUTH2_REFRESH_INTERVAL_MS). */
  refresher: TokenRefresher;
  consumer: Consumer<SocialCommandPayload>;
  activityConsumer: Consumer<RawActivityPayload>;
  /** `account.silent` from ticketing's silence alarm: replays of silent windows. */
  silentConsumer: Consumer<AccountSilentPayload>;
  /** Publishes what auth enqueued in its transactions (account events, command results, ended sessions). */
  relay: OutboxRelay;
  /** Sessions issued to the console: verified like API credentials, ended at sign-out, purged a day after. */
  sessions: SessionService;
  /** The accounts' platform spend and budgets (its read-record purge runs hourly). */
  meter: UsageMeter;
  stop: () => Promise<void>;
}

/** What auth's parts are made of, for the service and for the CLI (which needs no broker or HTTP): its database's stores and the platform client. */
export function platformParts(config: AuthConfig, db: AuthDatabase, logger: Logger) {
  const platform = new PlatformClient({
    baseUrl: config.SOCIAL_API_URL,
    consumerKey: config.SOCIAL_CONSUMER_KEY,
    consumerSecret: config.SOCIAL_CONSUMER_SECRET,
    timeoutMs: config.SOCIAL_HTTP_TIMEOUT_MS,
    logger,
  });
  return { db, platform, accounts: db.accounts, appCredentials: db.appCredentials, registrations: db.registrations };
}

/** The X Activity API's use cases: its webhook and subscriptions, and replays after an outage (for the service and the CLI). */
export function xaaParts(config: AuthConfig, db: AuthDatabase, platform: PlatformClient, logger: Logger) {
  const admin = new XaaAdmin(
    { platform, accounts: db.accounts, store: db.xaa, logger },
    { webhookUrl: `${config.PUBLIC_WEBHOOK_URL.replace(/\/$/, '')}/xaa`, eventTypes: config.XAA_EVENT_TYPES, allowLocalWebhookUrl: config.WEBHOOK_URL_LOCAL_ALLOWED },
  );
  const replays = new XaaReplays(
    { platform, store: db.xaa, logger },
    {
      rules: { minStartAgeMs: config.XAA_REPLAY_MIN_START_AGE_SECONDS * 1000, minEndAgeMs: config.XAA_REPLAY_MIN_END_AGE_SECONDS * 1000, maxAgeMs: 24 * 3_600_000 },
      gapMs: config.XAA_REPLAY_GAP_SECONDS * 1000,
      marginMs: config.XAA_REPLAY_MARGIN_SECONDS * 1000,
      busyRetryMs: config.XAA_REPLAY_BUSY_RETRY_SECONDS * 1000,
    },
  );
  return { admin, replays };
}

/**
 * Auth's periodic jobs, each first run one interval after start (an interval of 0 turns it
 * off), one round at a time in this process; a failed round is logged and counted, and the
 * next one tries again. In the order they stop:
 * - the webhook check: an invalid webhook gets its CRC again;
 * - the heartbeat: at start-up a gap since the last one queues a replay of the missed XAA
 *   deliveries; then every interval auth beats and asks for the replays that became due;
 * - the refresh of OAuth 2.0 access tokens close to expiry (replicas coordinate per account
 *   through the row lock);
 * - the purge of sessions that ended or expired more than a day ago;
 * - the credit probe: while the app is out of credit, asks the platform whether it is back,
 *   then sends the held commands (and any still held from before).
 * - the purge of the records of resources read on earlier UTC days (the read dedup is per day).
 */
async function startPeriodicJobs(
  config: AuthConfig,
  parts: { replays: XaaReplays; refresher: TokenRefresher; sessions: SessionService; meter: UsageMeter; checkWebhooks: () => Promise<unknown>; credit: AppCredit },
  logger: Logger,
): Promise<PeriodicJob[]> {
  const every = (what: string, task: () => Promise<unknown>) => new PeriodicJob(what, task, logger, { runAtStart: false });
  const jobs: Array<[PeriodicJob, number]> = [
    [every('webhook check', parts.checkWebhooks), config.WEBHOOK_CHECK_INTERVAL_MS],
    [every('heartbeat', () => parts.replays.tick()), config.HEARTBEAT_INTERVAL_MS],
    [every('token refresh round', () => parts.refresher.refreshDue()), config.OAUTH2_REFRESH_INTERVAL_MS],
    [every('session purge', () => parts.sessions.purgeOld()), SESSION_PURGE_INTERVAL_MS],
    [every('credit probe', () => parts.credit.check()), config.CREDIT_PROBE_INTERVAL_MS],
    [every('read record purge', () => parts.meter.forgetOldReads()), SESSION_PURGE_INTERVAL_MS],
  ];
  if (config.HEARTBEAT_INTERVAL_MS > 0) {
    await parts.replays.checkGapAtStartup().catch((error: unknown) => logger.warn('the start-up outage check failed', { reason: (error as Error).message }));
  }
  for (const [job, intervalMs] of jobs) job.start(intervalMs);
  return jobs.map(([job]) => job);
}

/** At start: accounts connected before auth asked for its current scopes are told to reconnect, once. Never fatal. */
async function noticeOutdatedScopes(accounts: AccountService, logger: Logger): Promise<void> {
  await accounts.noticeOutdatedScopes().catch((error: unknown) => logger.warn('the outdated-scope notice failed', { reason: (error as Error).message }));
}

export function registerConfigSecrets(config: AuthConfig): void {
  for (const secret of [config.SOCIAL_CONSUMER_SECRET, config.SOCIAL_OAUTH2_CLIENT_SECRET, config.CREDENTIALS_KEY, config.CREDENTIALS_KEY_PREVIOUS, ...config.CRM_API_TOKENS, ...config.SESSION_ISSUER_TOKENS]) registerSecret(secret, { pinned: true });
}

type Parts = ReturnType<typeof platformParts>;

/** auth's use cases: webhook administration, account connection, actions for accounts, and the console's sessions. */
function useCases(config: AuthConfig, parts: Parts, events: AuthEvents, logger: Logger, publicUrl: () => string) {
  const { db, platform, accounts, registrations } = parts;
  const webhooks = new WebhookAdmin(
    { platform, accounts, registrations, logger },
    { envName: config.SOCIAL_ENV_NAME, publicWebhookUrl: config.PUBLIC_WEBHOOK_URL, ownerAccountId: config.SOCIAL_APP_OWNER_ACCOUNT_ID, allowLocalWebhookUrl: config.WEBHOOK_URL_LOCAL_ALLOWED },
  );
  const xaa = xaaParts(config, db, platform, logger);
  // A removed account leaves both webhook APIs.
  const unsubscribe = async (accountId: string) => {
    await xaa.admin.unsubscribeRemoved(accountId);
    return webhooks.unsubscribe(accountId);
  };
  const tokens = new OAuth2TokenEndpoint(platform, { clientId: config.SOCIAL_OAUTH2_CLIENT_ID, clientSecret: config.SOCIAL_OAUTH2_CLIENT_SECRET });
  const refresher = new TokenRefresher(
    { accounts, tokens, events, logger },
    // A call waits for a refresh running elsewhere at most as long as that refresh's own call may take.
    { marginMs: config.OAUTH2_REFRESH_MARGIN_SECONDS * 1000, lockWaitMs: config.SOCIAL_HTTP_TIMEOUT_MS + 5_000 },
  );
  const meter = new UsageMeter({ store: db.usage, events, logger }, config.PLATFORM_RATE_CARD);
  const accountService = new AccountService(
    { accounts, requests: db.connectionRequests, platform, tokens, events, logger, unsubscribe, meter },
    {
      envName: config.SOCIAL_ENV_NAME,
      consumerKey: config.SOCIAL_CONSUMER_KEY,
      authorizeUrl: config.SOCIAL_AUTHORIZE_URL ?? `${config.SOCIAL_API_URL.replace(/\/$/, '')}/oauth/authorize`,
      oauth2AuthorizeUrl: config.SOCIAL_OAUTH2_AUTHORIZE_URL ?? `${config.SOCIAL_API_URL.replace(/\/$/, '')}/i/oauth2/authorize`,
      oauth2ClientId: config.SOCIAL_OAUTH2_CLIENT_ID,
      callbackUrl: () => `${publicUrl()}/v1/oauth/callback`,
      startUrl: () => `${publicUrl()}/v1/oauth/start`,
      connectionTtlSeconds: config.CONNECTION_TTL_SECONDS,
    },
  );
  const refusals = new AppRefusalGate();
  const credit: AppCredit = new AppCredit({
    store: db.credit, events, platform, logger, envName: config.SOCIAL_ENV_NAME,
    retryAfterSeconds: Math.max(1, Math.ceil((config.CREDIT_PROBE_INTERVAL_MS || 60_000) / 1000)),
    send: (held) => executor.sendHeld(held),
  });
  measureCredentialState({ refusalInForce: () => refusals.current(), earliestTokenExpiry: () => accounts.earliestTokenExpiry(), outOfCredit: async () => (await db.credit.state()).outOfCredit });
  const executor: ActionExecutor = new ActionExecutor({
    accounts,
    accountService,
    commands: db.commands,
    events,
    platform,
    refresher,
    gate: new RateLimitGate(),
    refusals,
    refusalHoldMs: config.PLATFORM_REFUSAL_HOLD_SECONDS * 1000,
    credit,
    logger,
    // A send in flight longer than two timeouts belongs to a worker that died.
    leaseMs: 2 * config.SOCIAL_HTTP_TIMEOUT_MS + 5_000,
    meter,
  });
  const sessions = new SessionService(
    { store: db.sessions, credentials: db.apiCredentials, agents: db.agents, events, logger },
    { bootstrapTokens: config.CRM_API_TOKENS, maxTtlSeconds: config.SESSION_MAX_TTL_SECONDS, failuresPerMinute: config.AUTH_FAILURES_PER_MINUTE },
  );
  return { webhooks, xaa, accountService, executor, refresher, sessions, meter, credit };
}

/** What auth takes from the broker: commands, the platform's user events, silent accounts, and RPC requests. */
function consumeAndAnswer(broker: Broker, config: AuthConfig, deps: { executor: ActionExecutor; accountService: AccountService; parts: Parts; sessions: SessionService; replays: XaaReplays; logger: Logger }) {
  const consumer = new Consumer<SocialCommandPayload>(broker, {
    queue: Queues.authCommands,
    topology: SYSTEM_TOPOLOGY,
    contracts: [SocialCommand],
    prefetch: config.COMMAND_PREFETCH,
    handler: createCommandHandler({ executor: deps.executor }),
  });
  const activityConsumer = new Consumer<RawActivityPayload>(broker, {
    queue: Queues.authActivity,
    topology: SYSTEM_TOPOLOGY,
    contracts: [RawActivity],
    handler: createActivityHandler({ accounts: deps.accountService, logger: deps.logger }),
  });
  const silentConsumer = new Consumer<AccountSilentPayload>(broker, {
    queue: Queues.authAccountEvents,
    topology: SYSTEM_TOPOLOGY,
    contracts: [AccountSilent],
    handler: createAccountSilentHandler({ replays: deps.replays, logger: deps.logger }),
  });
  const keyOptions = { webhookKeyOverlapMs: config.WEBHOOK_KEY_OVERLAP_SECONDS * 1000, callers: { webhookKey: config.WEBHOOK_KEY_CALLERS } };
  const methods = [...authRpcMethods(deps.parts.appCredentials, deps.executor, keyOptions), ...credentialRpcMethods(deps.sessions)];
  const rpc = new RpcServer(broker, { queue: Queues.authRpc, topology: SYSTEM_TOPOLOGY, producer: 'auth', methods });
  return { consumer, activityConsumer, silentConsumer, rpc };
}

/** Runs the webhook check one at a time (timer and HTTP share the running one): two overlapping checks would both announce webhook.invalid. */
function oneCheckAtATime(webhooks: WebhookAdmin, events: AuthEvents) {
  let checking: Promise<WebhookCheck> | null = null;
  return {
    run: () =>
      (checking ??= webhooks.checkInvalid(events).finally(() => {
        checking = null;
      })),
    /** Waits for a check in progress; its failure was logged or answered already. */
    settled: async () => void (await checking?.catch(() => undefined)),
  };
}

/**
 * How API credentials are checked on /v1: the bootstrap tokens, rate limits and how long a
 * check is remembered. Ticket-limited principals (launch sessions) get through to reach their
 * own sign-out; auth's routes refuse them everything else (`outsideTicketScope`).
 */
const accessSettings = (config: AuthConfig) => ({
  bootstrapTokens: config.CRM_API_TOKENS,
  issuerTokens: config.SESSION_ISSUER_TOKENS,
  ratePerMinute: config.API_RATE_LIMIT_PER_MINUTE,
  failuresPerMinute: config.AUTH_FAILURES_PER_MINUTE,
  cacheTtlMs: config.CREDENTIAL_CACHE_TTL_MS,
  servesTicketLimited: true,
});

/** How often sessions that ended or expired more than a day ago are deleted. */
const SESSION_PURGE_INTERVAL_MS = 3_600_000;

const routeSettings = (config: AuthConfig) => ({
  crmConnectedUrl: config.CRM_CONNECTED_URL ?? null,
  connectionTtlSeconds: config.CONNECTION_TTL_SECONDS,
});

/**
 * Wires auth: database, sealed credentials, the platform client, account connection and
 * webhook administration, the console's sessions, the outbox relay, the consumers, RPC
 * answers, HTTP, and the periodic work (webhook check, heartbeat, token refresh, session purge).
 */
export async function startAuth(config: AuthConfig, deps: { logger: Logger }): Promise<RunningService> {
  const { logger } = deps;
  registerConfigSecrets(config);
  if (usesLocalOnlySecrets(config)) logger.warn('using local development secrets (consumer secret, credentials key or CRM token); set them outside local development');

  const db = await AuthDatabase.open(config, logger, { migrationsDir: MIGRATIONS_DIR, applicationName: 'auth' });
  const parts = platformParts(config, db, logger);
  await parts.appCredentials.save(config.SOCIAL_ENV_NAME, { consumerKey: config.SOCIAL_CONSUMER_KEY, consumerSecret: config.SOCIAL_CONSUMER_SECRET });

  const broker = new Broker({ url: config.AMQP_URL, name: 'auth', logger, topology: config.BROKER_TOPOLOGY });
  const publisher = new Publisher(broker, SYSTEM_TOPOLOGY);
  const { relay, events } = db.announcements(publisher, logger);
  let port = 0;
  const publicUrl = () => (config.PUBLIC_URL ?? `http://127.0.0.1:${port}`).replace(/\/$/, '');
  const { webhooks, xaa, accountService, executor, refresher, sessions, meter, credit } = useCases(config, parts, events, logger, publicUrl);
  const check = oneCheckAtATime(webhooks, events);
  const { consumer, activityConsumer, silentConsumer, rpc } = consumeAndAnswer(broker, config, { executor, accountService, parts, sessions, replays: xaa.replays, logger });
  const access = accessControl({ ...accessSettings(config), verify: (token) => sessions.verify(token), pool: db.pool, logger, broker });

  const app = createHttpApp({
    logger,
    readiness: { broker: () => broker.isConnected(), database: () => db.isReachable() },
    openApi: { document: readOpenApiDocument(OPENAPI_DOCUMENT) },
    // An image for a DM, base64 in JSON: up to 8 MB of it, so that one over the platform's 5 MB is refused in words.
    largeBodies: [{ path: '/v1/accounts/:accountId/media', limit: '12mb' }],
    routes: authRoutes({ accounts: accountService, webhooks, executor, meter, sessions, agents: new AgentAdmin({ agents: db.agents, logger }), agentChanges: new AgentChangesService({ agents: db.agents, sessions: db.sessions, events, logger }), checkWebhooks: check.run, credit, logger, publicUrl, access: access.handlers, ...routeSettings(config) }),
  });
  relay.start(config.OUTBOX_RELAY_INTERVAL_MS);
  const server = await listen(app, config.PORT);
  port = portOf(server);
  logger.info('auth listening', { url: `http://127.0.0.1:${port}`, envName: config.SOCIAL_ENV_NAME, callback: `${publicUrl()}/v1/oauth/callback` });

  await noticeOutdatedScopes(accountService, logger);
  const periodicJobs = await startPeriodicJobs(config, { replays: xaa.replays, refresher, sessions, meter, checkWebhooks: () => check.run(), credit }, logger);

  return {
    server,
    port,
    pool: db.pool,
    webhooks,
    xaa,
    refresher,
    consumer,
    activityConsumer,
    silentConsumer,
    relay,
    sessions,
    meter,
    stop: async () => {
      for (const job of periodicJobs) await job.stop();
      await Promise.all([consumer.stop(), activityConsumer.stop(), silentConsumer.stop()]);
      await rpc.stop();
      await closeServer(server);
      await access.close();
      await check.settled();
      await relay.stop(); // what it has not relayed yet stays in the outbox for the next start
      await publisher.close();
      await broker.close();
      await db.end();
    },
  };
}
