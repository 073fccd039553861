/**
 * Issue 4 end to end, on the real RabbitMQ and PostgreSQL, every part in this process on a
 * fresh virtual host and fresh databases: auth, webhook-ingest and ticketing against the
 * social platform simulator (its platform API included). An account connects through the
 * three-legged flow in a "browser", the webhook is registered (the platform's CRC reaches
 * webhook-ingest) and the account subscribed; a customer's DM becomes a ticket; the reply
 * from the ticket reaches the platform correctly signed, becomes sent, and its echo threads
 * into the same ticket as the same activity. A refused send shows the platform's reason; a
 * revoke on the platform makes auth forget the credentials. An API credential made with
 * auth's CLI is checked by ticketing over auth.rpc: its scopes and accounts hold, and a
 * revoked one is refused. No secret appears in the logs.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import axios from 'axios';
import { AccountStore } from '@crm/auth/src/adapters/accounts';
import { Keyring } from '@crm/auth/src/adapters/keyring';
import { runCli as runAuthCli } from '@crm/auth/src/cli-commands';
import { readConfig as readAuthConfig, type AuthConfig } from '@crm/auth/src/config';
import { startAuth, type RunningService as RunningAuth } from '@crm/auth/src/service';
import { closeServer, listen, portOf } from '@crm/http';
import { createSimulatorApp } from '@crm/social-platform-simulator/src/app';
import { loadSimulatorConfig } from '@crm/social-platform-simulator/src/config';
import { browserSession, capturingLogger, freshDatabase, freshVirtualHost, waitFor, type TestDatabase, type TestVirtualHost } from '@crm/testing';
import { loadTicketingConfig } from '@crm/ticketing/src/config';
import { startTicketing, type RunningTicketing } from '@crm/ticketing/src/service';
import { readConfig as readIngestConfig } from '@crm/webhook-ingest/src/config';
import { startWebhookIngest } from '@crm/webhook-ingest/src/service';

const ENV_NAME = 'e2e';
const CONSUMER_KEY = `e2e-key-${randomBytes(6).toString('hex')}`;
const CONSUMER_SECRET = `e2e-consumer-secret-${randomBytes(12).toString('hex')}`;
const CREDENTIALS_KEY = randomBytes(32).toString('base64');
const CRM_TOKEN = `e2e-crm-token-${randomBytes(12).toString('hex')}`;
/** auth sends DMs through v2: the route names the recipient. */
const dmRoute = (recipientId: string) => `/2/dm_conversations/with/${recipientId}/messages`;
const { logger, lines: logLines } = capturingLogger('e2e-reply');

let vhost: TestVirtualHost;
let databases: TestDatabase[] = [];
let auth: RunningAuth;
let authConfig: AuthConfig;
let ticketing: RunningTicketing;
let simulator: Server;
const stops: (() => Promise<void>)[] = [];

const browser = axios.create({ validateStatus: () => true, maxRedirects: 0 });
const bearer = { headers: { authorization: `Bearer ${CRM_TOKEN}` } };
let authUrl: string;
let ticketingUrl: string;
let simulatorUrl: string;
const authApi = {
  get: (path: string) => browser.get(`${authUrl}${path}`, bearer),
  post: (path: string, body?: unknown) => browser.post(`${authUrl}${path}`, body, bearer),
  put: (path: string, body?: unknown) => browser.put(`${authUrl}${path}`, body, bearer),
};
const crm = {
  get: (path: string) => browser.get(`${ticketingUrl}${path}`, bearer),
  post: (path: string, body: unknown) => browser.post(`${ticketingUrl}${path}`, body, bearer),
  put: (path: string, body: unknown) => browser.put(`${ticketingUrl}${path}`, body, bearer),
};
const sim = {
  get: (path: string, params?: Record<string, string>) => browser.get(`${simulatorUrl}${path}`, { params }),
  post: (path: string, body: unknown) => browser.post(`${simulatorUrl}${path}`, body),
};

interface Activity {
  id: string;
  kind: string;
  direction: string;
  text: string | null;
  platformEventId: string | null;
  status: string | null;
  failure: { code: string; message: string; platformCode: number | null } | null;
}
interface Ticket {
  id: string;
  channel: string;
  contact: { screenName: string };
  activities: Activity[];
}
interface PlatformRequest {
  method: string;
  path: string;
  json: unknown;
  caller: { kind: string; userId?: string };
  status: number | null;
  rejection?: string;
}

