import { randomBytes } from 'node:crypto';
import { closeServer, listen, portOf } from '@crm/http';
import amqplib from 'amqplib';
import axios, { type AxiosInstance } from 'axios';
import express from 'express';
import { Exchanges, validateEnvelope, type Envelope } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import { browserSession, capturingLogger, freshVirtualHost, migratedDatabase, simulators, waitFor, type TestDatabase, type TestVirtualHost } from '@crm/testing';
import { crcResponse, isPlausibleCrcToken } from '@crm/webhook-signature';
import { readConfig, type AuthConfig } from '../config';
import { MIGRATIONS_DIR, startAuth, type RunningService } from '../service';

/** A message auth published, as a test queue bound to its exchanges received it. */
export interface Published {
  exchange: string;
  routingKey: string;
  envelope: Envelope<Record<string, unknown>>;
}

/** A webhook for tests whose CRC answer can be switched between right and wrong. */
export interface SwitchableWebhook {
  url: string;
  crc: 'right' | 'wrong';
  deliveries: Buffer[];
  close: () => Promise<void>;
}

export async function startSwitchableWebhook(consumerSecret: string): Promise<SwitchableWebhook> {
  const app = express();
  const hook: SwitchableWebhook = { url: '', crc: 'right', deliveries: [], close: async () => undefined };
  app.get('/hook', (req, res) => {
    const token = req.query.crc_token;
    if (!isPlausibleCrcToken(token)) {
      res.status(400).end();
      return;
    }
    res.json(crcResponse(hook.crc === 'right' ? consumerSecret : `${consumerSecret}-wrong`, token));
  });
  app.post('/hook', express.raw({ type: () => true }), (req, res) => {
    hook.deliveries.push(req.body as Buffer);
    res.json({ ok: true });
  });
  const server = await listen(app, 0, '127.0.0.1');
  hook.url = `http://127.0.0.1:${portOf(server)}/hook`;
  hook.close = () => closeServer(server);
  return hook;
}

export interface HarnessOptions {
  prefix: string;
  /** The webhook URL auth registers; a switchable test webhook when not given. */
  webhookUrl?: (env: { vhost: TestVirtualHost; consumerSecret: string; envName: string; logger: Logger }) => Promise<{ url: string; close: () => Promise<void> }>;
  env?: Record<string, string>;
  /** Settings of the simulated platform beyond its secrets and webhook URL. */
  simulatorEnv?: Record<string, string>;
}

export interface Harness {
  auth: RunningService;
  config: AuthConfig;
  authUrl: string;
  simulatorUrl: string;
  vhost: TestVirtualHost;
  db: TestDatabase;
  logger: Logger;
  logLines: string[];
  secrets: { consumerKey: string; consumerSecret: string; oauth2ClientId: string; oauth2ClientSecret: string; crmToken: string; credentialsKey: string };
  /** The CRM's client of auth (bearer token set, every status answered). */
  crm: AxiosInstance;
  /** A client of the simulator's control API. */
  sim: AxiosInstance;
  /** Everything auth published on account.events and social.command-results so far. */
  published: Published[];
  /** The test webhook, when the harness made it. */
  webhook: SwitchableWebhook | null;
  /** Connects an account through the whole browser flow (OAuth 1.0a); returns its id. */
  connect: (user: string) => Promise<string>;
  /** Connects an account with OAuth 2.0 and PKCE through the whole browser flow (the platform's consent page); returns its id. */
  connectOAuth2: (user: string) => Promise<string>;
  /** Connects, registers the webhook (the first account is its owner) and subscribes. */
  connectAndSubscribe: (user: string) => Promise<string>;
  /** Stops auth and starts it again on the same settings and database (a restart after a crash, when its heartbeat was made old). */
  restartAuth: () => Promise<RunningService>;
  /** Requests the platform received at `path` (most recent first). */
  platformRequests: (path: string, method?: string) => Promise<PlatformRequestLogEntry[]>;
  waitForPublished: (routingKey: string, match?: (payload: Record<string, unknown>) => boolean) => Promise<Published>;
  stop: () => Promise<void>;
}

export interface PlatformRequestLogEntry {
  /** When the request was over (ISO 8601). */
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
  json: unknown;
  caller: { kind: string; userId?: string };
  /** null when auth gave up before the answer came. */
  status: number | null;
  rejection?: string;
}


/**
 * auth in-process against the simulated platform (in-process too, on port 0), a fresh
 * database and virtual host, and a queue catching what auth publishes.
 */
