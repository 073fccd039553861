/**
 * Tracing in the production bundles (infra/scripts/bundle.mjs: one dist/main.js per service,
 * where require hooks cannot patch the bundled express and pg), configured as in production:
 * OTEL_EXPORTER_OTLP_ENDPOINT names a collector, here a stand-in in this process that keeps what
 * the services send over OTLP/HTTP. auth, webhook-ingest and ticketing run from their bundles on
 * the real RabbitMQ and PostgreSQL; a signed DM must reach the collector as one trace with the
 * route-named POST, Express's route handler, the publish, the consume, the commit and its queries.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import axios from 'axios';
import { closeServer, listen, portOf } from '@crm/http';
import { createSimulatorApp } from '@crm/social-platform-simulator/src/app';
import { loadSimulatorConfig } from '@crm/social-platform-simulator/src/config';
import { freshDatabase, freshVirtualHost, testLogger, waitFor, type TestDatabase, type TestVirtualHost } from '@crm/testing';
import { ROOT, stackEnvironments, startServiceProcess, type ServiceProcess } from './service-process';

const SERVICES = ['auth', 'webhook-ingest', 'ticketing'] as const;
const CONSUMER_SECRET = `bundle-secret-${randomBytes(12).toString('hex')}`;
const CRM_TOKEN = `bundle-token-${randomBytes(12).toString('hex')}`;
const ACCOUNT = '1001';

/** One span as the collector received it (OTLP's JSON encoding). */
interface CollectedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans: {
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: { spans: { name: string; traceId: string; spanId: string; parentSpanId?: string; attributes?: OtlpAttribute[] }[] }[];
  }[];
}

const attributesOf = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue]));

const collected: CollectedSpan[] = [];
const collectorRequests: { path: string; contentType: string | undefined }[] = [];
const http = axios.create({ validateStatus: () => true });
const running: ServiceProcess[] = [];
let collector: Server;
let vhost: TestVirtualHost;
let databases: TestDatabase[] = [];
let simulator: Server;
let simulatorUrl: string;

