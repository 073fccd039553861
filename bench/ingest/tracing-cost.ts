/**
 * What tracing costs webhook-ingest per request: the CPU time its production bundle spends on
 * the same signed DM deliveries with tracing on and no exporter (the default) and with
 * OTEL_SDK_DISABLED=true, in alternating rounds. CPU time per request (from /proc, user +
 * system) moves much less than throughput when other work shares the machine.
 *
 *   pnpm bench:tracing-cost        (tsx bench/ingest/tracing-cost.ts)
 *
 * Settings: COST_REQUESTS per round (3000), COST_ROUNDS (4), COST_CONCURRENCY (8). Bounded: each
 * round sends its requests and stops.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Queues, SYSTEM_TOPOLOGY, WebhookKeyRequest } from '../../libs/contracts/src';
import { freshVirtualHost } from '@crm/testing';
import { createLogger } from '../../libs/logging/src';
import { Broker, RpcServer, rpcMethod } from '../../libs/messaging/src';
import { sign, SIGNATURE_HEADER } from '../../libs/webhook-signature/src';
import { directMessageReceived, serializeLikePlatform } from '../../infra/simulators/social-platform/src/deliveries';

const run = promisify(execFile);
const root = path.join(__dirname, '..', '..');
const SECRET = 'bench-consumer-secret';
const REQUESTS = Number(process.env.COST_REQUESTS ?? 3000);
const ROUNDS = Number(process.env.COST_ROUNDS ?? 4);
const CONCURRENCY = Number(process.env.COST_CONCURRENCY ?? 8);
const logger = createLogger('bench-tracing-cost', 'warn');
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds a process has used (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

async function waitForListening(url: string): Promise<void> {
  for (let i = 0; i < 150; i += 1) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url}: not listening after 30 s`);
}

/**
 * Sends `count` signed deliveries, `CONCURRENCY` at a time, until each is answered 200 (a 503,
 * the broker busy or restarting under other work, is sent again after a pause, as the platform would).
 */
async function send(url: string, count: number, body: Buffer, signature: string): Promise<void> {
  let left = count;
  let refused = 0;
  const worker = async () => {
    while (left > 0) {
      left -= 1;
      for (;;) {
        const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature } });
        await res.arrayBuffer();
        if (res.status === 200) break;
        if (res.status !== 503 || (refused += 1) > 200) throw new Error(`webhook-ingest answered ${res.status}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/**
 * CPU microseconds per request of one round, the bundle started with `env`, on a fresh virtual
 * host (queues that grow round after round would make each round slower than the one before)
 * with a stand-in for auth answering the webhook key.
 */
async function round(env: Record<string, string>, port: number): Promise<number> {
  const vhost = await freshVirtualHost('bench-tracing-cost');
  const authBroker = new Broker({ url: vhost.url, name: 'bench-auth', logger });
  const auth = new RpcServer(authBroker, { queue: Queues.authRpc, topology: SYSTEM_TOPOLOGY, producer: 'auth', methods: [rpcMethod(WebhookKeyRequest, async () => ({ consumerSecret: SECRET }))] });
  await auth.ready();
  const child: ChildProcess = spawn(process.execPath, ['dist/main.js'], {
    cwd: path.join(root, 'services', 'webhook-ingest'),
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), AMQP_URL: vhost.url, LOG_LEVEL: 'warn', ...env },
    stdio: 'ignore',
  });
  try {
    await waitForListening(`http://127.0.0.1:${port}/health/ready`);
    const delivery = directMessageReceived({ account: '4337869213', customer: { id: '9100000001', screenName: 'ana', name: 'Ana' }, text: 'where is my order 42?', eventId: '1800000000000000001' });
    const body = serializeLikePlatform(delivery);
    const url = `http://127.0.0.1:${port}/webhooks/bench`;
    await send(url, 500, body, sign(SECRET, body)); // warm-up: JIT, key cache, connections
    const before = cpuSeconds(child.pid!);
    await send(url, REQUESTS, body, sign(SECRET, body));
    return ((cpuSeconds(child.pid!) - before) / REQUESTS) * 1e6;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await auth.stop();
    await authBroker.close();
    // A broker restarted meanwhile by other work may refuse the deletion: the figure stands.
    await vhost.drop().catch((error: unknown) => console.warn(`virtual host not deleted: ${(error as Error).message.split('\n')[0]}`));
  }
}

async function main(): Promise<void> {
  await run(process.execPath, [path.join(root, 'infra', 'scripts', 'bundle.mjs')], { cwd: path.join(root, 'services', 'webhook-ingest') });
  const port = 41000 + Math.floor(Math.random() * 2000);
  const traced: number[] = [];
  const untraced: number[] = [];
  const variants = { disabled: { OTEL_SDK_DISABLED: 'true' }, traced: {} };
  for (let i = 0; i < ROUNDS; i += 1) {
    // Each pair in the other order than the one before, so neither is always second.
    const order = i % 2 === 0 ? (['disabled', 'traced'] as const) : (['traced', 'disabled'] as const);
    for (const variant of order) (variant === 'traced' ? traced : untraced).push(await round(variants[variant], port));
    console.log(`round ${i + 1} (${order.join(' then ')}): disabled ${untraced[i]!.toFixed(0)} µs, traced (no exporter) ${traced[i]!.toFixed(0)} µs of CPU per request`);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const cost = median(traced) - median(untraced);
  console.log(`median CPU per request: disabled ${median(untraced).toFixed(0)} µs, traced ${median(traced).toFixed(0)} µs; tracing costs ${cost.toFixed(0)} µs (${((cost / median(untraced)) * 100).toFixed(0)} %)`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
