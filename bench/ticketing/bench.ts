/**
 * Ticketing throughput and latency, on the real RabbitMQ and PostgreSQL of this machine.
 *
 * Runs webhook-ingest, auth and ticketing against a fresh virtual host and fresh databases, and sends signed DM deliveries over HTTP to webhook-ingest, as the social
 * platform does. A trigger added to the bench database (not to the service's migrations)
 * sends a NOTIFY per activity row; PostgreSQL delivers it when the row's transaction commits,
 * which is the moment measured.
 *
 *   1. latency: after a warm-up (a first DM of each of the BENCH_CUSTOMERS customers), BENCH_DELIVERIES
 *      deliveries sent at a steady BENCH_RATE per second (300 by default; open loop), a share
 *      BENCH_NEW_SHARE (0.1) of them from customers never seen before (new conversations, tickets
 *      opened), the others joining the open tickets; per delivery, the time from webhook-ingest's
 *      HTTP 200 to the commit of its activity (p50, p99, max). Then the same count as fast as
 *      BENCH_CONCURRENCY senders can (saturation: the end-to-end rate, and the latency a queue adds).
 *      Deliveries are serialised and signed before each phase and sent with node:http over kept-alive
 *      connections, so the load generator takes as little as it can of the two cores it shares.
 *   2. throughput: with ticketing stopped, BENCH_BACKLOG deliveries are accepted and queued (DMs
 *      of the known customers, joining their tickets); then one ticketing process starts and
 *      turns the backlog into tickets. Rate = deliveries
 *      committed per second between its first and last commit: the deliveries/s printed.
 *   3. one large delivery: BENCH_LARGE_DMS DMs (5,000) of one customer in one signed delivery,
 *      followed by 9 single DMs of the same customer and then a DM for another account; the
 *      seconds from the large delivery accepted to its last DM committed, and the time the other
 *      account's DM took to commit meanwhile.
 *
 * Ticketing and webhook-ingest run in processes of their own (service-process.ts), as they do in
 * production, so the load generator and auth (in this process) do not take their CPU nor delay
 * the moments measured; with BENCH_SEPARATE=0 everything shares this one process (one core for
 * all JavaScript), as the first figures in RESULTS.md were measured.
 * BENCH_CPU_PROFILE_DIR=<dir> has the ticketing process write a V8 CPU profile per start there
 * (open it in Chrome DevTools or speedscope).
 * Throughout, ticketing's sessions are sampled every 50 ms for lock waits (`lockWaits` in the output).
 * BENCH_VIEW_COUNT_SLOTS=<n> spreads the views' counters over n rows per combination in the bench
 * database (the migration's 8 otherwise); 1 puts every ticket the deliveries open for the
 * account on one counters row (BENCH_NEW_SHARE=1: every delivery opens one).
 *
 *   pnpm bench:ticketing        (tsx bench/ticketing/bench.ts)
 *
 * Bounded: BENCH_TIMEOUT_MS (default 5 minutes) for the whole run.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freshDatabase, freshVirtualHost, type TestDatabase, type TestVirtualHost } from '@crm/testing';
import { createPool } from '../../libs/db/src';
import { createLogger } from '../../libs/logging/src';
import { sign, SIGNATURE_HEADER } from '../../libs/webhook-signature/src';
import { readConfig as readAuthConfig } from '../../services/auth/src/config';
import { startAuth } from '../../services/auth/src/service';
import { loadTicketingConfig } from '../../services/ticketing/src/config';
import { startTicketing } from '../../services/ticketing/src/service';
import { readConfig as readIngestConfig } from '../../services/webhook-ingest/src/config';
import { startWebhookIngest } from '../../services/webhook-ingest/src/service';
import { directMessageReceived, serializeLikePlatform } from '../../infra/simulators/social-platform/src/deliveries';

const settings = {
  deliveries: Number(process.env.BENCH_DELIVERIES ?? 3000),
  rate: Number(process.env.BENCH_RATE ?? 300),
  concurrency: Number(process.env.BENCH_CONCURRENCY ?? 8),
  backlog: Number(process.env.BENCH_BACKLOG ?? 5000),
  customers: Number(process.env.BENCH_CUSTOMERS ?? 500),
  /** The share of deliveries (after the warm-up) from a customer never seen before: a new conversation, a ticket opened. */
  newShare: Number(process.env.BENCH_NEW_SHARE ?? 0.1),
  largeDms: Number(process.env.BENCH_LARGE_DMS ?? 5000),
  timeoutMs: Number(process.env.BENCH_TIMEOUT_MS ?? 300_000),
  prefetch: process.env.ACTIVITY_PREFETCH ?? '100',
  transactions: process.env.ACTIVITY_TRANSACTIONS ?? '2',
  separate: process.env.BENCH_SEPARATE !== '0',
  /** Where the ticketing process writes its V8 CPU profiles (one per start), when set. */
  cpuProfileDir: process.env.BENCH_CPU_PROFILE_DIR,
  /** The slots the views' counters spread each combination over (ticketing's migration: 8); 1: one row per combination, every new ticket of the account on the same row. */
  viewCountSlots: process.env.BENCH_VIEW_COUNT_SLOTS === undefined ? undefined : Number(process.env.BENCH_VIEW_COUNT_SLOTS),
};

