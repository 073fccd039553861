/**
 * `pnpm bench:reads`: ticketing's reads at a big brand's size. Loads a year of data through
 * ticketing's own schema (its migrations, then set-based SQL: generate_series) into a database
 * of its own (created for the run, dropped after), starts ticketing in a process of its own, and
 * measures each read alone (list, filters, search, detail, the views' counts) and the list while
 * four searches run; prints the plans (`EXPLAIN (ANALYZE, BUFFERS)`) of the filters, the views'
 * counts and the searches, built by ticketing's own query code, and ticketing's memory (VmRSS and
 * VmHWM of its process, idle and under the load). The data is loaded before the migration of the
 * open work's indexes (INDEXES_MIGRATION): the filters' plans are printed without them, then the
 * migration runs on the loaded tickets (its time printed) and every plan is printed with them.
 *
 * Sizes at BENCH_SCALE=1 (the default): 1,000 accounts, 1,000,000 tickets (the ten biggest
 * accounts 50,000 each), 5 activities a ticket (5,000,000), 300,000 contacts, 2 SLA timers a
 * ticket (2,000,000). BENCH_SCALE=0.02 loads 2% of each. BENCH_SAMPLES: requests per read (50).
 * The last line: `reads: list p99 X ms, filters p99 Y ms, search p99 Z ms, detail p99 W ms, list p99 under search V ms`.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../libs/db/src';
import { freshDatabase, freshVirtualHost, type TestDatabase, type TestVirtualHost } from '../../libs/testing/src';
import type { TicketStatus } from '@crm/contracts';
import type { Queryable } from '../../services/ticketing/src/adapters/db/queryable';
import { TicketQueries, type TicketFilter } from '../../services/ticketing/src/adapters/db/ticket-queries';
import { parseTicketSearch } from '../../services/ticketing/src/domain/ticket-search';

const SCALE = Number(process.env.BENCH_SCALE ?? '1');
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? '50');
const TOKEN = 'bench-reads-token';
const MIGRATIONS = path.join(__dirname, '../../services/ticketing/migrations');
/** The migration of the open work's indexes: the data is loaded before it, so the plans show each filter without and with them. */
const INDEXES_MIGRATION = '1781300100000_open-work-indexes.sql';

const sizes = {
  accounts: Math.max(20, Math.round(1_000 * SCALE)),
  tickets: Math.max(1_000, Math.round(1_000_000 * SCALE)),
  contacts: Math.max(300, Math.round(300_000 * SCALE)),
  activitiesPerTicket: 5,
};
/** Tickets loaded per statement: the search triggers refresh each batch's tickets once. */
const BATCH = 50_000;

const log = (line: string) => process.stdout.write(`${line}\n`);

/**
 * Tickets `from`..`to` of the year, oldest first. As in a support team's year: the tickets of
 * the last 4% of it (about two weeks) are 40% open and 20% pending, older ones closed but for
 * 0.3% left open (those breached their SLA; a seventh of the recent open ones did too); 1% in
 * the escalations queue, a seventh in the vip folder; a quarter assigned to one of 200 agents.
 */
