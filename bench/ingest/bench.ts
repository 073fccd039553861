/**
 * webhook-ingest against a bare Express app, side by side in one run, on this machine's RabbitMQ.
 *
 * Bundles webhook-ingest as its image does (infra/scripts/bundle.mjs) and runs the bundle in
 * production mode, as a process of its own, on a fresh virtual host, with a stand-in for auth
 * answering the webhook key in this process. The anchor is bare-express.ts: the same body read
 * as raw bytes, 200 and the same JSON answered. wrk (Debian package `wrk`) drives each with the
 * same signed DM delivery over BENCH_CONNECTIONS connections (32) for BENCH_SECONDS (10), the
 * anchor first; the requests per second of each and their ratio are printed. webhook-ingest
 * answers 200 only after the broker confirmed the message into its durable quorum queues, so
 * every request it counts is a confirmed publish.
 *
 *   pnpm bench:ingest        (tsx bench/ingest/bench.ts)
 *
 * Settings: BENCH_CONNECTIONS, BENCH_SECONDS, BENCH_ROUNDS (1; with more, anchor and
 * webhook-ingest are measured in turn that many times and the ratio is of their totals),
 * BENCH_LOG_LEVEL (webhook-ingest's LOG_LEVEL: info, its production default),
 * BENCH_CPU_PROF=<dir> (both servers write V8 CPU profiles in <dir>/webhook-ingest and
 * <dir>/anchor as they stop; `tsx bench/ingest/profile.ts <file>` sums one up). Besides the
 * rates it prints the CPU time each process spent per request (from /proc), which the
 * machine's other work disturbs less than the rates. Bounded: wrk stops after its duration;
 * the run after the last.
 */
import { execFile, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
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
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Anchor and webhook-ingest measured in turn this many times; the ratio is of their totals, so a swing in the machine's other work weighs on both. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const logger = createLogger('bench-ingest', 'warn');
/** Ports of their own (41000 and up, a random offset), so runs beside other work on the machine do not collide. */
const ANCHOR_PORT = 41000 + Math.floor(Math.random() * 10000) * 2;
const INGEST_PORT = ANCHOR_PORT + 1;

/** The signed delivery both servers get: one DM, about 700 bytes, as the platform sends it. */
function signedDelivery(): { body: Buffer; signature: string } {
  const delivery = directMessageReceived({ account: '4337869213', customer: { id: '9100000001', screenName: 'ana', name: 'Ana' }, text: 'where is my order 42?', eventId: '1800000000000000001' });
  const body = serializeLikePlatform(delivery);
  return { body, signature: sign(SECRET, body) };
}

/** A wrk script posting the body with its headers. */
function wrkScript(body: Buffer, signature: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-ingest-'));
  const bodyFile = path.join(dir, 'body.json');
  writeFileSync(bodyFile, body);
  const file = path.join(dir, 'post.lua');
  const lines = [
    'wrk.method = "POST"',
    `local f = io.open("${bodyFile}", "rb")`,
    'wrk.body = f:read("*a")',
    'f:close()',
    'wrk.headers["content-type"] = "application/json"',
    `wrk.headers["${SIGNATURE_HEADER}"] = "${signature}"`,
  ];
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function wrk(url: string, script: string): Promise<{ rps: number; non2xx: number; p99: string }> {
  const { stdout } = await run('wrk', ['-t2', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--latency', '-s', script, url], { timeout: (SECONDS + 30) * 1000 });
  const rps = Number(/Requests\/sec:\s+([0-9.]+)/.exec(stdout)?.[1]);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+([0-9]+)/.exec(stdout)?.[1] ?? 0);
  const p99 = /\s99%\s+(\S+)/.exec(stdout)?.[1] ?? '?';
  if (!Number.isFinite(rps)) throw new Error(`wrk printed no rate:\n${stdout}`);
  return { rps, non2xx, p99 };
}

/** CPU time (user + system) a process has used so far, in ms; 0 where /proc cannot tell. */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (100 a second)
  } catch {
    return 0;
  }
}

/** The broker's Erlang VM on this machine, when there is one to look at. */
async function brokerPid(): Promise<number | undefined> {
  const { stdout } = await run('pgrep', ['-o', 'beam.smp']).catch(() => ({ stdout: '' }));
  return Number(stdout.trim()) || undefined;
}

/** wrk against `url`, with the CPU time per request of `pids` over the run, in µs. */
async function measure(url: string, script: string, pids: Record<string, number | undefined>) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  const result = await wrk(url, script);
  const requests = result.rps * SECONDS;
  const cpu = Object.entries(pids)
    .filter(([, pid]) => pid !== undefined)
    .map(([name, pid]) => `${name} ${(((cpuMs(pid) - before[name]!) * 1000) / requests).toFixed(0)} µs`)
    .join(', ');
  return { ...result, cpu };
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

function waitForListening(child: ChildProcess, url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = async () => {
      if (child.exitCode !== null) return reject(new Error(`${url}: the process exited (${child.exitCode})`));
      const answered = await fetch(url).then((r) => r.status > 0, () => false);
      if (answered) return resolve();
      if (Date.now() - started > 30_000) return reject(new Error(`${url}: not listening after 30 s`));
      setTimeout(() => void poll(), 200);
    };
    void poll();
  });
}

