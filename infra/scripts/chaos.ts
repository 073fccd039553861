/**
 * `pnpm chaos`: sends N signed DM deliveries to webhook-ingest, as the platform would
 * (retrying what was not answered 200), while each service is killed with SIGKILL and
 * restarted and RabbitMQ and PostgreSQL restart; then counts what the tickets hold.
 *   accepted  deliveries answered 200 at least once
 *   lost      accepted DMs with no activity in ticketing
 *   doubled   DMs recorded more than once, or conversations with more than one ticket
 * The deliveries are spread over one round of every disruption (and one interval more), so each
 * disruption meets traffic however fast the services record it.
 * Runs on a fresh virtual host and fresh databases; stops by itself; exit code 1 when
 * anything was lost or doubled, or a kind of disruption did not happen. Options:
 * --deliveries N (2000), --senders N (100), --interval MS between disruptions (4000),
 * --no-server-restarts (services only).
 * It restarts the machine's RabbitMQ and PostgreSQL: run it on a machine of your own.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ACTIVITY_PARTITION_QUEUES } from '@crm/contracts';
import amqplib from 'amqplib';
import pg from 'pg';
import { LOCAL_DEV } from '@crm/config';
import { freePort, freshDatabase, freshVirtualHost, testPool, type TestDatabase, type TestVirtualHost } from '@crm/testing';
import { directMessageReceived, serializeLikePlatform } from '../simulators/social-platform/src/deliveries';
import { sign, SIGNATURE_HEADER } from '../../libs/webhook-signature/src';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');
const ACCOUNT = '7000000001';
const ENV_NAME = 'chaos';

interface Options {
  deliveries: number;
  senders: number;
  intervalMs: number;
  serverRestarts: boolean;
}

function readOptions(argv: string[]): Options {
  const value = (name: string, fallback: number) => {
    const at = argv.indexOf(`--${name}`);
    const parsed = at >= 0 ? Number(argv[at + 1]) : fallback;
    if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`--${name} must be a whole number of at least 1`);
    return parsed;
  };
  return { deliveries: value('deliveries', 2000), senders: value('senders', 100), intervalMs: value('interval', 4000), serverRestarts: !argv.includes('--no-server-restarts') };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


interface Service {
  name: string;
  dir: string;
  port: number;
  env: Record<string, string>;
  child?: ChildProcess;
}

/**
 * The service runs in one Node process (tsx as a loader, not its CLI, which would run the
 * service in a child of its own): SIGKILL must reach the process that holds the connections.
 */
function start(service: Service): void {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: join(root, service.dir),
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'error', SOCIAL_ENV_NAME: ENV_NAME, ...service.env, PORT: String(service.port) },
    stdio: 'ignore',
  });
  service.child = child;
}

async function kill(service: Service): Promise<void> {
  const child = service.child;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function waitReady(service: Service, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fetch(`http://127.0.0.1:${service.port}/health/ready`).then((res) => res.ok, () => false)) return;
    await sleep(250);
  }
  throw new Error(`${service.name} did not become ready on port ${service.port}`);
}

/** One disruption after another, round robin, until stopped. */
function disruptions(services: Service[], options: Options) {
  const done: string[] = [];
  const postgresVersion = readdirSync('/etc/postgresql')[0];
  const actions: [string, () => Promise<void>][] = [
    ...services.map((service): [string, () => Promise<void>] => [`kill ${service.name}`, async () => {
      await kill(service);
      await sleep(300);
      start(service);
    }]),
    ...(options.serverRestarts
      ? ([
          ['restart RabbitMQ', async () => {
            await run('rabbitmqctl', ['stop_app']);
            await sleep(1500);
            await run('rabbitmqctl', ['start_app']);
          }],
          ['restart PostgreSQL', async () => void (await run('pg_ctlcluster', ['--skip-systemctl-redirect', postgresVersion!, 'main', 'restart', '-m', 'fast']))],
        ] as [string, () => Promise<void>][])
      : []),
  ];
  let stopped = false;
  const loop = (async () => {
    for (let i = 0; !stopped; i += 1) {
      await sleep(options.intervalMs);
      if (stopped) break;
      const [name, act] = actions[i % actions.length]!;
      await act().catch((error: Error) => console.error(`  ${name} failed: ${error.message}`));
      done.push(name);
    }
  })();
  return { done, kinds: actions.length, stop: async () => { stopped = true; await loop; } };
}

/** Sends one delivery until webhook-ingest answers 200 (the platform retries too), at most `attempts` times. */
async function deliver(url: string, body: Buffer, attempts = 60): Promise<boolean> {
  const signature = sign(LOCAL_DEV.consumerSecret, body);
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const answer = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature } }).then((res) => res.status, () => 0);
    if (answer === 200) return true;
    await sleep(Math.min(2000, 100 * attempt));
  }
  return false;
}

/** The DMs to send: `senders` conversations; every 20th event is sent twice (a duplicate webhook). */
function plannedDeliveries(options: Options): { eventId: string; body: Buffer }[] {
  const planned: { eventId: string; body: Buffer }[] = [];
  const start = Date.now();
  for (let i = 0; i < options.deliveries; i += 1) {
    const eventId = String(9_000_000_000_000_000_000n + BigInt(start) * 1000n + BigInt(i));
    const customer = { id: String(8_000_000_000 + (i % options.senders)), screenName: `chaos_${i % options.senders}` };
    const body = serializeLikePlatform(directMessageReceived({ account: { id: ACCOUNT, screenName: 'chaos_support' }, customer, text: `message ${i}`, eventId, createdAt: start + i }));
    planned.push({ eventId, body });
    if (i % 20 === 0) planned.push({ eventId, body });
  }
  return planned;
}