async function loadTickets(pool: pg.Pool, from: number, to: number): Promise<void> {
  const { accounts, tickets, contacts } = sizes;
  await pool.query(
    `WITH numbered AS (
       SELECT n, account_no, h, n >= $5 * 0.96 AS recent,
              CASE WHEN n >= $5 * 0.96 THEN (CASE WHEN h % 10 < 4 THEN 'open' WHEN h % 10 < 6 THEN 'pending' ELSE 'closed' END)
                   WHEN h % 1000 < 3 THEN 'open' ELSE 'closed' END AS status
         FROM (SELECT n, CASE WHEN n % 2 = 0 THEN (n / 2) % 10 ELSE 10 + n % ($3 - 10) END AS account_no, abs(hashint4(n)) AS h
                 FROM generate_series($1::int, $2::int) n) generated)
     INSERT INTO tickets (id, account_id, status, channel, queue, folder, contact_id, conversation_key, subject, created_at, updated_at, last_activity_at, assignee, priority, sla_breached)
     SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid, (7000000000 + account_no)::text, status,
            CASE WHEN h % 3 = 0 THEN 'public' ELSE 'dm' END,
            CASE WHEN h % 100 = 0 THEN 'escalations' WHEN h % 5 = 0 THEN 'billing' ELSE 'social' END, CASE WHEN h % 7 = 3 THEN 'vip' ELSE 'inbox' END,
            (SELECT c.id FROM contacts c WHERE c.account_id = (7000000000 + account_no)::text AND c.platform_user_id = (100000000 + account_no + (n % greatest(1, $4 / $3)) * $3)::text),
            'conv:' || n, 'Ticket ' || n || ' about ' || (ARRAY['a parcel','an invoice','a refund','a delivery','a login'])[1 + n % 5],
            now() - interval '365 days' + (n::float / $5) * interval '365 days',
            now() - interval '365 days' + (n::float / $5) * interval '365 days' + interval '2 hours',
            now() - interval '365 days' + (n::float / $5) * interval '365 days' + interval '2 hours',
            CASE WHEN h % 4 = 0 THEN 'agent' || (h % 200) || '@brand.example' END, 'normal', status <> 'closed' AND (NOT recent OR h % 7 = 0)
       FROM numbered`,
    [from, to, accounts, contacts, tickets],
  );
}

/** Accounts are '7000000000' + n: n < 10 are the ten biggest (half of all tickets, 50,000 each at full size). */
async function load(pool: pg.Pool): Promise<void> {
  const started = Date.now();
  const { accounts, tickets, contacts } = sizes;
  await pool.query(`INSERT INTO accounts (account_id, status, status_changed_at) SELECT (7000000000 + n)::text, 'connected', now() FROM generate_series(0, $1 - 1) n`, [accounts]);
  await pool.query(
    `INSERT INTO contacts (account_id, platform_user_id, screen_name, name)
     SELECT (7000000000 + n % $2)::text, (100000000 + n)::text, 'user_' || n, 'Customer ' || n FROM generate_series(0, $1 - 1) n`,
    [contacts, accounts],
  );
  for (let from = 0; from < tickets; from += BATCH) {
    const to = Math.min(tickets, from + BATCH) - 1;
    await loadTickets(pool, from, to);
    // Five activities a ticket: words of a support conversation; 0.1% mention a chargeback, 10% an order number, 5% a handle; half in English.
    await pool.query(
      `INSERT INTO activities (account_id, ticket_id, kind, direction, text, platform_event_id, occurred_at, raw)
       SELECT t.account_id, t.id, 'dm_received', CASE WHEN k % 2 = 0 THEN 'inbound' ELSE 'outbound' END,
              (ARRAY['hello, my parcel has not arrived yet','we are sorry, let me check that for you','the package was damaged on delivery',
                     'I would like a refund please','your refund is on its way','thanks for waiting, anything else?','the courier left it at the wrong door'])[1 + (n + k * 3) % 7]
              || CASE WHEN (n * 5 + k) % 1000 = 0 THEN ' I will file a chargeback' ELSE '' END
              || CASE WHEN k = 0 AND n % 10 = 0 THEN ' order #' || (1000000 + n) ELSE '' END
              || CASE WHEN k = 1 AND n % 20 = 0 THEN ' cc @helper_' || (n % 500) ELSE '' END,
              (n::bigint * 10 + k)::text, t.created_at + k * interval '10 minutes',
              CASE WHEN n % 2 = 0 THEN '{"lang":"en"}'::jsonb ELSE '{}'::jsonb END
         FROM generate_series($1::int, $2::int) n
         JOIN tickets t ON t.id = ('00000000-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid
         CROSS JOIN generate_series(0, ${sizes.activitiesPerTicket - 1}) k`,
      [from, to],
    );
    await pool.query(
      `INSERT INTO sla_timers (ticket_id, clock, stage, due_at, fired_at)
       SELECT t.id, clock, 'breach', t.created_at + CASE clock WHEN 'first_response' THEN interval '1 hour' ELSE interval '1 day' END,
              CASE WHEN t.status = 'closed' THEN t.created_at END
         FROM tickets t CROSS JOIN unnest(ARRAY['first_response', 'resolution']) clock
        WHERE t.id BETWEEN ('00000000-0000-4000-8000-' || lpad(to_hex($1::int), 12, '0'))::uuid AND ('00000000-0000-4000-8000-' || lpad(to_hex($2::int), 12, '0'))::uuid`,
      [from, to],
    );
    log(`loaded tickets ${to + 1}/${tickets} (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  await pool.query('VACUUM ANALYZE');
  const counts = await pool.query(
    `SELECT (SELECT count(*) FROM tickets) tickets, (SELECT count(*) FROM activities) activities, (SELECT count(*) FROM contacts) contacts,
            (SELECT count(*) FROM sla_timers) timers, (SELECT count(*) FROM ticket_search) documents, pg_size_pretty(pg_database_size(current_database())) size`,
  );
  log(`loaded in ${Math.round((Date.now() - started) / 1000)} s: ${JSON.stringify(counts.rows[0])}`);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

async function timed(base: string, pathAndQuery: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}${pathAndQuery}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${pathAndQuery} answered ${response.status}`);
  return performance.now() - started;
}

/** Each path `SAMPLES` times in turn, one request at a time; the latencies of all. */
async function measure(base: string, paths: string[]): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) for (const one of paths) latencies.push(await timed(base, one));
  return latencies;
}