const round2 = (values: number[]) => values.map((value) => Math.round(value * 100) / 100);
/** The machine's load average (1, 5, 15 minutes) as the run starts: other work on it shows there. */
const loadBefore = round2(os.loadavg());

interface ServiceHandle {
  port: number;
  stop: () => Promise<void>;
}

/** Ticketing or webhook-ingest with `env` as its settings: in a child process (BENCH_SEPARATE, the default) or in this one. */
async function runService(name: 'ticketing' | 'webhook-ingest', env: Record<string, string>): Promise<ServiceHandle> {
  if (!settings.separate) {
    const service = name === 'ticketing' ? await startTicketing(loadTicketingConfig(env), { logger }) : await startWebhookIngest(readIngestConfig(env), { logger });
    return { port: service.port, stop: service.stop };
  }
  const profile = settings.cpuProfileDir && name === 'ticketing' ? ['--cpu-prof', `--cpu-prof-dir=${settings.cpuProfileDir}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', path.join(__dirname, 'service-process.ts'), name], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const ready = /ready (\d+)/.exec(output);
      if (ready) resolve(Number(ready[1]));
    });
    child.once('exit', (code) => reject(new Error(`the ${name} process exited (${code}) before it was ready`)));
  });
  return {
    port,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A delivery's bytes as the platform sends them, and their signature. */
interface Signed {
  bytes: Buffer;
  signature: string;
}
const signedOf = (delivery: object): Signed => {
  const bytes = serializeLikePlatform(delivery);
  return { bytes, signature: sign(CONSUMER_SECRET, bytes) };
};
/** webhook-ingest answered, and not 200: not retried. */
class WebhookRefused extends Error {}

const ACCOUNT = '8800000001';
const OTHER_ACCOUNT = '8800000002';
const ENV_NAME = 'bench';
const CONSUMER_SECRET = `bench-secret-${randomBytes(12).toString('hex')}`;
const TOKEN = `bench-token-${randomBytes(12).toString('hex')}`;
const logger = createLogger('bench', process.env.LOG_LEVEL ?? 'warn');

const deadline = setTimeout(() => {
  console.error(`bench: gave up after ${settings.timeoutMs} ms`);
  process.exit(2);
}, settings.timeoutMs);
deadline.unref();

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** Commit times of activities, by platform event id, from the NOTIFY the bench trigger sends (on commit). */
async function watchCommits(databaseUrl: string): Promise<{ committed: Map<string, number>; stop: () => Promise<void> }> {
  const pool = createPool(databaseUrl, { max: 1, applicationName: 'bench' });
  const client = await pool.connect();
  await client.query(`
    CREATE OR REPLACE FUNCTION bench_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify('bench_activity', NEW.platform_event_id); RETURN NEW; END $$;
    DROP TRIGGER IF EXISTS bench_notify ON activities;
    CREATE TRIGGER bench_notify AFTER INSERT ON activities FOR EACH ROW EXECUTE FUNCTION bench_notify();`);
  const committed = new Map<string, number>();
  client.on('notification', (message) => {
    if (message.payload) committed.set(message.payload, performance.now());
  });
  await client.query('LISTEN bench_activity');
  return {
    committed,
    stop: async () => {
      client.release();
      await pool.end();
    },
  };
}

/** The views' counters spread over `slots` rows per combination in the bench database instead of the migration's 8 (BENCH_VIEW_COUNT_SLOTS). */
async function spreadViewCounts(databaseUrl: string, slots: number): Promise<void> {
  const pool = createPool(databaseUrl, { max: 1, applicationName: 'bench' });
  try {
    await pool.query(`
      CREATE OR REPLACE FUNCTION ticket_view_counts_add(p_account text, p_status text, p_queue text, p_folder text, p_assignee text, p_breached boolean, p_delta integer)
      RETURNS void LANGUAGE sql AS $$
        INSERT INTO ticket_view_counts AS c (account_id, status, queue, folder, assignee, breached, slot, tickets)
        VALUES (p_account, p_status, p_queue, p_folder, p_assignee, p_breached, pg_backend_pid() % ${Math.max(1, Math.floor(slots))}, p_delta)
        ON CONFLICT (account_id, status, queue, folder, assignee, breached, slot) DO UPDATE SET tickets = c.tickets + excluded.tickets
      $$`);
  } finally {
    await pool.end();
  }
}

/**
 * Samples ticketing's sessions every 50 ms until stopped: how often one of them waited on a lock
 * (a row another transaction holds until it commits: a hot row such as a counter every delivery
 * changes). `waiting`: sessions found waiting, over all samples.
 */
function sampleLockWaits(databaseUrl: string): { stop: () => Promise<{ samples: number; samplesWithAWait: number; waiting: number }> } {
  const pool = createPool(databaseUrl, { max: 1, applicationName: 'bench' });
  const seen = { samples: 0, samplesWithAWait: 0, waiting: 0 };
  let sampling = true;
  const loop = (async () => {
    while (sampling) {
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND application_name <> 'bench'`,
      );
      seen.samples += 1;
      seen.waiting += rows[0]!.n;
      if (rows[0]!.n > 0) seen.samplesWithAWait += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    stop: async () => {
      sampling = false;
      await loop;
      await pool.end();
      return seen;
    },
  };
}

