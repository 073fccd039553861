import { randomBytes } from 'node:crypto';
import axios, { type AxiosInstance } from 'axios';
import { runCredentialsCli } from '@crm/auth/src/cli-credentials';
import { readConfig as readAuthConfig, type AuthConfig } from '@crm/auth/src/config';
import { MIGRATIONS_DIR as AUTH_MIGRATIONS, startAuth } from '@crm/auth/src/service';
import type { Page } from 'playwright-core';
import { freePort, migratedDatabase, simulators, testLogger, waitFor, type TestDatabase } from '@crm/testing';
import { loadTicketingConfig } from '@crm/ticketing/src/config';
import { MIGRATIONS_DIR as TICKETING_MIGRATIONS, startTicketing, type RunningTicketing } from '@crm/ticketing/src/service';
import { startStack as startTrackingStack, TOKEN as TRACKING_TEST_TOKEN, type TrackingStack } from '@crm/tracking/src/testing/stack';
import { readConfig as readIngestConfig } from '@crm/webhook-ingest/src/config';
import { startWebhookIngest } from '@crm/webhook-ingest/src/service';
import { readConfig } from '../config';
import { startConsole, type RunningConsole } from '../service';
import { buildWebOnce } from '../web-build';

const ENV_NAME = 'console';
export const CRM_TOKEN = `console-crm-token-${randomBytes(8).toString('hex')}`;

/** Every part the console talks to, in this process on port 0, with the console itself. */
export interface ConsoleStack {
  console: RunningConsole;
  tracking: TrackingStack;
  /** ticketing, auth and the social platform simulator, with the CRM token where one is needed. */
  ticketing: AxiosInstance;
  /** ticketing itself: its pool (the raw log) and its silence alarm's `silenceChecks.runNow()`. */
  ticketingService: RunningTicketing;
  auth: AxiosInstance;
  social: AxiosInstance;
  /** auth's API credentials, as its CLI makes and revokes them. */
  credentials: Credentials;
  stop: () => Promise<void>;
}

export interface Credentials {
  create(spec: { name: string; scopes: string[]; accountIds?: string[]; trackingClientIds?: string[] }): Promise<{ id: string; token: string }>;
  /** `cli credentials revoke <id>`: revokes it; the running auth announces it on access.events. */
  revoke(id: string): Promise<void>;
}

/** Settings of the console and of the services behind it (rate limits, failure limits). */
export interface StackOptions {
  console?: Record<string, string>;
  auth?: Record<string, string>;
  ticketing?: Record<string, string>;
  /** tracking's (how often it looks at followed tasks, ...). */
  tracking?: Record<string, string>;
}

function credentialsOf(authConfig: AuthConfig): Credentials {
  const cli = async (args: string[]) => {
    const out: string[] = [];
    const code = await runCredentialsCli(args, authConfig, testLogger('auth-cli'), { out: (line) => out.push(line), err: (line) => out.push(line) });
    if (code !== 0) throw new Error(`credentials ${args.join(' ')} failed: ${out.join('\n')}`);
    return JSON.parse(out.join('\n')) as Record<string, unknown>;
  };
  return {
    async create({ name, scopes, accountIds, trackingClientIds }) {
      const args = ['create', '--name', name, '--scopes', scopes.join(',')];
      if (accountIds) args.push('--accounts', accountIds.join(','));
      if (trackingClientIds) args.push('--tracking-clients', trackingClientIds.join(','));
      const created = await cli(args);
      return { id: String(created.id), token: String(created.token) };
    },
    async revoke(id) {
      const revoked = await cli(['revoke', id]);
      if (revoked.revoked !== true) throw new Error(`${id} was not revoked`);
    },
  };
}

const client = (baseURL: string, token?: string) => axios.create({ baseURL, validateStatus: () => true, headers: token ? { authorization: `Bearer ${token}` } : {} });

async function startSocialSide(amqpUrl: string, databases: TestDatabase[], stops: (() => Promise<void>)[], consoleUrl: string, options: StackOptions) {
  const logger = testLogger('console-stack');
  const secret = `console-consumer-secret-${randomBytes(8).toString('hex')}`;
  const common = { NODE_ENV: 'test', PORT: '0', AMQP_URL: amqpUrl, LOG_LEVEL: 'warn' };
  const ingest = await startWebhookIngest(readIngestConfig(common), { logger });
  stops.unshift(ingest.stop);
  const webhookUrl = `http://127.0.0.1:${ingest.port}/webhooks/${ENV_NAME}`;
  // webhook-ingest listens on plain http here.
  const simulator = await simulators().socialPlatform({ PORT: '0', SOCIAL_CONSUMER_KEY: 'console-key', SOCIAL_CONSUMER_SECRET: secret, SOCIAL_ENV_NAME: ENV_NAME, WEBHOOK_URL: webhookUrl, WEBHOOK_HTTP_ALLOWED: 'true' }, logger);
  stops.push(simulator.close);
  const socialUrl = simulator.url;
  const authConfig = readAuthConfig({
      ...common,
      DATABASE_URL: databases[0]!.url,
      SOCIAL_API_URL: socialUrl,
      SOCIAL_CONSUMER_KEY: 'console-key',
      SOCIAL_CONSUMER_SECRET: secret,
      SOCIAL_ENV_NAME: ENV_NAME,
      PUBLIC_WEBHOOK_URL: webhookUrl,
      CREDENTIALS_KEY: randomBytes(32).toString('base64'),
      CRM_API_TOKENS: CRM_TOKEN,
      CRM_CONNECTED_URL: `${consoleUrl}/accounts`,
      WEBHOOK_CHECK_INTERVAL_MS: '0',
      ...options.auth,
    });
  const auth = await startAuth(authConfig, { logger });
  stops.unshift(auth.stop);
  const ticketing = await startTicketing(
    loadTicketingConfig({
      ...common,
      DATABASE_URL: databases[1]!.url,
      CRM_API_TOKENS: CRM_TOKEN,
      TRACKING_READ_WAIT_MS: '500',
      // The silence alarm checks when a test asks (silenceChecks.runNow()), and a few deliveries make an account one that usually gets them.
      SILENCE_CHECK_INTERVAL_MS: '3600000',
      SILENCE_MIN_DELIVERIES: '3',
      ...options.ticketing,
    }),
    { logger, host: '127.0.0.1' },
  );
  stops.unshift(ticketing.stop);
  return { authUrl: `http://127.0.0.1:${auth.port}`, ticketingUrl: `http://127.0.0.1:${ticketing.port}`, socialUrl, ticketing, authConfig };
}

