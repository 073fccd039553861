/**
 * The four services in this process on loopback, as the tests start them: a fresh virtual
 * host, fresh databases (dropped at the end), both simulators, real auth behind
 * webhook-ingest's key lookups.
 */
import { randomBytes } from 'node:crypto';
import type { RequestListener, Server } from 'node:http';
import { createLogger, type Logger } from '../../../libs/logging/src';
import { ensureDatabase } from '../../../libs/db/src';
import { closeServer, listen, portOf } from '../../../libs/http/src';
import { freshVirtualHost, testPool, type TestVirtualHost } from '@crm/testing';
import { createSimulatorApp } from '../../simulators/social-platform/src/app';
import { loadSimulatorConfig } from '../../simulators/social-platform/src/config';
import { createTrackingSimulatorApp } from '../../simulators/tracking-provider/src/app';
import { loadSimulatorConfig as loadTrackingSimulatorConfig } from '../../simulators/tracking-provider/src/config';
import { readConfig as readAuthConfig } from '../../../services/auth/src/config';
import { startAuth } from '../../../services/auth/src/service';
import { loadTicketingConfig } from '../../../services/ticketing/src/config';
import { startTicketing } from '../../../services/ticketing/src/service';
import { readConfig as readTrackingConfig } from '../../../services/tracking/src/config';
import { startTracking } from '../../../services/tracking/src/service';
import { readConfig as readIngestConfig } from '../../../services/webhook-ingest/src/config';
import { startWebhookIngest } from '../../../services/webhook-ingest/src/service';
import { readConfig as readConsoleConfig } from '../../../services/console/src/config';
import { startConsole } from '../../../services/console/src/service';
import { ssrfTargets, startCanary, type Canary, type SsrfTarget } from './ssrf';

export type ServiceName = 'webhook-ingest' | 'ticketing' | 'auth' | 'tracking';

export interface Target {
  service: ServiceName;
  port: number;
  /** The express app answering (its routes are what gets fuzzed). */
  app: RequestListener & { router?: unknown };
}

export interface FuzzStack {
  targets: Target[];
  /** The CRM bearer token of every service. */
  token: string;
  /** The consumer secret deliveries are signed with, and its environment. */
  consumerSecret: string;
  envName: string;
  /** Listens on loopback where the SSRF targets point: it must hear nothing. */
  canary: Canary;
  /** Internal URLs a webhook endpoint must not reach (ssrf.ts). */
  ssrfTargets: SsrfTarget[];
  /** The console (its API; the rights round signs a tenant in there). */
  consolePort: number;
  /** auth's database: the rights round makes a tenant's credential there, as auth's CLI does. */
  authDatabaseUrl: string;
  stop: () => Promise<void>;
}

export interface StackOptions {
  /** Database names start with it (`<prefix>_<service>_<random>`). */
  dbPrefix: string;
  /** First port of the services and simulators; 0: the system picks. */
  basePort: number;
  logLevel: string;
}