async function waitUntil(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Resolves once ticketing's outbox is empty: every CRM event of what was committed so far published. */
async function outboxEmptied(databaseUrl: string): Promise<void> {
  const pool = createPool(databaseUrl, { max: 1, applicationName: 'bench' });
  try {
    while ((await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox')).rows[0]!.n > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    await pool.end();
  }
}

/** Phase 3: the large delivery, 9 more DMs of its customer, then another account's DM; what each took to commit. */
async function sendLarge(post: (delivery: object) => Promise<number>, committed: Map<string, number>) {
  const customer = { id: '9100000001', screenName: 'bulk_customer' };
  const t0 = Date.now() - settings.largeDms * 1000;
  const dms = Array.from({ length: settings.largeDms }, (_, i) => directMessageReceived({ account: ACCOUNT, customer, text: `order ${i} is late`, createdAt: t0 + i * 1000 }));
  const delivery = { ...dms[0]!, direct_message_events: dms.flatMap((dm) => dm.direct_message_events) };
  const bytes = serializeLikePlatform(delivery).length;
  const largeAccepted = await post(delivery);
  const more = Array.from({ length: 9 }, (_, i) => directMessageReceived({ account: ACCOUNT, customer, text: `and another thing (${i})` }));
  await Promise.all(more.map(post));
  await new Promise((resolve) => setTimeout(resolve, 100));
  const other = directMessageReceived({ account: OTHER_ACCOUNT, customer: { id: '9100000002', screenName: 'someone_else' }, text: 'where is my parcel?' });
  const otherAccepted = await post(other);
  const ids = (d: { direct_message_events: { id: string }[] }[]) => d.flatMap((x) => x.direct_message_events.map((e) => e.id));
  await waitUntil(() => [...ids(dms), ...ids(more), ...ids([other])].every((id) => committed.has(id)));
  const lastLarge = Math.max(...ids(dms).map((id) => committed.get(id)!));
  const otherCommitted = committed.get(ids([other])[0]!)!;
  return {
    dms: settings.largeDms,
    bytes,
    secondsToCommit: Math.round((lastLarge - largeAccepted) / 10) / 100,
    otherAccountDmMs: Math.round(otherCommitted - otherAccepted),
    otherCommittedBeforeLarge: otherCommitted < lastLarge,
  };
}

/** Posts signed bytes over a kept-alive connection; resolves with the moment webhook-ingest's 200 arrived. */
function postSigned(webhook: string, agent: http.Agent, { bytes, signature }: Signed): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(webhook, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': bytes.length, [SIGNATURE_HEADER]: signature } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const acceptedAt = performance.now();
        if (response.statusCode === 200) resolve(acceptedAt);
        else reject(new WebhookRefused(`webhook answered ${response.statusCode}: ${Buffer.concat(chunks).toString('utf8')}`));
      });
    });
    request.on('error', reject);
    request.end(bytes);
  });
}

