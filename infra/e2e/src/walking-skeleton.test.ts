/**
 * The whole path on the real RabbitMQ and PostgreSQL: the social platform simulator sends a
 * signed DM delivery to webhook-ingest, which gets the key from auth and publishes it;
 * ticketing turns it into a ticket, read back through the CRM API.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import axios from 'axios';
import { readConfig as readAuthConfig } from '@crm/auth/src/config';
import { startAuth } from '@crm/auth/src/service';
import { ACTIVITY_PARTITION_QUEUES } from '@crm/contracts';
import { closeServer, listen, portOf } from '@crm/http';
import { createSimulatorApp } from '@crm/social-platform-simulator/src/app';
import { loadSimulatorConfig } from '@crm/social-platform-simulator/src/config';
import { capturingLogger, freshDatabase, freshVirtualHost, waitFor, type TestDatabase, type TestVirtualHost } from '@crm/testing';
import { loadTicketingConfig } from '@crm/ticketing/src/config';
import { startTicketing, type RunningTicketing } from '@crm/ticketing/src/service';
import { readConfig as readIngestConfig } from '@crm/webhook-ingest/src/config';
import { startWebhookIngest } from '@crm/webhook-ingest/src/service';

const CONSUMER_SECRET = `e2e-secret-${randomBytes(12).toString('hex')}`;
const CRM_TOKEN = `e2e-token-${randomBytes(12).toString('hex')}`;
const ACCOUNT = '1001';
const { logger, lines: logLines } = capturingLogger('e2e');

let vhost: TestVirtualHost;
let databases: TestDatabase[];
let ticketing: RunningTicketing;
let simulator: Server;
const stops: (() => Promise<void>)[] = [];
const http = axios.create({ validateStatus: () => true });
let simulatorUrl: string;
let ticketingUrl: string;
/** Each service's base URL, for /metrics. */
const serviceUrls: Record<string, string> = {};

const crm = (path: string) => http.get(`${ticketingUrl}${path}`, { headers: { authorization: `Bearer ${CRM_TOKEN}` } });
const sendDm = (body: Record<string, unknown>) => http.post(`${simulatorUrl}/control/direct-messages`, { to: ACCOUNT, ...body });

interface TicketJson {
  id: string;
  contact: { screenName: string };
  activities: { text: string; platformEventId: string; direction: string }[];
}

async function ticketsOf(screenName: string): Promise<TicketJson[]> {
  const res = await crm(`/v1/tickets?accountId=${ACCOUNT}`);
  const items = (res.data.items as TicketJson[]).filter((t) => t.contact.screenName === screenName);
  return Promise.all(items.map(async (t) => (await crm(`/v1/tickets/${t.id}`)).data as TicketJson));
}

/** Sends a DM from a fresh customer and waits for its ticket: everything sent before it has been handled. */
async function drain(): Promise<void> {
  const marker = `marker${randomBytes(3).toString('hex')}`;
  expect((await sendDm({ from: `@${marker}`, text: 'marker' })).data.webhookStatus).toBe(200);
  await waitFor(async () => (await ticketsOf(marker)).length === 1, { what: 'marker ticket' });
  await waitFor(() => ticketing.consumer.inFlightCount === 0, { what: 'idle consumer' });
}

beforeAll(async () => {
  vhost = await freshVirtualHost('e2e');
  databases = await Promise.all([freshDatabase('e2e_auth'), freshDatabase('e2e_ticketing')]);
  const [authDb, ticketingDb] = databases as [TestDatabase, TestDatabase];
  const common = { NODE_ENV: 'production', PORT: '0', AMQP_URL: vhost.url, LOG_LEVEL: 'debug' };

  const auth = await startAuth(
    readAuthConfig({
      ...common,
      DATABASE_URL: authDb.url,
      SOCIAL_API_URL: 'http://127.0.0.1:9',
      SOCIAL_CONSUMER_KEY: 'e2e-consumer-key',
      SOCIAL_CONSUMER_SECRET: CONSUMER_SECRET,
      SOCIAL_OAUTH2_CLIENT_ID: 'oauth2-client-id',
      SOCIAL_OAUTH2_CLIENT_SECRET: 'oauth2-client-secret',
      SOCIAL_ENV_NAME: 'e2e',
      PUBLIC_WEBHOOK_URL: 'http://127.0.0.1:9/webhooks/e2e',
      CREDENTIALS_KEY: randomBytes(32).toString('base64'),
      CRM_API_TOKENS: CRM_TOKEN,
    }),
    { logger },
  );
  stops.unshift(auth.stop);
  serviceUrls.auth = `http://127.0.0.1:${auth.port}`;
  const ingest = await startWebhookIngest(readIngestConfig(common), { logger });
  stops.unshift(ingest.stop);
  serviceUrls['webhook-ingest'] = `http://127.0.0.1:${ingest.port}`;
  ticketing = await startTicketing(loadTicketingConfig({ ...common, DATABASE_URL: ticketingDb.url, CRM_API_TOKENS: CRM_TOKEN }), { logger });
  stops.unshift(ticketing.stop);
  ticketingUrl = `http://127.0.0.1:${ticketing.port}`;
  serviceUrls.ticketing = ticketingUrl;
  // Deliveries for an account without a partner configuration are held, not ticketed.
  const configured = await http.put(`${ticketingUrl}/v1/partner-configs/${ACCOUNT}`, { pageName: 'E2E account' }, { headers: { authorization: `Bearer ${CRM_TOKEN}` } });
  if (configured.status !== 201) throw new Error(`partner configuration for ${ACCOUNT}: HTTP ${configured.status}`);

  const simulatorConfig = loadSimulatorConfig({ PORT: '0', SOCIAL_CONSUMER_SECRET: CONSUMER_SECRET, SOCIAL_ENV_NAME: 'e2e', WEBHOOK_URL: `http://127.0.0.1:${ingest.port}/webhooks/e2e` });
  simulator = await listen(createSimulatorApp({ config: simulatorConfig, logger }), 0, '127.0.0.1');
  simulatorUrl = `http://127.0.0.1:${portOf(simulator)}`;
}, 60_000);