/** A stand-in OpenTelemetry collector: accepts OTLP/HTTP JSON exports and keeps their spans. */
function startCollector(): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      collectorRequests.push({ path: req.url ?? '', contentType: req.headers['content-type'] });
      const exported = JSON.parse(body) as OtlpExport;
      for (const resource of exported.resourceSpans) {
        const service = String(attributesOf(resource.resource.attributes)['service.name']);
        for (const scope of resource.scopeSpans) {
          for (const span of scope.spans) {
            collected.push({ service, name: span.name, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId ?? '', attributes: attributesOf(span.attributes) });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  // The bundles as the production image builds them.
  await Promise.all(SERVICES.map((service) => promisify(execFile)(process.execPath, [join(ROOT, 'infra', 'scripts', 'bundle.mjs')], { cwd: join(ROOT, 'services', service) })));
  collector = await startCollector();
  vhost = await freshVirtualHost('e2e_bundle_trace');
  databases = await Promise.all([freshDatabase('e2e_bundle_auth'), freshDatabase('e2e_bundle_ticketing')]);
  const [authDb, ticketingDb] = databases as [TestDatabase, TestDatabase];
  const env = stackEnvironments({
    amqpUrl: vhost.url,
    authDatabaseUrl: authDb.url,
    ticketingDatabaseUrl: ticketingDb.url,
    consumerSecret: CONSUMER_SECRET,
    crmToken: CRM_TOKEN,
    credentialsKey: randomBytes(32).toString('base64'),
  });
  const otlp = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${portOf(collector)}`, OTEL_BSP_SCHEDULE_DELAY: '100' };
  const [, ingest, ticketing] = await Promise.all(SERVICES.map((service) => startServiceProcess(join(ROOT, 'services', service, 'dist', 'main.js'), ['--enable-source-maps'], { ...env[service], ...otlp })));
  running.push(...[ingest!, ticketing!]);

  const configured = await http.put(`http://127.0.0.1:${ticketing!.port}/v1/partner-configs/${ACCOUNT}`, { pageName: 'Bundled account' }, { headers: { authorization: `Bearer ${CRM_TOKEN}` } });
  if (configured.status !== 201) throw new Error(`partner configuration for ${ACCOUNT}: HTTP ${configured.status}`);
  const simulatorConfig = loadSimulatorConfig({ PORT: '0', SOCIAL_CONSUMER_SECRET: CONSUMER_SECRET, SOCIAL_ENV_NAME: 'e2e', WEBHOOK_URL: `http://127.0.0.1:${ingest!.port}/webhooks/e2e` });
  simulator = await listen(createSimulatorApp({ config: simulatorConfig, logger: testLogger('simulator') }), 0, '127.0.0.1');
  simulatorUrl = `http://127.0.0.1:${portOf(simulator)}`;
}, 180_000);

afterAll(async () => {
  if (simulator) await closeServer(simulator);
  await Promise.all(running.map((service) => service.stop()));
  if (collector) await closeServer(collector);
  await Promise.all([...databases.map((db) => db.drop()), vhost?.drop()]);
}, 60_000);

const PARTITION_PROCESS = /^ticketing\.activity\.[0-9]+ process$/;

it('the bundles export one trace from the webhook POST to the ticket commit over OTLP/HTTP, express and pg patched', async () => {
  const sent = await http.post(`${simulatorUrl}/control/direct-messages`, { to: ACCOUNT, from: '@bundled', text: 'traced from the bundle?' });
  expect(sent.data.webhookStatus).toBe(200);
  const commit = (await waitFor(() => collected.find((span) => span.service === 'ticketing' && span.name === 'ticketing commit deliveries'), { what: 'the commit span at the collector' }))!;
  // The commit's queries are exported with it (pg patched inside the bundle).
  const queries = await waitFor(() => {
    const found = collected.filter((span) => span.parentSpanId === commit.spanId && span.attributes['db.system.name'] === 'postgresql');
    return found.length > 0 ? found : undefined;
  }, { what: "the commit's queries" });
  expect(queries!.map((span) => span.attributes['db.query.text'])).toContain('COMMIT');

  // Each service exports on its own schedule: wait until the four spans that make the path are in.
  // The consume span is named by the activity partition the account hashes to (`ticketing.activity.<n> process`).
  const wanted = ['POST /webhooks/:envName', 'social.activity publish', PARTITION_PROCESS, 'ticketing commit deliveries'];
  const trace = (await waitFor(() => {
    const spans = collected.filter((span) => span.traceId === commit.traceId);
    return wanted.every((name) => spans.some((span) => (typeof name === 'string' ? span.name === name : name.test(span.name)))) ? spans : undefined;
  }, { what: 'the whole trace at the collector' }))!;
  const post = trace.find((span) => span.name === 'POST /webhooks/:envName')!;
  expect(post).toMatchObject({ service: 'webhook-ingest', parentSpanId: '' });
  expect(trace.find((span) => span.name === 'social.activity publish')).toMatchObject({ service: 'webhook-ingest' });
  expect(trace.find((span) => PARTITION_PROCESS.test(span.name))).toMatchObject({ service: 'ticketing' });
  // The POST, a hot route served ahead of Express, is named by its route template.
  expect(post.attributes['http.route']).toBe('/webhooks/:envName');
  // Express is patched inside the bundle: ticketing's partner-configuration PUT has its route handler span.
  expect(collected.find((span) => span.service === 'ticketing' && span.attributes['express.type'] === 'request_handler' && span.attributes['http.route'] === '/v1/partner-configs/:pageId')).toBeDefined();
  expect(collectorRequests.every((request) => request.path === '/v1/traces' && request.contentType === 'application/json')).toBe(true);
});