type Sender = ReturnType<typeof webhookSender>;
type Sent = { eventId: string; acceptedAt: number }[];

/** Webhook accepted -> ticket committed: paced at the configured rate, then saturated; after a warm-up. */
async function measureLatency(sender: Pick<Sender, 'nextDeliveries' | 'sendMany' | 'sendAtRate'>, committed: Map<string, number>, ticketingDbUrl: string) {
  const { nextDeliveries, sendMany, sendAtRate } = sender;
  const latencyOf = (batch: Sent) => {
    const sorted = batch.map((s) => Math.max(0, committed.get(s.eventId)! - s.acceptedAt)).sort((a, b) => a - b);
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return { p50Ms: round(percentile(sorted, 50)), p99Ms: round(percentile(sorted, 99)), maxMs: round(sorted.at(-1)!) };
  };
  // Warm-up: a first DM of every customer (their conversations have tickets, the processes' code is compiled).
  const warmup = await sendMany(nextDeliveries(settings.customers, 0), settings.concurrency);
  await waitUntil(() => warmup.every((s) => committed.has(s.eventId)));
  await outboxEmptied(ticketingDbUrl); // the warm-up's CRM events out too: the steady phase starts steady
  const paced = await sendAtRate(nextDeliveries(settings.deliveries), settings.rate);
  await waitUntil(() => paced.every((s) => committed.has(s.eventId)));
  const started = performance.now();
  const saturated = await sendMany(nextDeliveries(settings.deliveries), settings.concurrency);
  await waitUntil(() => saturated.every((s) => committed.has(s.eventId)));
  const lastCommit = Math.max(...saturated.map((s) => committed.get(s.eventId)!));
  const endToEndRate = settings.deliveries / ((lastCommit - started) / 1000);
  return {
    latencyAtRate: { deliveries: settings.deliveries, perSecond: settings.rate, ...latencyOf(paced) },
    saturated: { deliveries: settings.deliveries, concurrency: settings.concurrency, endToEndDeliveriesPerSecond: Math.round(endToEndRate), ...latencyOf(saturated) },
  };
}

/** How many tickets and activities the run left. */
async function countRows(databaseUrl: string): Promise<{ tickets: number; activities: number } | undefined> {
  const counting = createPool(databaseUrl, { max: 1, applicationName: 'bench' });
  const { rows } = await counting.query<{ tickets: number; activities: number }>(
    'SELECT (SELECT count(*)::int FROM tickets) AS tickets, (SELECT count(*)::int FROM activities) AS activities',
  );
  await counting.end();
  return rows[0];
}