async function main(): Promise<void> {
  await run('wrk', ['--version']).catch((error: { code?: string }) => {
    if (error.code === 'ENOENT') throw new Error('wrk is missing: apt-get install wrk');
  });
  const ingestDir = path.join(root, 'services', 'webhook-ingest');
  await run(process.execPath, [path.join(root, 'infra', 'scripts', 'bundle.mjs')], { cwd: ingestDir });
  const vhost = await freshVirtualHost('bench-ingest');
  const authBroker = new Broker({ url: vhost.url, name: 'bench-auth', logger });
  const auth = new RpcServer(authBroker, { queue: Queues.authRpc, topology: SYSTEM_TOPOLOGY, producer: 'auth', methods: [rpcMethod(WebhookKeyRequest, async () => ({ consumerSecret: SECRET }))] });
  await auth.ready();
  const children: ChildProcess[] = [];
  try {
    const { body, signature } = signedDelivery();
    const script = wrkScript(body, signature);
    const profileDir = process.env.BENCH_CPU_PROF;
    const profiled = (name: string) => (profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir, name)}`] : []);
    const bare = fork(path.join(__dirname, 'bare-express.ts'), [], { env: { ...process.env, PORT: String(ANCHOR_PORT) }, execArgv: ['--import', 'tsx', ...profiled('anchor')], stdio: 'ignore' });
    children.push(bare);
    await waitForListening(bare, `http://127.0.0.1:${ANCHOR_PORT}/webhooks/bench`);
    const ingest = spawn(process.execPath, [...profiled('webhook-ingest'), 'dist/main.js'], {
      cwd: ingestDir,
      env: { ...process.env, NODE_ENV: 'production', PORT: String(INGEST_PORT), AMQP_URL: vhost.url, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' },
      stdio: 'ignore',
    });
    children.push(ingest);
    await waitForListening(ingest, `http://127.0.0.1:${INGEST_PORT}/health/live`);
    const load = () => os.loadavg().map((n) => n.toFixed(2)).join(' ');
    console.log(`ingest bench: ${body.length}-byte signed DM, ${CONNECTIONS} connections, ${SECONDS} s each; load ${load()}`);
    const broker = await brokerPid();
    let anchorRequests = 0;
    let ingestRequests = 0;
    let non2xx = 0;
    for (let round = 1; round <= ROUNDS; round += 1) {
      const anchor = await measure(`http://127.0.0.1:${ANCHOR_PORT}/webhooks/bench`, script, { process: bare.pid });
      const measured = await measure(`http://127.0.0.1:${INGEST_PORT}/webhooks/bench`, script, { process: ingest.pid, broker });
      const label = ROUNDS > 1 ? ` (round ${round})` : '';
      console.log(`bare express${label}:    ${anchor.rps.toFixed(0)} req/s (p99 ${anchor.p99}, non-2xx ${anchor.non2xx}); CPU per request: ${anchor.cpu}`);
      console.log(`webhook-ingest${label}:  ${measured.rps.toFixed(0)} req/s (p99 ${measured.p99}, non-2xx ${measured.non2xx}); CPU per request: ${measured.cpu}`);
      anchorRequests += anchor.rps * SECONDS;
      ingestRequests += measured.rps * SECONDS;
      non2xx += measured.non2xx;
    }
    console.log(`ratio: ${(ingestRequests / anchorRequests).toFixed(2)}; load after ${load()}; requests: anchor ${Math.round(anchorRequests)}, webhook-ingest ${Math.round(ingestRequests)}`);
    if (non2xx > 0) throw new Error('webhook-ingest answered something other than 200: the figure does not count confirmed deliveries only');
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map(exited)); // a CPU profile is written as the process exits
    await auth.stop();
    await authBroker.close();
    await vhost.drop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
