/**
 * OpenTelemetry tracing across processes, on the real RabbitMQ and PostgreSQL: auth,
 * webhook-ingest and ticketing run as their own Node processes (their main.ts through tsx, as
 * `pnpm start` runs them), so the instrumentations patch http, express and pg through require
 * hooks as in production. A preload gives each an in-memory span exporter that appends its
 * finished spans to a file. A signed DM from the social platform simulator must make one trace
 * from webhook-ingest's POST through the broker to ticketing's commit of the ticket.
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
import { freshDatabase, freshVirtualHost, testLogger, waitFor, type TestDatabase, type TestVirtualHost } from '@crm/testing';
import { ROOT, stackEnvironments, startServiceProcess, type ServiceProcess } from './service-process';

const PRELOAD = join(ROOT, 'libs', 'telemetry', 'src', 'testing', 'span-file-preload.ts');
const CONSUMER_SECRET = `trace-secret-${randomBytes(12).toString('hex')}`;
const CRM_TOKEN = `trace-token-${randomBytes(12).toString('hex')}`;
const ACCOUNT = '1001';
const SERVER = 1;
const CONSUMER = 4;
const PRODUCER = 3;

const http = axios.create({ validateStatus: () => true });
const spanFile = join(mkdtempSync(join(tmpdir(), 'spans-')), 'spans.jsonl');
const running: Record<string, ServiceProcess> = {};
let vhost: TestVirtualHost;
let databases: TestDatabase[] = [];
let simulator: Server;
let simulatorUrl: string;

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
  const [auth, ingest, ticketing] = await Promise.all([startService('auth', env.auth), startService('webhook-ingest', env['webhook-ingest']), startService('ticketing', env.ticketing)]);
  Object.assign(running, { auth, 'webhook-ingest': ingest, ticketing });

  const configured = await http.put(`http://127.0.0.1:${ticketing.port}/v1/partner-configs/${ACCOUNT}`, { pageName: 'Traced account' }, { headers: { authorization: `Bearer ${CRM_TOKEN}` } });
  if (configured.status !== 201) throw new Error(`partner configuration for ${ACCOUNT}: HTTP ${configured.status}`);
  const simulatorConfig = loadSimulatorConfig({ PORT: '0', SOCIAL_CONSUMER_SECRET: CONSUMER_SECRET, SOCIAL_ENV_NAME: 'e2e', WEBHOOK_URL: `http://127.0.0.1:${ingest.port}/webhooks/e2e` });
  simulator = await listen(createSimulatorApp({ config: simulatorConfig, logger: testLogger('simulator') }), 0, '127.0.0.1');
  simulatorUrl = `http://127.0.0.1:${portOf(simulator)}`;
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
      consume: trace.find((span) => span.service === 'ticketing' && span.kind === CONSUMER && span.name === 'ticketing.activity process'),
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
    const lines = running.ticketing!.stdout()
      .split('\n')
      .filter((line) => line.includes(commit.traceId))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatchObject({ traceId: commit.traceId, spanId: expect.stringMatching(/^[0-9a-f]{16}$/), correlationId: expect.any(String) });
    const ingestLines = running['webhook-ingest']!.stdout().split('\n').filter((line) => line.includes(commit.traceId));
    expect(ingestLines.length).toBeGreaterThan(0);
  });
});