/** Sends signed DM deliveries to webhook-ingest as the platform does: one at a time, many at once, or at a fixed rate. */
function webhookSender(ingestPort: number) {
  const webhook = `http://127.0.0.1:${ingestPort}/webhooks/${ENV_NAME}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  /**
   * Posts a signed delivery; resolves when webhook-ingest answered 200. A connection that failed (reset, connect
   * timeout on a busy machine) is tried again, as the platform retries a webhook; the same bytes are the same
   * delivery, recorded once.
   */
  async function post(delivery: Signed | object): Promise<number> {
    const signed = 'signature' in delivery ? (delivery as Signed) : signedOf(delivery);
    const attempt = () => postSigned(webhook, agent, signed);
    const again = (error: unknown) => (error instanceof WebhookRefused ? Promise.reject(error) : attempt());
    return attempt().catch(again).catch(again);
  }
  let sequence = 0;
  /**
   * The next `count` DM deliveries, signed ahead so that sending costs the machine as little as it can (the platform
   * signs elsewhere): from the BENCH_CUSTOMERS customers in turn, every 1/BENCH_NEW_SHARE-th from a customer never
   * seen before (a new conversation: a ticket opened).
   */
  function nextDeliveries(count: number, newShare = settings.newShare): (Signed & { eventId: string })[] {
    const every = newShare > 0 ? Math.round(1 / newShare) : 0;
    return Array.from({ length: count }, () => {
      sequence += 1;
      const fresh = every > 0 && sequence % every === 0;
      const n = fresh ? settings.customers + sequence : sequence % settings.customers;
      const customer = { id: String(9_000_000_000 + n), screenName: `customer${n}` };
      const delivery = directMessageReceived({ account: ACCOUNT, customer, text: `where is my order ${sequence}?` });
      return { eventId: delivery.direct_message_events[0]!.id, ...signedOf(delivery) };
    });
  }
  async function sendMany(deliveries: (Signed & { eventId: string })[], concurrency: number): Promise<{ eventId: string; acceptedAt: number }[]> {
    const sent: { eventId: string; acceptedAt: number }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < deliveries.length) {
          const delivery = deliveries[next]!;
          next += 1;
          sent.push({ eventId: delivery.eventId, acceptedAt: await post(delivery) });
        }
      }),
    );
    return sent;
  }

  /** Sends the deliveries at a fixed rate, whatever the answers' pace (as the platform does). */
  async function sendAtRate(deliveries: (Signed & { eventId: string })[], perSecond: number): Promise<{ eventId: string; acceptedAt: number }[]> {
    const start = performance.now();
    const pending: Promise<{ eventId: string; acceptedAt: number }>[] = [];
    for (const [i, delivery] of deliveries.entries()) {
      const wait = start + (i * 1000) / perSecond - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      pending.push(post(delivery).then((acceptedAt) => ({ eventId: delivery.eventId, acceptedAt })));
    }
    return Promise.all(pending);
  }
  return { post, nextDeliveries, sendMany, sendAtRate };
}

/** auth, with no platform behind it: the bench only needs its webhook key for webhook-ingest. */
function startBenchAuth(common: Record<string, string>, databaseUrl: string) {
  return startAuth(
    readAuthConfig({
      ...common,
      DATABASE_URL: databaseUrl,
      SOCIAL_API_URL: 'http://127.0.0.1:9',
      SOCIAL_CONSUMER_KEY: 'bench-consumer-key',
      SOCIAL_CONSUMER_SECRET: CONSUMER_SECRET,
      SOCIAL_OAUTH2_CLIENT_ID: 'oauth2-client-id',
      SOCIAL_OAUTH2_CLIENT_SECRET: 'oauth2-client-secret',
      SOCIAL_ENV_NAME: ENV_NAME,
      PUBLIC_WEBHOOK_URL: `http://127.0.0.1:9/webhooks/${ENV_NAME}`,
      CREDENTIALS_KEY: randomBytes(32).toString('base64'),
      CRM_API_TOKENS: TOKEN,
    }),
    { logger },
  );
}