export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const secrets = {
    consumerKey: `key-${randomBytes(6).toString('hex')}`,
    consumerSecret: `consumer-secret-${randomBytes(12).toString('hex')}`,
    oauth2ClientId: `oauth2-client-${randomBytes(6).toString('hex')}`,
    oauth2ClientSecret: `oauth2-secret-${randomBytes(12).toString('hex')}`,
    crmToken: `crm-token-${randomBytes(12).toString('hex')}`,
    credentialsKey: randomBytes(32).toString('base64'),
  };
  const envName = 'test';
  const { logger, lines: logLines } = capturingLogger(options.prefix);
  const [db, vhost] = await Promise.all([migratedDatabase(options.prefix, MIGRATIONS_DIR), freshVirtualHost(options.prefix)]);
  const stops: (() => Promise<void>)[] = [];

  let webhook: SwitchableWebhook | null = null;
  let webhookUrl: string;
  if (options.webhookUrl) {
    const made = await options.webhookUrl({ vhost, consumerSecret: secrets.consumerSecret, envName, logger });
    webhookUrl = made.url;
    stops.push(made.close);
  } else {
    webhook = await startSwitchableWebhook(secrets.consumerSecret);
    webhookUrl = webhook.url;
    stops.push(webhook.close);
  }

  const simulator = await simulators().socialPlatform({
    // Test files register the Account Activity and X Activity webhooks side by side and subscribe
    // many accounts: above pay-per-use's 1 webhook and 3 subscriptions (the simulator's defaults).
    WEBHOOK_LIMIT: '2',
    AAA_SUBSCRIPTION_LIMIT: '100',
    WEBHOOK_HTTP_ALLOWED: 'true',
    SOCIAL_CONSUMER_KEY: secrets.consumerKey,
    SOCIAL_CONSUMER_SECRET: secrets.consumerSecret,
    SOCIAL_OAUTH2_CLIENT_ID: secrets.oauth2ClientId,
    SOCIAL_OAUTH2_CLIENT_SECRET: secrets.oauth2ClientSecret,
    SOCIAL_ENV_NAME: envName,
    WEBHOOK_URL: webhookUrl,
    ...options.simulatorEnv,
  }, logger);
  const simulatorUrl = simulator.url;

  const config = readConfig({
    NODE_ENV: 'production',
    PORT: '0',
    AMQP_URL: vhost.url,
    DATABASE_URL: db.url,
    SOCIAL_API_URL: simulatorUrl,
    SOCIAL_CONSUMER_KEY: secrets.consumerKey,
    SOCIAL_CONSUMER_SECRET: secrets.consumerSecret,
    SOCIAL_OAUTH2_CLIENT_ID: secrets.oauth2ClientId,
    SOCIAL_OAUTH2_CLIENT_SECRET: secrets.oauth2ClientSecret,
    SOCIAL_ENV_NAME: envName,
    PUBLIC_WEBHOOK_URL: webhookUrl,
    CREDENTIALS_KEY: secrets.credentialsKey,
    CRM_API_TOKENS: secrets.crmToken,
    WEBHOOK_CHECK_INTERVAL_MS: '0',
    // The test webhooks are plain http on a port, as the local stack's.
    WEBHOOK_URL_LOCAL_ALLOWED: 'true',
    ...options.env,
  });
  let auth = await startAuth(config, { logger });
  const authUrl = `http://127.0.0.1:${auth.port}`;

  // Catch what auth publishes, on a queue of our own bound to its exchanges.
  const published: Published[] = [];
  const connection = await amqplib.connect(vhost.url);
  const channel = await connection.createChannel();
  const { queue } = await channel.assertQueue('', { exclusive: true });
  for (const exchange of [Exchanges.accountEvents, Exchanges.socialCommandResults]) {
    await channel.assertExchange(exchange, 'topic', { durable: true });
    await channel.bindQueue(queue, exchange, '#');
  }
  await channel.consume(
    queue,
    (message) => {
      if (!message) return;
      const envelope = validateEnvelope(JSON.parse(message.content.toString('utf8'))) as Envelope<Record<string, unknown>>;
      published.push({ exchange: message.fields.exchange, routingKey: message.fields.routingKey, envelope });
    },
    { noAck: true },
  );

  const crm = axios.create({ baseURL: authUrl, validateStatus: () => true, maxRedirects: 0, headers: { authorization: `Bearer ${secrets.crmToken}` } });
  const sim = axios.create({ baseURL: simulatorUrl, validateStatus: () => true });

  async function connect(user: string): Promise<string> {
    const started = await crm.post('/v1/connections');
    if (started.status !== 201) throw new Error(`POST /v1/connections answered ${started.status}: ${JSON.stringify(started.data)}`);
    // What a browser does: open the start link (bound by a cookie), the authorize page, submit its form, follow the redirect to the callback.
    const http = browserSession();
    const opened = await http.get(started.data.authorizeUrl as string);
    if (opened.status !== 303) throw new Error(`the start link answered ${opened.status}`);
    const authorizeUrl = new URL(String(opened.headers.location));
    const page = await http.get<string>(authorizeUrl.toString());
    const token = /name="oauth_token" value="([^"]+)"/.exec(page.data)?.[1];
    const action = /<form method="post" action="([^"]+)"/.exec(page.data)?.[1];
    if (!token || !action) throw new Error(`the authorize page has no form: ${page.status}`);
    const approved = await http.post(new URL(action, authorizeUrl).toString(), new URLSearchParams({ oauth_token: token, user, decision: 'approve' }).toString(), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    if (approved.status !== 302) throw new Error(`approving answered ${approved.status}`);
    const callback = await http.get(String(approved.headers.location));
    if (callback.status !== 303) throw new Error(`the callback answered ${callback.status}: ${String(callback.data)}`);
    const done = new URL(String(callback.headers.location));
    const accountId = done.searchParams.get('accountId');
    if (!accountId) throw new Error('the callback redirect has no accountId');
    return accountId;
  }

  async function connectOAuth2(user: string): Promise<string> {
    const started = await crm.post('/v1/connections', undefined, { params: { protocol: 'oauth2' } });
    if (started.status !== 201) throw new Error(`POST /v1/connections answered ${started.status}: ${JSON.stringify(started.data)}`);
    // What a browser does: open the start link, the consent page, submit its form (its fields are the authorize request's), follow the redirect to the callback.
    const http = browserSession();
    const opened = await http.get(started.data.authorizeUrl as string);
    if (opened.status !== 303) throw new Error(`the start link answered ${opened.status}`);
    const consentUrl = new URL(String(opened.headers.location));
    const page = await http.get<string>(consentUrl.toString());
    const action = /<form method="post" action="([^"]+)"/.exec(page.data)?.[1];
    if (page.status !== 200 || !action) throw new Error(`the consent page has no form: ${page.status} ${String(page.data)}`);
    const form = new URLSearchParams({ ...Object.fromEntries(consentUrl.searchParams), user, decision: 'approve' });
    const approved = await http.post(new URL(action, consentUrl).toString(), form.toString(), { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    if (approved.status !== 302) throw new Error(`approving answered ${approved.status}`);
    const callback = await http.get(String(approved.headers.location));
    if (callback.status !== 303) throw new Error(`the callback answered ${callback.status}: ${String(callback.data)}`);
    const accountId = new URL(String(callback.headers.location)).searchParams.get('accountId');
    if (!accountId) throw new Error('the callback redirect has no accountId');
    return accountId;
  }

  let webhookRegistered = false;
  async function connectAndSubscribe(user: string): Promise<string> {
    const accountId = await connect(user);
    if (!webhookRegistered) {
      const registered = await crm.post('/v1/webhooks', { ownerAccountId: accountId });
      if (registered.status !== 201) throw new Error(`registering the webhook answered ${registered.status}: ${JSON.stringify(registered.data)}`);
      webhookRegistered = true;
    }
    const subscribed = await crm.put(`/v1/accounts/${accountId}/subscription`);
    if (subscribed.status !== 200) throw new Error(`subscribing answered ${subscribed.status}: ${JSON.stringify(subscribed.data)}`);
    return accountId;
  }

  async function platformRequests(path: string, method?: string): Promise<PlatformRequestLogEntry[]> {
    const res = await sim.get('/control/platform/requests', { params: { path, ...(method ? { method } : {}) } });
    return res.data.items as PlatformRequestLogEntry[];
  }

  async function waitForPublished(routingKey: string, match: (payload: Record<string, unknown>) => boolean = () => true): Promise<Published> {
    const found = await waitFor(() => published.find((p) => p.routingKey === routingKey && match(p.envelope.payload)), { what: `a message with routing key ${routingKey}` });
    return found!;
  }

  const harness: Harness = {
    auth,
    config,
    authUrl,
    simulatorUrl,
    vhost,
    db,
    logger,
    logLines,
    secrets,
    crm,
    sim,
    published,
    webhook,
    connect,
    connectOAuth2,
    connectAndSubscribe,
    restartAuth: async () => {
      await auth.stop();
      auth = await startAuth({ ...config, PORT: auth.port }, { logger });
      harness.auth = auth;
      return auth;
    },
    platformRequests,
    waitForPublished,
    stop: async () => {
      await auth.stop();
      await simulator.close();
      for (const stop of stops) await stop();
      await connection.close();
      await Promise.all([db.drop(), vhost.drop()]);
    },
  };
  return harness;
}
