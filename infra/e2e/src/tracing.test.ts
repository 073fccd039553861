/**
 * OpenTelemetry tracing across processes, on the real RabbitMQ and PostgreSQL: auth,
 * webhook-ingest and ticketing run as their own Node processes (their main.ts through tsx, as
 * `pnpm start` runs them), so the instrumentations patch http, express and pg through require
 * hooks as in production. A preload gives each an in-memory span exporter that appends its
 * finished spans to a file. A signed DM from the social platform simulator must make one trace
 * from webhook-ingest's POST through the broker to ticketing's commit of the ticket, and a reply
 * from the ticket one trace from ticketing's POST through its outbox and auth to the platform.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axios from 'axios';
import { closeServer, listen, portOf } from '@crm/http';
import { createSimulatorApp } from '@crm/social-platform-simulator/src/app';
import { loadSimulatorConfig } from '@crm/social-platform-simulator/src/config';
import type { SpanLine } from '@crm/telemetry/src/testing/span-file-preload';
import { browserSession, freshDatabase, freshVirtualHost, testLogger, waitFor, type TestDatabase, type TestVirtualHost } from '@crm/testing';
import { CONSUMER_KEY, ENV_NAME, ROOT, stackEnvironments, startServiceProcess, type ServiceProcess } from './service-process';

const PRELOAD = join(ROOT, 'libs', 'telemetry', 'src', 'testing', 'span-file-preload.ts');
const CONSUMER_SECRET = `trace-secret-${randomBytes(12).toString('hex')}`;
const CRM_TOKEN = `trace-token-${randomBytes(12).toString('hex')}`;
const ACCOUNT = '1001';
const SERVER = 1;
const CONSUMER = 4;
const PRODUCER = 3;
const CLIENT = 2;
/** auth sends DMs through v2 (`/2/dm_conversations/with/:participant_id/messages`). */
const DM_ROUTE = /\/2\/dm_conversations\/with\/[0-9]+\/messages$/;

const http = axios.create({ validateStatus: () => true });
const spanFile = join(mkdtempSync(join(tmpdir(), 'spans-')), 'spans.jsonl');
const running: Record<string, ServiceProcess> = {};
let vhost: TestVirtualHost;
let databases: TestDatabase[] = [];
let simulator: Server;
let simulatorUrl: string;
let authUrl: string;
let ticketingUrl: string;
const bearer = { headers: { authorization: `Bearer ${CRM_TOKEN}` } };

/** Starts a service's main.ts through tsx with the span-file preload. */
function startService(name: string, env: Record<string, string>): Promise<ServiceProcess> {
  return startServiceProcess(join(ROOT, 'services', name, 'src', 'main.ts'), ['--import', 'tsx', '--import', PRELOAD], { OTEL_SERVICE_NAME: name, SPAN_FILE: spanFile, ...env });
}

const spans = (): SpanLine[] =>
  existsSync(spanFile)
    ? readFileSync(spanFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as SpanLine)
    : [];

beforeAll(async () => {
  vhost = await freshVirtualHost('e2e_trace');
  databases = await Promise.all([freshDatabase('e2e_trace_auth'), freshDatabase('e2e_trace_ticketing')]);
  const [authDb, ticketingDb] = databases as [TestDatabase, TestDatabase];
  const env = stackEnvironments({
    amqpUrl: vhost.url,
    authDatabaseUrl: authDb.url,
    ticketingDatabaseUrl: ticketingDb.url,
    consumerSecret: CONSUMER_SECRET,
    crmToken: CRM_TOKEN,
    credentialsKey: randomBytes(32).toString('base64'),
  });
  // webhook-ingest first, whose address the simulator delivers to; then auth, which calls the simulator's platform API.
  const ingest = await startService('webhook-ingest', env['webhook-ingest']);
  running['webhook-ingest'] = ingest;
  const webhookUrl = `http://127.0.0.1:${ingest.port}/webhooks/${ENV_NAME}`;
  const simulatorConfig = loadSimulatorConfig({ PORT: '0', SOCIAL_CONSUMER_KEY: CONSUMER_KEY, SOCIAL_CONSUMER_SECRET: CONSUMER_SECRET, SOCIAL_ENV_NAME: ENV_NAME, WEBHOOK_URL: webhookUrl });
  simulator = await listen(createSimulatorApp({ config: simulatorConfig, logger: testLogger('simulator') }), 0, '127.0.0.1');
  simulatorUrl = `http://127.0.0.1:${portOf(simulator)}`;
  const [auth, ticketing] = await Promise.all([
    startService('auth', { ...env.auth, SOCIAL_API_URL: simulatorUrl, PUBLIC_WEBHOOK_URL: webhookUrl }),
    startService('ticketing', env.ticketing),
  ]);
  Object.assign(running, { auth, ticketing });
  authUrl = `http://127.0.0.1:${auth.port}`;
  ticketingUrl = `http://127.0.0.1:${ticketing.port}`;
  const configured = await http.put(`${ticketingUrl}/v1/partner-configs/${ACCOUNT}`, { pageName: 'Traced account' }, bearer);
  if (configured.status !== 201) throw new Error(`partner configuration for ${ACCOUNT}: HTTP ${configured.status}`);
}, 120_000);