/** Both accounts configured in ticketing (tickets opened for their DMs). */
async function configureAccounts(ticketingPort: number): Promise<void> {
  for (const account of [ACCOUNT, OTHER_ACCOUNT]) {
    const put = await fetch(`http://127.0.0.1:${ticketingPort}/v1/partner-configs/${account}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pageName: 'Bench' }),
    });
    if (put.status !== 201) throw new Error(`partner configuration: HTTP ${put.status}`);
  }
}

async function main(): Promise<void> {
  const cleanup: (() => Promise<void>)[] = [];
  let vhost: TestVirtualHost | undefined;
  const databases: TestDatabase[] = [];
  try {
    vhost = await freshVirtualHost('bench');
    databases.push(await freshDatabase('bench_auth'), await freshDatabase('bench_ticketing'));
    const [authDb, ticketingDb] = databases as [TestDatabase, TestDatabase];
    const common = { NODE_ENV: 'production', PORT: '0', AMQP_URL: vhost.url, LOG_LEVEL: 'warn' };
    const auth = await startBenchAuth(common, authDb.url);
    cleanup.unshift(auth.stop);
    const ingest = await runService('webhook-ingest', { ...common, BODY_LIMIT: '4mb' });
    cleanup.unshift(ingest.stop);
    const ticketingEnv = { ...common, DATABASE_URL: ticketingDb.url, CRM_API_TOKENS: TOKEN, ACTIVITY_PREFETCH: settings.prefetch, ACTIVITY_TRANSACTIONS: settings.transactions };
    let ticketing = await runService('ticketing', ticketingEnv);
    let stopTicketing = ticketing.stop;
    cleanup.unshift(() => stopTicketing());

    await configureAccounts(ticketing.port);
    if (settings.viewCountSlots !== undefined) await spreadViewCounts(ticketingDb.url, settings.viewCountSlots);

    const { post, nextDeliveries, sendMany, sendAtRate } = webhookSender(ingest.port);
    const watch = await watchCommits(ticketingDb.url);
    cleanup.push(watch.stop);
    const locks = sampleLockWaits(ticketingDb.url);
    const latency = await measureLatency({ nextDeliveries, sendMany, sendAtRate }, watch.committed, ticketingDb.url);

    // 2. Throughput of one ticketing process over a backlog.
    await ticketing.stop();
    stopTicketing = async () => undefined;
    // Every conversation of the backlog has its ticket, as in the figures this one is compared with (RESULTS.md).
    const backlog = await sendMany(nextDeliveries(settings.backlog, 0), 16);
    ticketing = await runService('ticketing', ticketingEnv);
    stopTicketing = ticketing.stop;
    await waitUntil(() => backlog.every((s) => watch.committed.has(s.eventId)));
    const commits = backlog.map((s) => watch.committed.get(s.eventId)!).sort((a, b) => a - b);
    const window = (commits.at(-1)! - commits[0]!) / 1000;
    const backlogRate = (commits.length - 1) / window;
    // 3. One large delivery in one conversation, the same customer writing on, another account's DM meanwhile.
    const large = await sendLarge(post, watch.committed);
    const database = await countRows(ticketingDb.url);
    const lockWaits = await locks.stop();

    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    console.log(
      JSON.stringify(
        {
          date: new Date().toISOString(),
          machine: { cores: os.cpus().length, cpu, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version, loadAverageBefore: loadBefore, loadAverageAfter: round2(os.loadavg()) },
          settings,
          ...latency,
          throughput: { backlog: settings.backlog, customers: settings.customers, seconds: Math.round(window * 100) / 100, deliveriesPerSecond: Math.round(backlogRate) },
          largeDelivery: large,
          lockWaits,
          database,
        },
        null,
        2,
      ),
    );
  } finally {
    for (const step of cleanup) await step().catch((error: unknown) => console.error('stop failed', error));
    await Promise.all([...databases.map((db) => db.drop()), vhost?.drop()]);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