afterAll(async () => {
  if (simulator) await closeServer(simulator);
  for (const stop of stops) await stop();
  await Promise.all([...(databases ?? []).map((db) => db.drop()), vhost?.drop()]);
});

/** One sample of a Prometheus text answer: the value of `name` with exactly these labels among its own (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('metrics', () => {
  const scrape = async (service: string) => {
    const res = await http.get(`${serviceUrls[service]}/metrics`, { responseType: 'text' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.data as string;
  };

  it('every service answers /metrics, and a DM moves the counters of its whole path', async () => {
    const before = await scrape('ticketing');
    expect((await sendDm({ from: '@metered', text: 'counted?' })).data.webhookStatus).toBe(200);
    await waitFor(async () => (await ticketsOf('metered')).length === 1, { what: 'the ticket' });
    const after = Object.fromEntries(await Promise.all(Object.keys(serviceUrls).map(async (service) => [service, await scrape(service)] as const)));
    const moved = (name: string, labels: Record<string, string>) => sample(after.ticketing!, name, labels) - sample(before, name, labels);
    expect(moved('http_requests_total', { method: 'POST', route: '/webhooks/:envName', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(moved('messages_published_total', { exchange: 'social.activity' })).toBeGreaterThanOrEqual(1);
    const acked = ACTIVITY_PARTITION_QUEUES.reduce((sum, queue) => sum + moved('messages_consumed_total', { queue, outcome: 'acked' }), 0);
    expect(acked).toBeGreaterThanOrEqual(1);
    expect(moved('http_request_duration_seconds_count', { method: 'GET', route: '/v1/tickets' })).toBeGreaterThanOrEqual(1);
    for (const text of Object.values(after)) {
      expect(text).toContain('db_pool_connections{pool="ticketing",state="total"}');
      expect(text).toMatch(/^held_deliveries \d+$/m);
      expect(text).toMatch(/^outbox_backlog_messages \d+$/m);
      expect(text).toContain('process_cpu_seconds_total');
      // Route templates, never raw paths: no ticket id or account id becomes a label.
      expect(text).not.toMatch(/route="[^"]*\/[0-9a-f]{8}-/);
    }
  });
});

describe('a signed webhook becomes a ticket', () => {
  it('passes the CRC check the platform runs', async () => {
    const res = await http.post(`${simulatorUrl}/control/crc`, {});
    expect(res.data).toMatchObject({ valid: true, status: 200 });
  });

  it('turns a customer DM into a ticket with the text and the sender as contact', async () => {
    const sent = await sendDm({ from: { screenName: 'ana', name: 'Ana Customer' }, text: 'where is my order 42? <urgent> & thanks' });
    expect(sent.data.webhookStatus).toBe(200);

    const ticket = await waitFor(async () => (await ticketsOf('ana'))[0], { what: "ana's ticket" });
    expect(ticket).toMatchObject({
      accountId: ACCOUNT,
      status: 'open',
      channel: 'dm',
      contact: { screenName: 'ana', name: 'Ana Customer' },
      activities: [{ kind: 'dm_received', direction: 'inbound', text: 'where is my order 42? <urgent> & thanks', platformEventId: sent.data.eventId, deleted: false }],
    });
  });

  it('the same delivery sent again leaves one ticket with one activity', async () => {
    const first = await sendDm({ from: '@carla', text: 'my parcel is late' });
    expect(first.data.webhookStatus).toBe(200);
    const again = await sendDm({ from: '@carla', text: 'my parcel is late', eventId: first.data.eventId });
    expect(again.data.webhookStatus).toBe(200);
    await drain();
    const tickets = await ticketsOf('carla');
    expect(tickets).toHaveLength(1);
    expect(tickets[0]!.activities.map((a) => a.platformEventId)).toEqual([first.data.eventId]);
  });

  it('a wrong signature gets 401 and publishes nothing', async () => {
    const res = await sendDm({ from: '@mallory', text: 'forged', signature: 'wrong' });
    expect(res.data.webhookStatus).toBe(401);
    expect(res.data.webhookBody).toEqual({ error: { code: 'invalid_signature', message: expect.any(String) } });
    await drain();
    expect(await ticketsOf('mallory')).toEqual([]);
  });

  it('writes no secret to the logs', () => {
    const all = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(10);
    expect(all).not.toContain(CONSUMER_SECRET);
    expect(all).not.toContain(CRM_TOKEN);
  });
});