beforeAll(async () => {
  vhost = await freshVirtualHost('e2e_reply');
  databases = await Promise.all([freshDatabase('e2e_reply_auth'), freshDatabase('e2e_reply_ticketing')]);
  const [authDb, ticketingDb] = databases as [TestDatabase, TestDatabase];
  const common = { NODE_ENV: 'production', PORT: '0', AMQP_URL: vhost.url, LOG_LEVEL: 'debug' };

  const ingest = await startWebhookIngest(readIngestConfig(common), { logger });
  stops.unshift(ingest.stop);
  const webhookUrl = `http://127.0.0.1:${ingest.port}/webhooks/${ENV_NAME}`;

  const simulatorConfig = loadSimulatorConfig({ PORT: '0', SOCIAL_CONSUMER_KEY: CONSUMER_KEY, SOCIAL_CONSUMER_SECRET: CONSUMER_SECRET, SOCIAL_ENV_NAME: ENV_NAME, WEBHOOK_URL: webhookUrl, WEBHOOK_HTTP_ALLOWED: 'true' });
  simulator = await listen(createSimulatorApp({ config: simulatorConfig, logger }), 0, '127.0.0.1');
  simulatorUrl = `http://127.0.0.1:${portOf(simulator)}`;

  authConfig = readAuthConfig({
    ...common,
    DATABASE_URL: authDb.url,
    SOCIAL_API_URL: simulatorUrl,
    SOCIAL_CONSUMER_KEY: CONSUMER_KEY,
    SOCIAL_CONSUMER_SECRET: CONSUMER_SECRET,
    SOCIAL_OAUTH2_CLIENT_ID: 'oauth2-client-id',
    SOCIAL_OAUTH2_CLIENT_SECRET: 'oauth2-client-secret',
    SOCIAL_ENV_NAME: ENV_NAME,
    PUBLIC_WEBHOOK_URL: webhookUrl,
    WEBHOOK_URL_LOCAL_ALLOWED: 'true', // webhook-ingest listens on plain http on a port here
    CREDENTIALS_KEY,
    CRM_API_TOKENS: CRM_TOKEN,
    WEBHOOK_CHECK_INTERVAL_MS: '0',
  });
  auth = await startAuth(authConfig, { logger });
  stops.unshift(auth.stop);
  authUrl = `http://127.0.0.1:${auth.port}`;

  ticketing = await startTicketing(loadTicketingConfig({ ...common, DATABASE_URL: ticketingDb.url, CRM_API_TOKENS: CRM_TOKEN }), { logger });
  stops.unshift(ticketing.stop);
  ticketingUrl = `http://127.0.0.1:${ticketing.port}`;
}, 60_000);

afterAll(async () => {
  for (const stop of stops) await stop();
  if (simulator) await closeServer(simulator);
  await Promise.all([...databases.map((db) => db.drop()), vhost?.drop()]);
});

