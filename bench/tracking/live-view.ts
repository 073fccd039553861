/**
 * Live-view benchmark of tracking: latency (p50/p99) of `GET /v1/clients/:c/tasks/:t/live`
 * with a warm cache, and the provider calls made per 1,000 lookups of 10 busy tasks.
 *
 * Runs tracking in-process against the tracking-provider simulator (provider and router,
 * on loopback), the local PostgreSQL (a fresh database) and RabbitMQ (a fresh virtual host).
 * Bounded: LOOKUPS lookups per scenario, and at most DEADLINE_MS per scenario.
 *
 *   pnpm exec tsx bench/tracking/live-view.ts
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { freshDatabase, freshVirtualHost, testLogger } from '@crm/testing';
import { createTrackingSimulatorApp } from '../../infra/simulators/tracking-provider/src/app';
import { loadSimulatorConfig } from '../../infra/simulators/tracking-provider/src/config';
import { readConfig } from '../../services/tracking/src/config';
import { startTracking } from '../../services/tracking/src/service';

const TASKS = 10;
const LOOKUPS = 1_000;
const DEADLINE_MS = 60_000;
const TOKEN = 'bench-token';
const CLIENT = 'bench';
const API_KEY = 'bench-api-key-0001';

/** closed: `concurrency` lookups always in flight, back to back; paced: lookups started at a steady rate, as users would. */
type Load = { kind: 'closed'; concurrency: number } | { kind: 'paced'; perSecond: number };

interface Scenario {
  name: string;
  env: Record<string, string>;
  load: Load;
}

const SCENARIOS: Scenario[] = [
  { name: 'warm cache, 1 at a time', env: {}, load: { kind: 'closed', concurrency: 1 } },
  { name: 'warm cache, 20 at a time', env: {}, load: { kind: 'closed', concurrency: 20 } },
  { name: '100 lookups/s for 10 s, cache TTL 3 s', env: {}, load: { kind: 'paced', perSecond: 100 } },
  // Without a cache lifetime only the coalescing of simultaneous lookups remains: what the cache saves.
  { name: '100 lookups/s for 10 s, cache TTL 1 ms', env: { TASK_CACHE_TTL_MS: '1' }, load: { kind: 'paced', perSecond: 100 } },
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

type Sim = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** Runs the lookups of a load, each through `timed`, until LOOKUPS or DEADLINE_MS; resolves with the time taken. */
async function driveLoad(load: Load, taskIds: string[], timed: (taskId: string) => Promise<void>): Promise<number> {
  const started = performance.now();
  const inTime = () => performance.now() - started < DEADLINE_MS;
  if (load.kind === 'closed') {
    let next = 0;
    const worker = async () => {
      while (next < LOOKUPS && inTime()) await timed(taskIds[next++ % TASKS]!);
    };
    await Promise.all(Array.from({ length: load.concurrency }, worker));
  } else {
    const pending: Promise<void>[] = [];
    for (let i = 0; i < LOOKUPS && inTime(); i += 1) {
      const due = started + (i * 1000) / load.perSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      pending.push(timed(taskIds[i % TASKS]!));
    }
    await Promise.all(pending);
  }
  return performance.now() - started;
}

/** One scenario: tracking started with its settings, the cache warmed, the load driven; its figures. */
async function runScenario(scenario: Scenario, at: { amqpUrl: string; databaseUrl: string; simUrl: string; sim: Sim; taskIds: string[] }) {
  const config = readConfig({
    NODE_ENV: 'test',
    PORT: '0',
    AMQP_URL: at.amqpUrl,
    DATABASE_URL: at.databaseUrl,
    TRACKING_API_URL: at.simUrl,
    ROUTING_URL: at.simUrl,
    CRM_API_TOKENS: TOKEN,
    CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    ...scenario.env,
  });
  const service = await startTracking(config, { logger: testLogger('tracking') });
  const base = `http://127.0.0.1:${service.port}`;
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const put = await fetch(`${base}/v1/clients/${CLIENT}`, { method: 'PUT', headers, body: JSON.stringify({ enabled: true, apiKey: API_KEY }) });
  if (!put.ok) throw new Error(`enabling the client answered ${put.status}`);
  const live = async (taskId: string) => {
    const res = await fetch(`${base}/v1/clients/${CLIENT}/tasks/${taskId}/live`, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`live view answered ${res.status}`);
  };

  // Warm: every task's record and route are cached once.
  for (const taskId of at.taskIds) await live(taskId);
  await at.sim('DELETE', '/control/calls');

  const latencies: number[] = [];
  const elapsedMs = await driveLoad(scenario.load, at.taskIds, async (taskId) => {
    const t0 = performance.now();
    await live(taskId);
    latencies.push(performance.now() - t0);
  });
  const calls = await at.sim('GET', '/control/calls');
  await service.stop();

  latencies.sort((a, b) => a - b);
  const per1000 = (n: number) => Math.round((n / latencies.length) * 1000 * 10) / 10;
  const { load } = scenario;
  return {
    scenario: scenario.name,
    lookups: latencies.length,
    load: load.kind === 'closed' ? `${load.concurrency} in flight` : `${load.perSecond}/s`,
    seconds: Math.round(elapsedMs) / 1000,
    lookupsPerSecond: Math.round(latencies.length / (elapsedMs / 1000)),
    p50Ms: Math.round(percentile(latencies, 50) * 100) / 100,
    p99Ms: Math.round(percentile(latencies, 99) * 100) / 100,
    maxMs: Math.round(latencies[latencies.length - 1]! * 100) / 100,
    providerCallsPer1000: per1000(calls.provider as number),
    routerCallsPer1000: per1000(calls.router as number),
  };
}

async function main(): Promise<void> {
  const [db, vhost] = await Promise.all([freshDatabase('bench_tracking'), freshVirtualHost('bench-tracking')]);
  const simApp = createTrackingSimulatorApp({ config: loadSimulatorConfig({ SIM_CLIENTS: `${CLIENT}:${API_KEY}` }), logger: testLogger('tracking-provider-simulator') });
  const simServer = await new Promise<ReturnType<typeof simApp.listen>>((resolve) => {
    const server = simApp.listen(0, '127.0.0.1', () => resolve(server));
  });
  const simUrl = `http://127.0.0.1:${(simServer.address() as AddressInfo).port}`;
  const sim: Sim = (method, path, body) =>
    fetch(`${simUrl}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, unknown>>);

  const taskIds = Array.from({ length: TASKS }, (_, i) => `busy-${i + 1}`);
  // Slow riders, so every task stays under way (and keeps moving) for the whole run.
  for (const taskId of taskIds) await sim('POST', '/control/tasks', { clientId: CLIENT, taskId, elapsedSeconds: 60, speedMps: 2, eta: false });

  const results = [];
  try {
    for (const scenario of SCENARIOS) results.push(await runScenario(scenario, { amqpUrl: vhost.url, databaseUrl: db.url, simUrl, sim, taskIds }));
  } finally {
    simServer.closeAllConnections();
    await new Promise((resolve) => simServer.close(resolve));
    await Promise.all([db.drop(), vhost.drop()]);
  }
  console.log(`tracking live view, ${TASKS} busy tasks, ${new Date().toISOString()}`);
  console.table(results);
  console.log(JSON.stringify(results, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