afterAll(async () => {
  if (simulator) await closeServer(simulator);
  await Promise.all(Object.values(running).map((service) => service.stop()));
  await Promise.all([...databases.map((db) => db.drop()), vhost?.drop()]);
}, 60_000);

describe('one trace from the webhook to the ticket', () => {
  it('spans webhook-ingest and ticketing: the POST, the publish, the consume and the commit, each the child of the one before', async () => {
    const ingestUrl = `http://127.0.0.1:${running['webhook-ingest']!.port}`;
    // Probes and scrapes make no spans.
    expect((await http.get(`${ingestUrl}/health/ready`)).status).toBe(200);
    expect((await http.get(`${ingestUrl}/metrics`)).status).toBe(200);

    const sent = await http.post(`${simulatorUrl}/control/direct-messages`, { to: ACCOUNT, from: '@traced', text: 'where is my order?' });
    expect(sent.data.webhookStatus).toBe(200);
    const commit = (await waitFor(() => spans().find((span) => span.service === 'ticketing' && span.name === 'ticketing commit deliveries'), { what: 'the commit span' }))!;

    // Each process writes its spans as they end: wait until the ones that make the path are in.
    const findIn = (trace: SpanLine[]) => ({
      post: trace.find((span) => span.service === 'webhook-ingest' && span.kind === SERVER && span.name === 'POST /webhooks/:envName'),
      publish: trace.find((span) => span.service === 'webhook-ingest' && span.kind === PRODUCER && span.name === 'social.activity publish'),
      consume: trace.find((span) => span.service === 'ticketing' && span.kind === CONSUMER && /^ticketing\.activity\.[0-9]+ process$/.test(span.name)),
    });
    const trace = (await waitFor(() => {
      const inTrace = spans().filter((span) => span.traceId === commit.traceId);
      return Object.values(findIn(inTrace)).every(Boolean) ? inTrace : undefined;
    }, { what: 'the whole trace' }))!;
    const { post, publish, consume } = findIn(trace);
    expect(post).toMatchObject({ attributes: expect.objectContaining({ 'http.route': '/webhooks/:envName' }) });
    expect(post!.parentSpanId).toBeUndefined();
    expect(publish).toMatchObject({ attributes: expect.objectContaining({ 'messaging.destination.name': 'social.activity', 'messaging.system': 'rabbitmq' }) });
    expect(consume).toMatchObject({ parentSpanId: publish!.spanId });
    expect(commit.parentSpanId).toBe(consume!.spanId);
    // The publish happens inside the request's work: its parent is a span of the POST's (the route handler's or the POST's own).
    expect(trace.filter((span) => span.service === 'webhook-ingest').map((span) => span.spanId)).toContain(publish!.parentSpanId);
    // pg is patched in the real process: the commit's queries are its children.
    expect(trace.filter((span) => span.parentSpanId === commit.spanId && span.attributes['db.system.name'] === 'postgresql').length).toBeGreaterThan(0);
    expect([...new Set(trace.map((span) => span.service))]).toEqual(expect.arrayContaining(['webhook-ingest', 'ticketing']));

    const polled = spans().filter((span) => span.kind === SERVER && /health|metrics/.test(String(span.attributes['url.path'] ?? span.attributes['http.target'] ?? span.name)));
    expect(polled).toEqual([]);
  });

  it('writes the trace id into the log lines of the traced work, beside the correlation id', async () => {
    const commit = spans().find((span) => span.name === 'ticketing commit deliveries')!;
    // A process's log lines reach its stdout on their own time, after spans that ended before them: wait for them.
    const linesOf = (service: 'ticketing' | 'webhook-ingest') => running[service]!.stdout().split('\n').filter((line) => line.includes(commit.traceId));
    const lines = (await waitFor(() => (linesOf('ticketing').length > 0 ? linesOf('ticketing') : undefined), { what: "ticketing's log lines of the trace" }))!.map(
      (line) => JSON.parse(line) as Record<string, unknown>,
    );
    for (const line of lines) expect(line).toMatchObject({ traceId: commit.traceId, spanId: expect.stringMatching(/^[0-9a-f]{16}$/), correlationId: expect.any(String) });
    await waitFor(() => linesOf('webhook-ingest').length > 0 || undefined, { what: "webhook-ingest's log lines of the trace" });
  });
});