/** What a browser does: opens the authorize page, submits its form as `user`, follows the redirect to auth's callback. */
async function connectInBrowser(user: string): Promise<string> {
  const started = await authApi.post('/v1/connections');
  expect(started.status).toBe(201);
  const agentBrowser = browserSession();
  const opened = await agentBrowser.get(started.data.authorizeUrl as string);
  expect(opened.status).toBe(303);
  const authorizeUrl = new URL(String(opened.headers.location));
  expect(authorizeUrl.origin).toBe(simulatorUrl);
  const page = await agentBrowser.get<string>(authorizeUrl.toString());
  const token = /name="oauth_token" value="([^"]+)"/.exec(page.data)?.[1];
  const action = /<form method="post" action="([^"]+)"/.exec(page.data)?.[1];
  expect(token && action).toBeTruthy();
  const approved = await agentBrowser.post(new URL(action!, authorizeUrl).toString(), new URLSearchParams({ oauth_token: token!, user, decision: 'approve' }).toString(), {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(approved.status).toBe(302);
  const callback = await agentBrowser.get(String(approved.headers.location));
  expect(callback.status).toBe(303);
  return new URL(String(callback.headers.location)).searchParams.get('accountId')!;
}

const ticket = async (id: string) => (await crm.get(`/v1/tickets/${id}`)).data as Ticket;

async function ticketsOf(accountId: string, screenName: string): Promise<Ticket[]> {
  const list = await crm.get(`/v1/tickets?accountId=${accountId}`);
  const items = (list.data.items as Ticket[]).filter((t) => t.contact?.screenName === screenName);
  return Promise.all(items.map(async (t) => (await crm.get(`/v1/tickets/${t.id}`)).data as Ticket));
}

const dmRequests = async (recipientId: string) => (await sim.get('/control/platform/requests', { path: dmRoute(recipientId), method: 'POST' })).data.items as PlatformRequest[];

describe('a reply from a ticket, end to end', () => {
  let accountId: string;
  let ticketId: string;
  let anaId: string;
  /** The account's token pair, read from auth before the revoke forgets it. */
  let tokens: { key: string; secret: string };

  it('connects the account through the three-legged flow; ticketing hears of it', async () => {
    accountId = await connectInBrowser('@acme_support');
    expect(accountId).toMatch(/^[0-9]+$/);
    expect((await authApi.get(`/v1/accounts/${accountId}`)).data).toMatchObject({ accountId, screenName: 'acme_support', status: 'connected', via: 'oauth' });
    await waitFor(async () => (await crm.get(`/v1/accounts/${accountId}`)).data.status === 'connected', { what: 'ticketing sees the account connected' });
  });

  it('registers the webhook (the CRC reaches webhook-ingest) and subscribes the account', async () => {
    const registered = await authApi.post('/v1/webhooks', { ownerAccountId: accountId });
    expect(registered.status).toBe(201);
    expect(registered.data).toMatchObject({ valid: true });
    expect((await authApi.put(`/v1/accounts/${accountId}/subscription`)).data).toEqual({ subscribed: true, alreadySubscribed: false });
    expect((await crm.put(`/v1/partner-configs/${accountId}`, { pageName: 'Acme Support' })).status).toBe(201);
  });

  it("turns a customer's DM into a ticket", async () => {
    // The customer as the platform knows her (the echo of our reply carries her profile).
    anaId = (await sim.post('/control/platform/users', { screenName: 'ana', name: 'Ana Customer' })).data.id_str as string;
    const sent = await sim.post('/control/direct-messages', { from: { id: anaId, screenName: 'ana', name: 'Ana Customer' }, to: accountId, text: 'where is my order 42?' });
    expect(sent.data.webhookStatus).toBe(200);
    const found = await waitFor(async () => {
      const items = await ticketsOf(accountId, 'ana');
      return items.length === 1 ? items[0] : undefined;
    }, { what: "ana's ticket" });
    ticketId = found!.id;
    expect(found).toMatchObject({ channel: 'dm', activities: [{ kind: 'dm_received', direction: 'inbound', text: 'where is my order 42?', status: null }] });
  });

  it("serves an API credential made with auth's CLI within its scopes and accounts, and refuses it once revoked", async () => {
    const cli = async (...argv: string[]) => {
      const out: string[] = [];
      expect(await runAuthCli(['credentials', ...argv], authConfig, logger, { out: (line) => out.push(line), err: () => undefined })).toBe(0);
      return JSON.parse(out.join('\n')) as { id: string; token: string };
    };
    const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    const reader = await cli('create', '--name', 'e2e reader', '--scopes', 'tickets:read', '--accounts', accountId);
    expect((await browser.get(`${ticketingUrl}/v1/tickets/${ticketId}`, as(reader.token))).status).toBe(200);
    const refused = await browser.post(`${ticketingUrl}/v1/tickets/${ticketId}/replies`, { text: 'not allowed' }, as(reader.token));
    expect(refused.status).toBe(403);
    expect(refused.data.error.message).toBe('this credential lacks the scope tickets:write');
    const elsewhere = await cli('create', '--name', 'e2e other desk', '--scopes', 'tickets:read', '--accounts', '1');
    expect((await browser.get(`${ticketingUrl}/v1/tickets/${ticketId}`, as(elsewhere.token))).status).toBe(404);
    const leaver = await cli('create', '--name', 'e2e leaver', '--scopes', 'admin');
    await cli('revoke', leaver.id);
    expect((await browser.get(`${ticketingUrl}/v1/tickets/${ticketId}`, as(leaver.token))).status).toBe(401);
  });

  it('sends the reply as a signed DM; it becomes sent and its echo threads into the same ticket as the same activity', async () => {
    const answer = await crm.post(`/v1/tickets/${ticketId}/replies`, { text: 'Your order 42 left the warehouse today.' });
    expect(answer.status).toBe(202);
    expect(answer.data).toEqual({ activityId: expect.any(String), status: 'pending' });
    const activityId = answer.data.activityId as string;

    // The platform received it once, signed with the account's token (the simulator recomputes the HMAC-SHA1 and would refuse otherwise).
    const request = await waitFor(async () => (await dmRequests(anaId))[0], { what: 'the send_dm request' });
    expect(request).toMatchObject({ status: 201, caller: { kind: 'user', userId: accountId }, json: { text: 'Your order 42 left the warehouse today.' } });
    expect(request!.rejection).toBeUndefined();

    const sent = await waitFor(async () => {
      const activity = (await ticket(ticketId)).activities.find((a) => a.id === activityId);
      return activity?.status === 'sent' ? activity : undefined;
    }, { what: 'the reply sent' });
    const dmId = sent!.platformEventId!;
    expect(dmId).toMatch(/^[0-9]+$/);

    // The echo: delivered by the platform to the webhook, signed, with source_app_id.
    const echo = await waitFor(async () => {
      const items = (await sim.get('/control/platform/deliveries')).data.items as { kind: string; eventIds: string[]; webhookStatus: number | null; delivery: Record<string, unknown> }[];
      return items.find((d) => d.kind === 'direct_message_events' && d.eventIds.includes(dmId));
    }, { what: 'the echo delivery' });
    expect(echo!.webhookStatus).toBe(200);
    expect(JSON.stringify(echo!.delivery)).toContain('source_app_id');
    await drain(accountId);

    // No new ticket: the account has ana's ticket and the marker's, nothing else.
    const all = (await crm.get(`/v1/tickets?accountId=${accountId}`)).data.items as Ticket[];
    expect(all.filter((t) => !t.contact.screenName.startsWith('marker')).map((t) => t.id)).toEqual([ticketId]);
    expect((await ticket(ticketId)).activities.map((a) => [a.id === activityId ? 'reply' : 'other', a.direction, a.kind, a.platformEventId === dmId, a.status])).toEqual([
      ['other', 'inbound', 'dm_received', false, null],
      ['reply', 'outbound', 'dm_sent', true, 'sent'],
    ]);
    expect(await dmRequests(anaId)).toHaveLength(1);
  });

  it("a send the platform refuses shows failed with the platform's reason", async () => {
    const fault = await sim.post('/control/platform/faults', { path: dmRoute(anaId), method: 'POST', status: 403, message: 'You cannot send messages to this user.' });
    expect(fault.status).toBe(201);
    const activityId = (await crm.post(`/v1/tickets/${ticketId}/replies`, { text: 'Are you there?' })).data.activityId as string;
    const failed = await waitFor(async () => {
      const activity = (await ticket(ticketId)).activities.find((a) => a.id === activityId);
      return activity?.status === 'failed' ? activity : undefined;
    }, { what: 'the reply failed' });
    // v2 answers problem details, which carry no code.
    expect(failed).toMatchObject({ direction: 'outbound', platformEventId: null, failure: { code: 'platform_rejected', message: 'You cannot send messages to this user.', platformCode: null } });
  });

  it('a revoke on the platform reaches auth and ticketing: the credentials are forgotten and replies are refused', async () => {
    const credentials = await new AccountStore(auth.pool, new Keyring(CREDENTIALS_KEY)).credentials(accountId);
    if (credentials?.protocol !== 'oauth1') throw new Error('the account has no OAuth 1.0a token pair');
    tokens = credentials.token;
    expect((await sim.post('/control/platform/tokens/revoke', { user: accountId })).status).toBe(200);
    await waitFor(async () => (await authApi.get(`/v1/accounts/${accountId}`)).data.status === 'revoked', { what: 'auth marks the account revoked' });
    expect((await auth.pool.query('SELECT access_token_sealed FROM accounts WHERE account_id = $1', [accountId])).rows[0].access_token_sealed).toBeNull();
    await waitFor(async () => (await crm.get(`/v1/accounts/${accountId}`)).data.status === 'revoked', { what: 'ticketing marks the account revoked' });
    const refused = await crm.post(`/v1/tickets/${ticketId}/replies`, { text: 'hello?' });
    expect(refused.status).toBe(409);
    expect(refused.data.error).toMatchObject({ code: 'account_unavailable', message: expect.stringContaining('revoked') });
  });

  it('logs no consumer secret, access token or token secret', () => {
    const log = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(50);
    expect(log).toContain('reply outcome recorded');
    for (const secret of [CONSUMER_SECRET, tokens.key, tokens.secret, CREDENTIALS_KEY, CRM_TOKEN]) expect(log).not.toContain(secret);
  });
});

/** Sends a DM from a fresh customer and waits for its ticket and an idle consumer: everything delivered before it has been handled. */
async function drain(accountId: string): Promise<void> {
  const marker = `marker${randomBytes(3).toString('hex')}`;
  expect((await sim.post('/control/direct-messages', { from: `@${marker}`, to: accountId, text: 'marker' })).data.webhookStatus).toBe(200);
  await waitFor(async () => (await ticketsOf(accountId, marker)).length === 1, { what: 'marker ticket' });
  await waitFor(() => ticketing.consumer.inFlightCount === 0, { what: 'idle consumer' });
}
