/**
 * Following benchmark of tracking: provider calls per minute for 1,000 followed active tasks of
 * one client, with two tracking processes polling them (the defaults: each task once per
 * FOLLOW_POLL_INTERVAL_SECONDS = 60 at most, PROVIDER_MAX_CALLS_PER_MINUTE = 600 per client in
 * all, a round every FOLLOW_ROUND_MS = 1000). Counts the calls the simulator received in each
 * 10-s window of a measured minute, and the most calls any one task got in it.
 *
 * Runs tracking in-process against the tracking-provider simulator (loopback), the local
 * PostgreSQL (a fresh database) and RabbitMQ (a fresh virtual host). Bounded: one minute
 * measured, after the follows and a 5-s warm-up.
 *
 *   pnpm bench:follow
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { freshDatabase, freshVirtualHost, testLogger } from '@crm/testing';
import { createTrackingSimulatorApp } from '../../infra/simulators/tracking-provider/src/app';
import { loadSimulatorConfig } from '../../infra/simulators/tracking-provider/src/config';
import { readConfig } from '../../services/tracking/src/config';
import { startTracking, type RunningService } from '../../services/tracking/src/service';

const TASKS = 1_000;
const REPLICAS = 2;
const WINDOW_MS = 10_000;
const WINDOWS = 6;
const WARM_UP_MS = 5_000;
const TOKEN = 'bench-token';
const CLIENT = 'bench';
const API_KEY = 'bench-api-key-0001';

type Calls = { provider: number; byTask: Record<string, number> };
type Sim = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startSimulator() {
  const app = createTrackingSimulatorApp({ config: loadSimulatorConfig({ SIM_CLIENTS: `${CLIENT}:${API_KEY}` }), logger: testLogger('tracking-provider-simulator') });
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sim: Sim = (method, path, body) =>
    fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, unknown>>);
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { url, sim, close };
}

/** Follows every task over HTTP, 20 at a time. */
async function followAll(base: string, taskIds: string[]): Promise<void> {
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const put = await fetch(`${base}/v1/clients/${CLIENT}`, { method: 'PUT', headers, body: JSON.stringify({ enabled: true, apiKey: API_KEY }) });
  if (!put.ok) throw new Error(`enabling the client answered ${put.status}`);
  for (let i = 0; i < taskIds.length; i += 20) {
    await Promise.all(
      taskIds.slice(i, i + 20).map(async (taskId) => {
        const res = await fetch(`${base}/v1/clients/${CLIENT}/tasks/${taskId}/followers/ticket-${taskId}`, { method: 'PUT', headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`following ${taskId} answered ${res.status}`);
      }),
    );
  }
}

/** The calls of each window of the measured minute, and the most any one task got in it. */
async function measure(sim: Sim) {
  await sim('DELETE', '/control/calls');
  const perWindow: number[] = [];
  let before = 0;
  for (let i = 0; i < WINDOWS; i += 1) {
    await pause(WINDOW_MS);
    const { provider } = (await sim('GET', '/control/calls')) as Calls;
    perWindow.push(provider - before);
    before = provider;
  }
  const { byTask } = (await sim('GET', '/control/calls')) as Calls;
  const perTask = Object.values(byTask);
  return { perWindow, perMinute: before, tasksPolled: perTask.length, mostCallsOneTask: Math.max(0, ...perTask) };
}

async function main(): Promise<void> {
  const [db, vhost, simulator] = await Promise.all([freshDatabase('bench_follow'), freshVirtualHost('bench-follow'), startSimulator()]);
  const config = readConfig({
    NODE_ENV: 'test',
    PORT: '0',
    AMQP_URL: vhost.url,
    DATABASE_URL: db.url,
    TRACKING_API_URL: simulator.url,
    CRM_API_TOKENS: TOKEN,
    CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
  });
  const taskIds = Array.from({ length: TASKS }, (_, i) => `follow-${i + 1}`);
  // Slow riders: every task stays under way for the whole run.
  for (const taskId of taskIds) await simulator.sim('POST', '/control/tasks', { clientId: CLIENT, taskId, elapsedSeconds: 40, speedMps: 0.2 });
  const replicas: RunningService[] = [];
  try {
    for (let i = 0; i < REPLICAS; i += 1) replicas.push(await startTracking(config, { logger: testLogger('tracking') }));
    const followStarted = Date.now();
    await followAll(`http://127.0.0.1:${replicas[0]!.port}`, taskIds);
    const followSeconds = (Date.now() - followStarted) / 1000;
    await pause(WARM_UP_MS);
    const figures = await measure(simulator.sim);
    const result = { tasks: TASKS, replicas: REPLICAS, followSeconds, ...figures, budgetPerMinute: config.PROVIDER_MAX_CALLS_PER_MINUTE, pollIntervalSeconds: config.FOLLOW_POLL_INTERVAL_SECONDS };
    console.log(`tracking following, ${new Date().toISOString()}`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    for (const replica of replicas) await replica.stop();
    await simulator.close();
    await Promise.all([db.drop(), vhost.drop()]);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