const report = (name: string, latencies: number[]) => {
  log(`${name}: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (${latencies.length} requests)`);
  return percentile(latencies, 99);
};

/** The ticketing process's memory from /proc/<pid>/status: resident now (VmRSS) and its peak so far (VmHWM), in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const megabytes = (field: string) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024);
  return { rss: megabytes('VmRSS'), peak: megabytes('VmHWM') };
}

/** Samples the process's VmRSS every 100 ms until stopped; the highest sample. */
function sampleMemory(pid: number): { stop: () => number } {
  let highest = 0;
  const timer = setInterval(() => {
    highest = Math.max(highest, memoryOf(pid).rss);
  }, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(highest, memoryOf(pid).rss);
    },
  };
}

const BIG = '7000000000';
const AGENT = 'agent4@brand.example';
const OPEN: TicketStatus[] = ['open', 'pending'];
/** A poll of the CRM's sync with no change since: a moment after the newest update. */
const FUTURE = new Date(Date.now() + 86_400_000);
const LIMIT = 50;

/** The filters that grow with the data, each as ticketing queries it (plans) and as the API is asked for it (latencies). */
const FILTERS: Record<string, TicketFilter> = {
  "an agent's tickets": { assignee: AGENT, limit: LIMIT },
  "an agent's open tickets": { assignee: AGENT, statuses: OPEN, limit: LIMIT },
  "an agent's open tickets in a big account": { accountId: BIG, assignee: AGENT, statuses: OPEN, limit: LIMIT },
  'updatedSince with nothing newer': { updatedSince: FUTURE, limit: LIMIT },
  'updatedSince with nothing newer in a big account': { accountId: BIG, updatedSince: FUTURE, limit: LIMIT },
  'a rare open queue': { statuses: OPEN, queue: 'escalations', limit: LIMIT },
  'a rare open queue and folder in a big account': { accountId: BIG, statuses: OPEN, queue: 'escalations', folder: 'vip', limit: LIMIT },
  'unassigned open tickets in a big account': { accountId: BIG, statuses: OPEN, assignee: null, limit: LIMIT },
  'breached open tickets in a big account': { accountId: BIG, statuses: OPEN, breached: true, limit: LIMIT },
};