/**
 * Sends every planned delivery, 16 at a time, spread over at least `spreadOverMs` (delivery i
 * not before its share of that time), so that the disruptions happen while traffic flows
 * however fast the services record it.
 */
async function sendAll(url: string, planned: { eventId: string; body: Buffer }[], spreadOverMs: number, concurrency = 16) {
  const accepted = new Set<string>();
  let refused = 0;
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    for (let i = next++; i < planned.length; i = next++) {
      const { eventId, body } = planned[i]!;
      const due = started + (spreadOverMs * i) / planned.length;
      if (due > Date.now()) await sleep(due - Date.now());
      if (await deliver(url, body)) accepted.add(eventId);
      else refused += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { accepted, refused };
}

async function settle(ticketingDb: pg.Pool, expected: number, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const count = await ticketingDb.query<{ n: number }>(`SELECT count(DISTINCT platform_event_id)::int AS n FROM activities WHERE account_id = $1`, [ACCOUNT]).then((r) => r.rows[0]!.n, () => -1);
    if (count >= expected) return;
    await sleep(500);
  }
}

async function count(ticketingDb: pg.Pool, accepted: Set<string>) {
  const recorded = await ticketingDb.query<{ platform_event_id: string; n: number }>(
    `SELECT platform_event_id, count(*)::int AS n FROM activities WHERE account_id = $1 GROUP BY platform_event_id`,
    [ACCOUNT],
  );
  const seen = new Map(recorded.rows.map((row) => [row.platform_event_id, row.n]));
  const tickets = await ticketingDb.query<{ n: number }>(`SELECT count(*)::int AS n FROM tickets WHERE account_id = $1 GROUP BY conversation_key HAVING count(*) > 1`, [ACCOUNT]);
  return {
    lost: [...accepted].filter((id) => !seen.has(id)).length,
    doubledActivities: [...seen.values()].filter((n) => n > 1).length,
    doubledTickets: tickets.rowCount ?? 0,
  };
}

/** Messages left in the dead-letter queues of ticketing's activity partitions on the run's virtual host. */
async function deadLetters(url: string): Promise<number> {
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createChannel();
    let count = 0;
    for (const queue of ACTIVITY_PARTITION_QUEUES) count += (await channel.checkQueue(`${queue}.dlq`)).messageCount;
    return count;
  } finally {
    await connection.close();
  }
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const vhost: TestVirtualHost = await freshVirtualHost('chaos');
  const databases: TestDatabase[] = await Promise.all(['chaos_auth', 'chaos_ticketing'].map((name) => freshDatabase(name)));
  const [authDb, ticketingDb] = databases as [TestDatabase, TestDatabase];
  const [authPort, ticketingPort, ingestPort] = [await freePort(), await freePort(), await freePort()];
  const services: Service[] = [
    { name: 'auth', dir: 'services/auth', port: authPort, env: { AMQP_URL: vhost.url, DATABASE_URL: authDb.url, WEBHOOK_CHECK_INTERVAL_MS: '0' } },
    { name: 'ticketing', dir: 'services/ticketing', port: ticketingPort, env: { AMQP_URL: vhost.url, DATABASE_URL: ticketingDb.url } },
    { name: 'webhook-ingest', dir: 'services/webhook-ingest', port: ingestPort, env: { AMQP_URL: vhost.url } },
  ];
  const pool = testPool(ticketingDb.url, { max: 2 }); // hears the ends of its connections when PostgreSQL restarts on purpose
  const started = Date.now();
  try {
    for (const service of services) start(service);
    await Promise.all(services.map((service) => waitReady(service)));
    const configured = await fetch(`http://127.0.0.1:${ticketingPort}/v1/partner-configs/${ACCOUNT}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${LOCAL_DEV.crmToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pageName: 'Chaos Support' }),
    });
    if (!configured.ok) throw new Error(`configuring the account answered ${configured.status}`);

    const planned = plannedDeliveries(options);
    console.log(`chaos: ${options.deliveries} DMs (${planned.length} deliveries with duplicates) from ${options.senders} senders, a disruption every ${options.intervalMs} ms`);
    const chaos = disruptions(services, options);
    // One round of every disruption (each takes up to about 2 s besides its interval) and one more interval, while deliveries arrive.
    const { accepted, refused } = await sendAll(`http://127.0.0.1:${ingestPort}/webhooks/${ENV_NAME}`, planned, (chaos.kinds + 1) * (options.intervalMs + 2000));
    await chaos.stop();
    for (const service of services) if (service.child?.exitCode !== null) start(service);
    await Promise.all(services.map((service) => waitReady(service)));
    await settle(pool, accepted.size);
    const result = await count(pool, accepted);
    const report = { accepted: accepted.size, refused, ...result, deadLetters: await deadLetters(vhost.url), disruptions: chaos.done.length, seconds: Math.round((Date.now() - started) / 1000) };
    console.log(JSON.stringify(report));
    console.log(`disruptions: ${[...new Set(chaos.done)].map((name) => `${name} x${chaos.done.filter((d) => d === name).length}`).join(', ')}`);
    const missed = chaos.kinds - new Set(chaos.done).size;
    if (missed > 0) console.error(`${missed} kind(s) of disruption did not happen while deliveries arrived: a longer run (--deliveries) or a shorter --interval tests them`);
    process.exitCode = result.lost > 0 || result.doubledActivities > 0 || result.doubledTickets > 0 || missed > 0 ? 1 : 0;
  } finally {
    await Promise.all(services.map((service) => kill(service)));
    await pool.end();
    await Promise.all([...databases.map((db) => db.drop()), vhost.drop()]);
  }
}

main().catch((error: Error) => {
  console.error(`chaos: ${error.message}`);
  process.exit(1);
});
