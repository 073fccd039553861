import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import axios, { type AxiosInstance } from 'axios';
import { readConfig as readAuthConfig } from '@crm/auth/src/config';
import { startAuth } from '@crm/auth/src/service';
import { closeServer, listen, portOf } from '@crm/http';
import { createSimulatorApp } from '@crm/social-platform-simulator/src/app';
import { loadSimulatorConfig } from '@crm/social-platform-simulator/src/config';
import { freshDatabase, testLogger, type TestDatabase } from '@crm/testing';
import { loadTicketingConfig } from '@crm/ticketing/src/config';
import { startTicketing, type RunningTicketing } from '@crm/ticketing/src/service';
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
  stop: () => Promise<void>;
}

const client = (baseURL: string, token?: string) => axios.create({ baseURL, validateStatus: () => true, headers: token ? { authorization: `Bearer ${token}` } : {} });

async function startSocialSide(amqpUrl: string, databases: TestDatabase[], stops: (() => Promise<void>)[], consoleUrl: string) {
  const logger = testLogger('console-stack');
  const secret = `console-consumer-secret-${randomBytes(8).toString('hex')}`;
  const common = { NODE_ENV: 'test', PORT: '0', AMQP_URL: amqpUrl, LOG_LEVEL: 'warn' };
  const ingest = await startWebhookIngest(readIngestConfig(common), { logger });
  stops.unshift(ingest.stop);
  const webhookUrl = `http://127.0.0.1:${ingest.port}/webhooks/${ENV_NAME}`;
  const simulatorConfig = loadSimulatorConfig({ PORT: '0', SOCIAL_CONSUMER_KEY: 'console-key', SOCIAL_CONSUMER_SECRET: secret, SOCIAL_ENV_NAME: ENV_NAME, WEBHOOK_URL: webhookUrl });
  const simulator: Server = await listen(createSimulatorApp({ config: simulatorConfig, logger }), 0, '127.0.0.1');
  stops.push(() => closeServer(simulator));
  const socialUrl = `http://127.0.0.1:${portOf(simulator)}`;
  const auth = await startAuth(
    readAuthConfig({
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
    }),
    { logger },
  );
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
    }),
    { logger, host: '127.0.0.1' },
  );
  stops.unshift(ticketing.stop);
  return { authUrl: `http://127.0.0.1:${auth.port}`, ticketingUrl: `http://127.0.0.1:${ticketing.port}`, socialUrl, ticketing };
}

/** A free port, so the console's own address is known before auth (which redirects to it) starts. */
async function freePort(): Promise<number> {
  const probe = await listen((await import('express')).default(), 0, '127.0.0.1');
  const port = portOf(probe);
  await closeServer(probe);
  return port;
}

export async function startConsoleStack(env: Record<string, string> = {}): Promise<ConsoleStack> {
  const webDir = buildWebOnce();
  const tracking = await startTrackingStack({ router: true, env: { TASK_CACHE_TTL_MS: '200', BREAKER_RESET_MS: '500', CRM_API_TOKENS: `${TRACKING_TEST_TOKEN},${CRM_TOKEN}` } });
  const databases: TestDatabase[] = [];
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops) await stop().catch(() => undefined);
    await Promise.all(databases.map((db) => db.drop().catch(() => undefined)));
    await tracking.stop();
  };
  try {
    databases.push(...(await Promise.all([freshDatabase('console_auth'), freshDatabase('console_ticketing')])));
    const port = await freePort();
    const urls = await startSocialSide(tracking.amqpUrl, databases, stops, `http://127.0.0.1:${port}`);
    const running = await startConsole(consoleConfig(port, urls, `http://127.0.0.1:${tracking.service.port}`, webDir, env), { logger: testLogger('console'), host: '127.0.0.1', nodeEnv: 'test' });
    stops.unshift(running.stop);
    return {
      console: running,
      tracking,
      ticketing: client(urls.ticketingUrl, CRM_TOKEN),
      ticketingService: urls.ticketing,
      auth: client(urls.authUrl, CRM_TOKEN),
      social: client(urls.socialUrl),
      stop: stopAll,
    };
  } catch (error) {
    // Whatever started is stopped, so a failed start leaves nothing running.
    await stopAll();
    throw error;
  }
}

function consoleConfig(port: number, urls: { ticketingUrl: string; authUrl: string }, trackingUrl: string, webDir: string, env: Record<string, string>) {
  return readConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    TICKETING_URL: urls.ticketingUrl,
    AUTH_URL: urls.authUrl,
    TRACKING_URL: trackingUrl,
    SERVICE_TOKEN: CRM_TOKEN,
    CRM_API_TOKENS: CRM_TOKEN,
    SESSION_SECRET: randomBytes(32).toString('base64'),
    MAP_REFRESH_MS: '1000',
    POLL_INTERVAL_MS: '1000',
    WEB_DIR: webDir,
    ...env,
  });
}