/** The API path that lists `filter`. */
function listPath(filter: TicketFilter): string {
  const query = new URLSearchParams({ limit: String(filter.limit) });
  if (filter.accountId !== undefined) query.set('accountId', filter.accountId);
  if (filter.statuses !== undefined) query.set('status', filter.statuses.join(','));
  if (filter.queue !== undefined) query.set('queue', filter.queue);
  if (filter.folder !== undefined) query.set('folder', filter.folder);
  if (filter.assignee !== undefined) query.set('assignee', filter.assignee ?? 'none');
  if (filter.updatedSince !== undefined) query.set('updatedSince', filter.updatedSince.toISOString());
  if (filter.breached) query.set('breached', 'true');
  return `/v1/tickets?${query.toString()}`;
}

/** The SQL ticketing runs for a read (its own query code, captured instead of run). */
async function serviceQuery(read: (queries: TicketQueries) => Promise<unknown>): Promise<{ sql: string; values: unknown[] }> {
  let captured: { sql: string; values: unknown[] } | undefined;
  const capture = {
    query: async (sql: string, values?: unknown[]) => {
      captured ??= { sql, values: values ?? [] };
      return { rows: [] };
    },
  };
  await read(new TicketQueries(capture as unknown as Queryable));
  return captured!;
}

/** The views' counts as a count over the open and pending tickets of an account, as they were read before the counters. */
const COUNT_OVER_TICKETS = `SELECT t.queue, t.folder, count(*) AS total, count(*) FILTER (WHERE t.assignee = $2) AS mine,
       count(*) FILTER (WHERE t.assignee IS NULL) AS unassigned, count(*) FILTER (WHERE t.sla_breached) AS breached
  FROM tickets t WHERE t.status IN ('open', 'pending') AND t.account_id = $1
 GROUP BY GROUPING SETS ((), (t.queue, t.folder)) ORDER BY t.queue NULLS FIRST, t.folder`;

/** `EXPLAIN (ANALYZE, BUFFERS)` of the filters (`heading` says which indexes there are); with `everything`, of the views' counts and the searches too, as ticketing runs them. */
async function plans(pool: pg.Pool, heading: string, everything: boolean): Promise<void> {
  log(`plans ${heading}:`);
  const explainSql = async (name: string, sql: string, values: unknown[]) => {
    const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, values);
    log(`plan of ${name}:\n${rows.map((row) => `  ${row['QUERY PLAN']}`).join('\n')}`);
  };
  const explain = async (name: string, read: (queries: TicketQueries) => Promise<unknown>) => {
    const { sql, values } = await serviceQuery(read);
    await explainSql(name, sql, values);
  };
  for (const [name, filter] of Object.entries(FILTERS)) await explain(name, (queries) => queries.tickets(filter));
  if (!everything) return;
  await explain('the views counts of a big account (counters)', (queries) => queries.counts({ accountId: BIG, me: AGENT }));
  await explainSql('the views counts of a big account as a count over its tickets (before the counters)', COUNT_OVER_TICKETS, [BIG, AGENT]);
  await explain('the views counts of every account (counters)', (queries) => queries.counts({ me: AGENT }));
  const search = (q: string, accountId?: string) => (queries: TicketQueries) => queries.tickets({ q: parseTicketSearch(q), accountId, limit: LIMIT });
  await explain('search order number', search('#1000010'));
  await explain('search word', search('chargeback'));
  await explain('search word in a big account', search('refund', BIG));
}

/** Ticketing's migrations before `first` (in a directory of their own, for `migrate`). */
async function migrateBefore(url: string, first: string): Promise<void> {
  const before = mkdtempSync(path.join(tmpdir(), 'ticketing-migrations-'));
  try {
    for (const file of readdirSync(MIGRATIONS).filter((name) => name < first)) cpSync(path.join(MIGRATIONS, file), path.join(before, file));
    await migrate(url, before);
  } finally {
    rmSync(before, { recursive: true, force: true });
  }
}