/**
 * The stack, with the console holding a credential of scope sessions:issue only (made in auth's
 * store, as `pnpm start` does): everything else it does, it does with the agent's session.
 */
export async function startConsoleStack(options: StackOptions = {}): Promise<ConsoleStack> {
  const webDir = buildWebOnce();
  const tracking = await startTrackingStack({ router: true, env: { TASK_CACHE_TTL_MS: '200', BREAKER_RESET_MS: '500', CRM_API_TOKENS: `${TRACKING_TEST_TOKEN},${CRM_TOKEN}`, ...options.tracking } });
  const databases: TestDatabase[] = [];
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops) await stop().catch(() => undefined);
    await Promise.all(databases.map((db) => db.drop().catch(() => undefined)));
    await tracking.stop();
  };
  try {
    databases.push(...(await Promise.all([migratedDatabase('console_auth', AUTH_MIGRATIONS), migratedDatabase('console_ticketing', TICKETING_MIGRATIONS)])));
    // The console's own address is known before auth (which redirects to it) starts.
    const port = await freePort();
    const urls = await startSocialSide(tracking.amqpUrl, databases, stops, `http://127.0.0.1:${port}`, options);
    const credentials = credentialsOf(urls.authConfig);
    const consoleCredential = await credentials.create({ name: 'console', scopes: ['sessions:issue'] });
    const running = await startConsole(consoleConfig(port, urls, consoleCredential.token, webDir, options.console ?? {}), { logger: testLogger('console'), host: '127.0.0.1', nodeEnv: 'test' });
    stops.unshift(running.stop);
    return {
      console: running,
      tracking,
      ticketing: client(urls.ticketingUrl, CRM_TOKEN),
      ticketingService: urls.ticketing,
      auth: client(urls.authUrl, CRM_TOKEN),
      social: client(urls.socialUrl),
      credentials,
      stop: stopAll,
    };
  } catch (error) {
    // Whatever started is stopped, so a failed start leaves nothing running.
    await stopAll();
    throw error;
  }
}

function consoleConfig(port: number, urls: { ticketingUrl: string; authUrl: string }, serviceToken: string, webDir: string, env: Record<string, string>) {
  return readConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    TICKETING_URL: urls.ticketingUrl,
    AUTH_URL: urls.authUrl,
    SERVICE_TOKEN: serviceToken,
    CRM_API_TOKENS: CRM_TOKEN,
    SESSION_SECRET: randomBytes(32).toString('base64'),
    MAP_REFRESH_MS: '1000',
    POLL_INTERVAL_MS: '1000',
    WEB_DIR: webDir,
    ...env,
  });
}

/**
 * Connects `screenName` with OAuth 1.0a as an agent does, through the console's Accounts page and
 * the simulator's consent page (every browser protection on), then registers the webhook and
 * subscribes the account; resolves with its id once ticketing knows it as connected.
 */
export async function connectAccountThroughPages(page: Page, stack: ConsoleStack, screenName: string): Promise<string> {
  await page.goto(`${stack.console.url}/accounts`);
  await page.getByRole('button', { name: 'Connect with OAuth 1.0a' }).click();
  await page.waitForURL(/\/oauth\/authorize\?oauth_token=/);
  await page.locator('input[name="user"]').fill(screenName);
  await page.getByRole('button', { name: 'Authorize app' }).click();
  await page.waitForURL(/\/accounts\?/);
  const accountId = new URL(page.url()).searchParams.get('accountId')!;
  expect((await stack.auth.post('/v1/webhooks', { ownerAccountId: accountId })).status).toBe(201);
  expect((await stack.auth.put(`/v1/accounts/${accountId}/subscription`)).status).toBe(200);
  await waitFor(async () => (await stack.ticketing.get(`/v1/accounts/${accountId}`)).data?.status === 'connected', { what: 'ticketing to know the account' });
  return accountId;
}