/** What an agent's browser does: connects an account through the three-legged flow; resolves with its id. */
async function connectAccount(user: string): Promise<string> {
  const started = await http.post(`${authUrl}/v1/connections`, undefined, bearer);
  expect(started.status).toBe(201);
  const browser = browserSession();
  const opened = await browser.get(started.data.authorizeUrl as string);
  const authorizeUrl = new URL(String(opened.headers.location));
  const page = await browser.get<string>(authorizeUrl.toString());
  const token = /name="oauth_token" value="([^"]+)"/.exec(page.data)?.[1];
  const action = /<form method="post" action="([^"]+)"/.exec(page.data)?.[1];
  const approved = await browser.post(new URL(action!, authorizeUrl).toString(), new URLSearchParams({ oauth_token: token!, user, decision: 'approve' }).toString(), {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const callback = await browser.get(String(approved.headers.location));
  expect(callback.status).toBe(303);
  return new URL(String(callback.headers.location)).searchParams.get('accountId')!;
}

describe('one trace from a reply to the platform', () => {
  it("follows the reply from ticketing's POST through the outbox, social.commands and auth to its call to the platform", async () => {
    const accountId = await connectAccount('@traced_support');
    await waitFor(async () => (await http.get(`${ticketingUrl}/v1/accounts/${accountId}`, bearer)).data.status === 'connected', { what: 'ticketing sees the account connected' });
    expect((await http.put(`${ticketingUrl}/v1/partner-configs/${accountId}`, { pageName: 'Traced support' }, bearer)).status).toBe(201);
    const customer = (await http.post(`${simulatorUrl}/control/platform/users`, { screenName: 'bea', name: 'Bea Customer' })).data.id_str as string;
    const sent = await http.post(`${simulatorUrl}/control/direct-messages`, { from: { id: customer, screenName: 'bea', name: 'Bea Customer' }, to: accountId, text: 'is it shipped?' });
    expect(sent.data.webhookStatus).toBe(200);
    const ticketId = await waitFor(async () => ((await http.get(`${ticketingUrl}/v1/tickets?accountId=${accountId}`, bearer)).data.items as { id: string }[])[0]?.id, { what: "bea's ticket" });

    expect((await http.post(`${ticketingUrl}/v1/tickets/${ticketId}/replies`, { text: 'It left today.' }, bearer)).status).toBe(202);
    const call = (await waitFor(() => spans().find((span) => span.service === 'auth' && span.kind === CLIENT && DM_ROUTE.test(String(span.attributes['url.full']))), { what: "auth's call to the platform" }))!;

    const findIn = (trace: SpanLine[]) => ({
      reply: trace.find((span) => span.service === 'ticketing' && span.kind === SERVER && span.name === 'POST /v1/tickets/:id/replies'),
      publish: trace.find((span) => span.service === 'ticketing' && span.kind === PRODUCER && span.name === 'social.commands publish'),
      consume: trace.find((span) => span.service === 'auth' && span.kind === CONSUMER && span.name === 'auth.commands process'),
    });
    const trace = (await waitFor(() => {
      const inTrace = spans().filter((span) => span.traceId === call.traceId);
      return Object.values(findIn(inTrace)).every(Boolean) ? inTrace : undefined;
    }, { what: 'the whole reply trace' }))!;
    const { reply, publish, consume } = findIn(trace);
    expect(reply!.parentSpanId).toBeUndefined();
    // Published later by the relay, yet in the request's trace: the outbox row kept its context.
    expect(trace.filter((span) => span.service === 'ticketing').map((span) => span.spanId)).toContain(publish!.parentSpanId);
    expect(consume!.parentSpanId).toBe(publish!.spanId);
    expect(call.attributes['http.request.method']).toBe('POST');
    // The call to the platform is made within the command's handling.
    const ancestors = (span: SpanLine): string[] => {
      const parent = trace.find((candidate) => candidate.spanId === span.parentSpanId);
      return parent ? [parent.spanId, ...ancestors(parent)] : [];
    };
    expect(ancestors(call)).toContain(consume!.spanId);
  });
});