/** Ticketing in a process of its own (service-process.ts) on the bench's database; its pid and address once it serves. */
async function startService(vhost: TestVirtualHost, db: TestDatabase): Promise<{ child: ReturnType<typeof spawn>; base: string }> {
  const env = { NODE_ENV: 'production', PORT: '0', AMQP_URL: vhost.url, DATABASE_URL: db.url, LOG_LEVEL: 'warn', CRM_API_TOKENS: TOKEN, SEARCHES_PER_CREDENTIAL: '8' };
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'service-process.ts'), 'ticketing'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const ready = /ready (\d+)/.exec(output);
      if (ready) resolve(Number(ready[1]));
    });
    child.once('exit', (code) => reject(new Error(`ticketing exited (${code}) before it was ready`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

/** Each read alone, the views' counts, then the list while four searches run; ticketing's memory idle and under that load. */
async function measureReads(base: string, pid: number): Promise<void> {
  const idle = memoryOf(pid);
  log(`ticketing memory idle: VmRSS ${idle.rss} MB (VmHWM ${idle.peak} MB)`);
  const sampler = sampleMemory(pid);
  const lists = ['/v1/tickets', `/v1/tickets?accountId=${BIG}`, '/v1/tickets?order=lastActivity'];
  const filters = Object.values(FILTERS).map(listPath);
  const searches = ['/v1/tickets?q=%231000010', '/v1/tickets?q=chargeback', `/v1/tickets?accountId=${BIG}&q=refund`, '/v1/tickets?q=%40helper_20', '/v1/tickets?q=%22wrong%20door%22'];
  const detail = ['/v1/tickets/00000000-0000-4000-8000-000000000100'];
  const counts = [`/v1/ticket-counts?accountId=${BIG}`, '/v1/ticket-counts'];
  await measure(base, [...lists, ...filters, ...searches, ...detail, ...counts]); // warm
  const listP99 = report('list', await measure(base, lists));
  const filtersP99 = report('filters', await measure(base, filters));
  const searchP99 = report('search', await measure(base, searches));
  const detailP99 = report('detail', await measure(base, detail));
  report('views counts (a big account, every account)', await measure(base, counts));
  let searching = true;
  const searchLoops = Array.from({ length: 4 }, async (_, loop) => {
    for (let i = loop; searching; i += 1) await timed(base, searches[i % searches.length]!);
  });
  const underSearch = report('list while four searches run', await measure(base, lists));
  searching = false;
  await Promise.all(searchLoops);
  const loaded = memoryOf(pid);
  log(`ticketing memory under load: VmRSS highest sample ${sampler.stop()} MB, now ${loaded.rss} MB, VmHWM ${loaded.peak} MB`);
  log(`reads: list p99 ${listP99.toFixed(1)} ms, filters p99 ${filtersP99.toFixed(1)} ms, search p99 ${searchP99.toFixed(1)} ms, detail p99 ${detailP99.toFixed(1)} ms, list p99 under search ${underSearch.toFixed(1)} ms`);
}

async function main(): Promise<void> {
  let vhost: TestVirtualHost | undefined;
  let db: TestDatabase | undefined;
  let pool: pg.Pool | undefined;
  let child: ReturnType<typeof spawn> | undefined;
  try {
    log(`bench:reads at BENCH_SCALE=${SCALE}: ${JSON.stringify(sizes)}`);
    [vhost, db] = await Promise.all([freshVirtualHost('bench_reads'), freshDatabase('bench_reads')]);
    await migrateBefore(db.url, INDEXES_MIGRATION);
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    await load(pool);
    await plans(pool, `without the indexes of ${INDEXES_MIGRATION}`, false);
    const indexing = Date.now();
    await migrate(db.url, MIGRATIONS);
    await pool.query('ANALYZE tickets');
    log(`${INDEXES_MIGRATION} applied to the loaded tickets in ${((Date.now() - indexing) / 1000).toFixed(1)} s`);
    await plans(pool, 'with every migration', true);
    const service = await startService(vhost, db);
    child = service.child;
    await measureReads(service.base, child.pid!);
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await pool?.end();
    await Promise.all([db?.drop(), vhost?.drop()]);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:reads failed: ${String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