async function freshDatabase(adminUrl: string, name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await ensureDatabase(url.toString());
  return {
    url: url.toString(),
    drop: async () => {
      const admin = testPool(adminUrl);
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

const port = (options: StackOptions, offset: number) => String(options.basePort === 0 ? 0 : options.basePort + offset);
/** The Express app behind a server: its hot routes sit in front of it, and its router lists every route. */
const appOf = (server: Server) => {
  const listener = server.listeners('request')[0] as Target['app'] & { expressApp?: Target['app'] };
  return listener.expressApp ?? listener;
};

async function simulators(options: StackOptions, consumerSecret: string, envName: string, logger: Logger, stops: (() => Promise<void>)[]) {
  const social = await listen(
    createSimulatorApp({ config: loadSimulatorConfig({ SOCIAL_CONSUMER_KEY: 'fuzz-consumer-key', SOCIAL_CONSUMER_SECRET: consumerSecret, SOCIAL_ENV_NAME: envName, WEBHOOK_URL: 'http://127.0.0.1:9/', WEBHOOK_HTTP_ALLOWED: 'true' }), logger }),
    Number(port(options, 11)),
    '127.0.0.1',
  );
  stops.unshift(() => closeServer(social));
  const tracking = await listen(createTrackingSimulatorApp({ config: loadTrackingSimulatorConfig({ SIM_CLIENTS: 'demo:fuzz-demo-key,other:fuzz-other-key', PUBLIC_URL: 'http://sim.test' }), logger }), Number(port(options, 12)), '127.0.0.1');
  stops.unshift(() => closeServer(tracking));
  return { socialUrl: `http://127.0.0.1:${portOf(social)}`, socialPort: portOf(social), trackingUrl: `http://127.0.0.1:${portOf(tracking)}` };
}

type CommonEnv = Record<string, string>;

/** auth against the social simulator, its webhook checks off. */
function startFuzzAuth(
  at: { options: StackOptions; common: CommonEnv; databaseUrl: string; socialUrl: string; consumerSecret: string; envName: string; credentialsKey: string },
  logger: Logger,
) {
  return startAuth(
    readAuthConfig({
      ...at.common,
      PORT: port(at.options, 3),
      DATABASE_URL: at.databaseUrl,
      SOCIAL_API_URL: at.socialUrl,
      SOCIAL_CONSUMER_KEY: 'fuzz-consumer-key',
      SOCIAL_CONSUMER_SECRET: at.consumerSecret,
      SOCIAL_OAUTH2_CLIENT_ID: 'oauth2-client-id',
      SOCIAL_OAUTH2_CLIENT_SECRET: 'oauth2-client-secret',
      SOCIAL_ENV_NAME: at.envName,
      PUBLIC_WEBHOOK_URL: `http://127.0.0.1:9/webhooks/${at.envName}`,
      WEBHOOK_URL_LOCAL_ALLOWED: 'true', // the local stack's plain-http webhook
      CREDENTIALS_KEY: at.credentialsKey,
      WEBHOOK_CHECK_INTERVAL_MS: '0',
    }),
    { logger },
  );
}

/** The console over the started services, in production mode on plain http. */
function startFuzzConsole(options: StackOptions, common: CommonEnv, ports: { ticketing: number; auth: number; tracking: number }, token: string, logger: Logger) {
  return startConsole(
    readConsoleConfig({
      ...common,
      PORT: port(options, 5),
      TICKETING_URL: `http://127.0.0.1:${ports.ticketing}`,
      AUTH_URL: `http://127.0.0.1:${ports.auth}`,
      TRACKING_URL: `http://127.0.0.1:${ports.tracking}`,
      SERVICE_TOKEN: token,
      SESSION_SECRET: randomBytes(32).toString('base64'),
      COOKIE_SECURE: 'false',
    }),
    { logger, host: '127.0.0.1', nodeEnv: 'production' },
  );
}

export async function startFuzzStack(options: StackOptions): Promise<FuzzStack> {
  const logger = createLogger('fuzz-stack', options.logLevel);
  const stops: (() => Promise<void>)[] = [];
  const token = `fuzz-token-${randomBytes(12).toString('hex')}`;
  const consumerSecret = `fuzz-secret-${randomBytes(12).toString('hex')}`;
  const envName = 'fuzz';
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  try {
    const vhost: TestVirtualHost = await freshVirtualHost('fuzz');
    stops.unshift(vhost.drop);
    const suffix = randomBytes(4).toString('hex');
    const [authDb, ticketingDb, trackingDb] = await Promise.all(['auth', 'ticketing', 'tracking'].map((s) => freshDatabase(adminUrl, `${options.dbPrefix}_${s}_${suffix}`)));
    stops.unshift(authDb!.drop, ticketingDb!.drop, trackingDb!.drop);
    const sims = await simulators(options, consumerSecret, envName, logger, stops);
    const canary = await startCanary(Number(port(options, 13)));
    stops.unshift(canary.close);
    const common = { NODE_ENV: 'production', AMQP_URL: vhost.url, LOG_LEVEL: options.logLevel, CRM_API_TOKENS: token };
    const credentialsKey = randomBytes(32).toString('base64');
    const auth = await startFuzzAuth({ options, common, databaseUrl: authDb!.url, socialUrl: sims.socialUrl, consumerSecret, envName, credentialsKey }, logger);
    stops.unshift(auth.stop);
    const ingest = await startWebhookIngest(readIngestConfig({ ...common, PORT: port(options, 1) }), { logger });
    stops.unshift(ingest.stop);
    // CRM webhooks on (a sealing key), with quick attempts: the SSRF cases register endpoints and wait for their deliveries to fail.
    const webhooks = { WEBHOOK_SECRETS_KEY: credentialsKey, WEBHOOK_RETRY_DELAYS_MS: '20', WEBHOOK_INTERVAL_MS: '50', WEBHOOK_TIMEOUT_MS: '2000' };
    const ticketing = await startTicketing(loadTicketingConfig({ ...common, ...webhooks, PORT: port(options, 2), DATABASE_URL: ticketingDb!.url }), { logger });
    stops.unshift(ticketing.stop);
    const tracking = await startTracking(
      readTrackingConfig({ ...common, PORT: port(options, 4), DATABASE_URL: trackingDb!.url, TRACKING_API_URL: sims.trackingUrl, CREDENTIALS_KEY: credentialsKey, PROVIDER_READ_RETRIES: '0' }),
      { logger },
    );
    stops.unshift(tracking.stop);
    const consoleApp = await startFuzzConsole(options, common, { ticketing: ticketing.port, auth: auth.port, tracking: tracking.port }, token, logger);
    stops.unshift(consoleApp.stop);
    const targets: Target[] = [
      { service: 'webhook-ingest', port: ingest.port, app: appOf(ingest.server) },
      { service: 'ticketing', port: ticketing.port, app: appOf(ticketing.server) },
      { service: 'auth', port: auth.port, app: appOf(auth.server) },
      { service: 'tracking', port: tracking.port, app: appOf(tracking.server) },
    ];
    return { targets, token, consumerSecret, envName, canary, ssrfTargets: ssrfTargets(canary.port, sims.socialPort), consolePort: consoleApp.port, authDatabaseUrl: authDb!.url, stop: () => runAll(stops) };
  } catch (error) {
    await runAll(stops);
    throw error;
  }
}

async function runAll(steps: (() => Promise<void>)[]): Promise<void> {
  for (const step of steps) await step().catch(() => undefined);
}
