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
 * The load (see `load`) runs without triggers and with the indexes no constraint needs made
 * after the rows, then makes the search documents and the views' counters set-based with the
 * functions the triggers use; each step's time is printed. It loads a year of raw log too (a
 * delivery per activity) into the raw log as it was before its partitioning
 * (PARTITIONING_MIGRATION), purges its oldest month the old way (DELETE in batches, then
 * VACUUM), runs the migration that partitions it (its time printed), purges the next month by
 * dropping weeks, and prints each purge's time and WAL, then the raw log's reads' plans.
 *
 * Sizes at BENCH_SCALE=1 (the default): 1,000 accounts, 1,000,000 tickets (the ten biggest
 * accounts 50,000 each), 5 activities a ticket (5,000,000), 300,000 contacts, 2 SLA timers a
 * ticket (2,000,000). BENCH_SCALE=0.02 loads 2% of each. BENCH_SAMPLES: requests per read (50).
 * The last line: `reads: list p99 X ms, filters p99 Y ms, search p99 Z ms, detail p99 W ms, list p99 under search V ms`.
 *
 * Measuring again without the load (it takes minutes at full size): BENCH_KEEP_DATABASE=1 keeps
 * the loaded database and prints its name, `bench_reads_<hex>` (BENCH_KEEP_DATABASE=<name> loads
 * into a new database of that name and keeps it); BENCH_DATABASE=<name> loads nothing: it runs ticketing's
 * migrations not yet applied to that database (as on a deployed one), VACUUM ANALYZE, then prints the
 * plans and measures the reads, and keeps the database. Drop a kept one with
 * `psql -c 'DROP DATABASE <name>'`.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../libs/db/src';
import { databaseServerUrl, freshDatabase, freshVirtualHost, type TestDatabase, type TestVirtualHost } from '../../libs/testing/src';
import type { TicketStatus } from '@crm/contracts';
import type { Queryable } from '../../services/ticketing/src/adapters/db/queryable';
import { SEARCH_WALK, searchStatements, TicketQueries, type TicketFilter } from '../../services/ticketing/src/adapters/db/ticket-queries';
import { parseTicketSearch } from '../../services/ticketing/src/domain/ticket-search';

const SCALE = Number(process.env.BENCH_SCALE ?? '1');
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? '50');
/** A database loaded before (BENCH_KEEP_DATABASE) to measure again: no load. */
const EXISTING = process.env.BENCH_DATABASE;
/** Keep the loaded database: '1' keeps it under a generated name, anything else is the name to load into. */
const KEEP = process.env.BENCH_KEEP_DATABASE;
const TOKEN = 'bench-reads-token';
const MIGRATIONS = path.join(__dirname, '../../services/ticketing/migrations');
/** The migration of the open work's indexes: the data is loaded before it, so the plans show each filter without and with them. */
const INDEXES_MIGRATION = '1781300100000_open-work-indexes.sql';
/** The raw log's partitioning: the year of raw log is loaded before it, purged by DELETE, converted by it, then purged by dropping weeks. */
const PARTITIONING_MIGRATION = '1781500000000_raw-log-partitioned.sql';

const sizes = {
  accounts: Math.max(20, Math.round(1_000 * SCALE)),
  tickets: Math.max(1_000, Math.round(1_000_000 * SCALE)),
  contacts: Math.max(300, Math.round(300_000 * SCALE)),
  activitiesPerTicket: 5,
};
/** Tickets per statement of the load (and per chunk of the search documents): progress lines, and statements of bounded memory. */
const BATCH = 200_000;
/** Tickets per call of ticket_search_refresh once the data is in. */
const DOCUMENTS_CHUNK = 20_000;

const log = (line: string) => process.stdout.write(`${line}\n`);

/** Each step of the load and its time, printed as it ends and again together at the end. */
const steps: { step: string; seconds: number }[] = [];
async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await work();
  const seconds = (Date.now() - started) / 1000;
  steps.push({ step: name, seconds });
  log(`  ${name}: ${seconds.toFixed(1)} s`);
  return result;
}

/** `n`'s ticket id: the loader's tickets are numbered. */
const ticketId = (n: string) => `('00000000-0000-4000-8000-' || lpad(to_hex(${n}), 12, '0'))::uuid`;

/**
 * Tickets `from`..`to` of the year, oldest first. As in a support team's year: the tickets of
 * the last 4% of it (about two weeks) are 40% open and 20% pending, older ones closed but for
 * 0.3% left open (those breached their SLA; a seventh of the recent open ones did too); 1% in
 * the escalations queue, a seventh in the vip folder; a quarter assigned to one of 200 agents.
 * resolved_at is written as tickets_track_resolution would (the load runs without triggers).
 */
async function loadTickets(db: pg.ClientBase, from: number, to: number): Promise<void> {
  const { accounts, tickets, contacts } = sizes;
  await db.query(
    `WITH numbered AS (
       SELECT n, account_no, h, n >= $5 * 0.96 AS recent,
              CASE WHEN n >= $5 * 0.96 THEN (CASE WHEN h % 10 < 4 THEN 'open' WHEN h % 10 < 6 THEN 'pending' ELSE 'closed' END)
                   WHEN h % 1000 < 3 THEN 'open' ELSE 'closed' END AS status,
              now() - interval '365 days' + (n::float / $5) * interval '365 days' AS created_at
         FROM (SELECT n, CASE WHEN n % 2 = 0 THEN (n / 2) % 10 ELSE 10 + n % ($3 - 10) END AS account_no, abs(hashint4(n)) AS h
                 FROM generate_series($1::int, $2::int) n) generated)
     INSERT INTO tickets (id, account_id, status, channel, queue, folder, contact_id, conversation_key, subject, created_at, updated_at, last_activity_at, assignee, priority, sla_breached, resolved_at)
     SELECT ${ticketId('n')}, (7000000000 + account_no)::text, status,
            CASE WHEN h % 3 = 0 THEN 'public' ELSE 'dm' END,
            CASE WHEN h % 100 = 0 THEN 'escalations' WHEN h % 5 = 0 THEN 'billing' ELSE 'social' END, CASE WHEN h % 7 = 3 THEN 'vip' ELSE 'inbox' END,
            (SELECT c.id FROM contacts c WHERE c.account_id = (7000000000 + account_no)::text AND c.platform_user_id = (100000000 + account_no + (n % greatest(1, $4 / $3)) * $3)::text),
            'conv:' || n, 'Ticket ' || n || ' about ' || (ARRAY['a parcel','an invoice','a refund','a delivery','a login'])[1 + n % 5],
            created_at, created_at + interval '2 hours', created_at + interval '2 hours',
            CASE WHEN h % 4 = 0 THEN 'agent' || (h % 200) || '@brand.example' END, 'normal', status <> 'closed' AND (NOT recent OR h % 7 = 0),
            CASE WHEN status = 'resolved' THEN created_at + interval '2 hours' END
       FROM numbered`,
    [from, to, accounts, contacts, tickets],
  );
}

/** Five activities a ticket: words of a support conversation; 0.1% mention a chargeback, 10% an order number, 5% a handle; half in English. */
async function loadActivities(db: pg.ClientBase, from: number, to: number): Promise<void> {
  await db.query(
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
       JOIN tickets t ON t.id = ${ticketId('n')}
      CROSS JOIN generate_series(0, ${sizes.activitiesPerTicket - 1}) k`,
    [from, to],
  );
}

/**
 * A year of the raw log: one delivery per activity, logged when the activity occurred, each a
 * small envelope (about 300 bytes), in the table as it was before its partitioning (the load
 * runs before that migration, which converts it, so the old purge and the new are measured on
 * the same entries).
 */
async function loadRawLog(db: pg.ClientBase, from: number, to: number): Promise<void> {
  await db.query(
    `INSERT INTO raw_log (delivery_id, env_name, kind, for_user_id, received_at, logged_at, body_sha256, message)
     SELECT 'delivery-' || d.sha, 'bench', 'direct_message_events', a.account_id, a.occurred_at, a.occurred_at, d.sha,
            convert_to(json_build_object('id', 'delivery-' || d.sha, 'type', 'social.activity.raw.v1',
              'payload', json_build_object('envName', 'bench', 'kind', 'direct_message_events', 'forUserId', a.account_id, 'receivedAt', a.occurred_at, 'bodySha256', d.sha,
                'delivery', json_build_object('for_user_id', a.account_id, 'direct_message_events', json_build_array(json_build_object('id', a.platform_event_id, 'text', a.text)))))::text, 'UTF8')
       FROM activities a
      CROSS JOIN LATERAL (SELECT encode(sha256(convert_to(a.platform_event_id, 'UTF8')), 'hex') AS sha) d
      WHERE a.ticket_id BETWEEN ${ticketId('$1::int')} AND ${ticketId('$2::int')}`,
    [from, to],
  );
}

/** The tables the load fills, whose indexes other than their constraints' are built after it. */
const LOADED_TABLES = ['accounts', 'contacts', 'tickets', 'activities', 'sla_timers', 'ticket_search', 'raw_log'];

/** The indexes of the loaded tables that no constraint stands on: dropped before the load, made again (the migrations' own definitions) after it. */
async function readIndexes(db: pg.ClientBase): Promise<{ name: string; table: string; definition: string }[]> {
  const { rows } = await db.query<{ name: string; table: string; definition: string }>(
    `SELECT c.relname AS name, t.relname AS table, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
      WHERE t.relname = ANY($1) AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
      ORDER BY t.relname, c.relname`,
    [LOADED_TABLES],
  );
  return rows;
}

/**
 * The UNIQUE constraints of the activities and the raw log: their indexes take each row at a
 * random place (platform event ids spread over the accounts, delivery ids that are digests),
 * which past the server's cache is a read per row; no statement of the load looks them up, so
 * they are dropped before it and added again after it (sorted once), as the migrations made them.
 */
async function readUniqueConstraints(db: pg.ClientBase): Promise<{ name: string; table: string; definition: string }[]> {
  const { rows } = await db.query<{ name: string; table: string; definition: string }>(
    `SELECT k.conname AS name, t.relname AS table, pg_get_constraintdef(k.oid) AS definition
       FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
      WHERE k.contype = 'u' AND t.relname IN ('activities', 'raw_log') ORDER BY t.relname, k.conname`,
  );
  return rows;
}

/** `work` for each item, on the pool's connections at once (two), each taking the next item when done. */
async function onEachConnection<T>(pool: pg.Pool, items: T[], work: (db: pg.PoolClient, item: T) => Promise<void>, setup: string[] = []): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: 2 }, async () => {
      const db = await pool.connect();
      try {
        for (const statement of setup) await db.query(statement);
        for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(db, item);
      } finally {
        db.release(true);
      }
    }),
  );
}

type Batch = readonly [number, number];
type Index = Awaited<ReturnType<typeof readIndexes>>[number];

/** The rows, set-based, without triggers (the loading session is a replica's: see `load`). */
async function loadRows(db: pg.ClientBase, batches: Batch[], started: number): Promise<void> {
  const { accounts, tickets, contacts } = sizes;
  await step('accounts and contacts', async () => {
    await db.query(`INSERT INTO accounts (account_id, status, status_changed_at) SELECT (7000000000 + n)::text, 'connected', now() FROM generate_series(0, $1 - 1) n`, [accounts]);
    await db.query(
      `INSERT INTO contacts (account_id, platform_user_id, screen_name, name)
       SELECT (7000000000 + n % $2)::text, (100000000 + n)::text, 'user_' || n, 'Customer ' || n FROM generate_series(0, $1 - 1) n`,
      [contacts, accounts],
    );
  });
  await step(`tickets (${tickets})`, async () => {
    for (const [from, to] of batches) await loadTickets(db, from, to);
  });
  await step(`activities (${tickets * sizes.activitiesPerTicket})`, async () => {
    for (const [from, to] of batches) {
      await loadActivities(db, from, to);
      log(`    activities of tickets ${to + 1}/${tickets} (${Math.round((Date.now() - started) / 1000)} s)`);
    }
  });
  await step(`SLA timers (${tickets * 2})`, () =>
    db.query(
      `INSERT INTO sla_timers (ticket_id, clock, stage, due_at, fired_at)
       SELECT t.id, clock, 'breach', t.created_at + CASE clock WHEN 'first_response' THEN interval '1 hour' ELSE interval '1 day' END,
              CASE WHEN t.status = 'closed' THEN t.created_at END
         FROM tickets t CROSS JOIN unnest(ARRAY['first_response', 'resolution']) clock`,
    ),
  );
  await step(`raw log, a delivery per activity (${tickets * sizes.activitiesPerTicket})`, async () => {
    for (const [from, to] of batches) await loadRawLog(db, from, to);
  });
}

/** The indexes again, then what the triggers would have kept: the search documents (and their indexes) and the views' counters. */
async function makeDerived(pool: pg.Pool, db: pg.ClientBase, indexes: Index[]): Promise<void> {
  const { tickets } = sizes;
  const indexing = ["SET maintenance_work_mem = '256MB'"];
  const forDocuments = indexes.filter((index) => index.table !== 'ticket_search');
  await step(`${forDocuments.length} indexes made again, two at a time`, () => onEachConnection(pool, forDocuments, async (one, index) => void (await one.query(index.definition)), indexing));
  const chunks = Array.from({ length: Math.ceil(tickets / DOCUMENTS_CHUNK) }, (_, i) => [i * DOCUMENTS_CHUNK, Math.min(tickets, (i + 1) * DOCUMENTS_CHUNK) - 1] as const);
  await step(`search documents (ticket_search_refresh, ${chunks.length} chunks of ${DOCUMENTS_CHUNK} tickets, two at a time)`, () =>
    onEachConnection(pool, chunks, async (one, [from, to]) => {
      await one.query(`SELECT ticket_search_refresh(ARRAY(SELECT id FROM tickets WHERE id BETWEEN ${ticketId('$1::int')} AND ${ticketId('$2::int')}))`, [from, to]);
    }),
  );
  const searchIndexes = indexes.filter((index) => index.table === 'ticket_search');
  await step(`${searchIndexes.length} search indexes (GIN), two at a time`, () => onEachConnection(pool, searchIndexes, async (one, index) => void (await one.query(index.definition)), indexing));
  await step("views' counters", () =>
    db.query(
      `INSERT INTO ticket_view_counts (account_id, status, queue, folder, assignee, breached, slot, tickets)
       SELECT account_id, status, queue, folder, assignee, sla_breached, 0, count(*)
         FROM tickets WHERE status IN ('open', 'pending')
        GROUP BY account_id, status, queue, folder, assignee, sla_breached`,
    ),
  );
  const made = (await readIndexes(db)).map((index) => index.definition);
  if (indexes.some((index) => !made.includes(index.definition))) throw new Error('an index of the migrations was not made again after the load');
}

/**
 * Accounts are '7000000000' + n: n < 10 are the ten biggest (half of all tickets, 50,000 each
 * at full size). Set-based and without triggers (session_replication_role = replica: no
 * search-document refresh per statement, no views' counter per ticket, no foreign-key check
 * per row, the data being consistent as it is made), the indexes no constraint needs and the
 * UNIQUE constraints no statement of the load looks up made after the rows are in; then the derived data is made set-based with the functions the
 * triggers use: the search documents (ticket_search_refresh, in chunks, two at a time) and the
 * views' counters (as their migration fills them).
 */
async function load(pool: pg.Pool): Promise<void> {
  const started = Date.now();
  const batches = Array.from({ length: Math.ceil(sizes.tickets / BATCH) }, (_, i) => [i * BATCH, Math.min(sizes.tickets, (i + 1) * BATCH) - 1] as const);
  const db = await pool.connect();
  try {
    await db.query("SET session_replication_role = 'replica'");
    const [indexes, uniques] = [await readIndexes(db), await readUniqueConstraints(db)];
    await step(`drop ${indexes.length} indexes no constraint needs and ${uniques.length} UNIQUE constraints`, async () => {
      for (const index of indexes) await db.query(`DROP INDEX ${index.name}`);
      for (const unique of uniques) await db.query(`ALTER TABLE ${unique.table} DROP CONSTRAINT ${unique.name}`);
    });
    await loadRows(db, batches, started);
    await step(`${uniques.length} UNIQUE constraints added again, two at a time`, () =>
      onEachConnection(pool, uniques, async (one, unique) => void (await one.query(`ALTER TABLE ${unique.table} ADD CONSTRAINT ${unique.name} ${unique.definition}`)), ["SET maintenance_work_mem = '256MB'"]),
    );
    if ((await readUniqueConstraints(db)).length !== uniques.length) throw new Error('a UNIQUE constraint of the migrations was not added again after the load');
    await makeDerived(pool, db, indexes);
    await step('VACUUM ANALYZE', () => db.query('VACUUM ANALYZE'));
  } finally {
    db.release(true);
  }
  const counts = await pool.query(
    `SELECT (SELECT count(*) FROM tickets) tickets, (SELECT count(*) FROM activities) activities, (SELECT count(*) FROM contacts) contacts,
            (SELECT count(*) FROM sla_timers) timers, (SELECT count(*) FROM ticket_search) documents, (SELECT count(*) FROM raw_log) raw_log,
            pg_size_pretty(pg_total_relation_size('raw_log')) raw_log_size, pg_size_pretty(pg_database_size(current_database())) size`,
  );
  log(`loaded in ${Math.round((Date.now() - started) / 1000)} s: ${JSON.stringify(counts.rows[0])}`);
}

/** The WAL a statement wrote in this session (EXPLAIN's WAL counter), and its time. */
async function walOf(db: pg.ClientBase, sql: string, values: unknown[]): Promise<{ walBytes: number; ms: number }> {
  const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: { 'WAL Bytes': number }; 'Execution Time': number }] }>(`EXPLAIN (ANALYZE, WAL, FORMAT JSON) ${sql}`, values);
  const [plan] = rows[0]!['QUERY PLAN'];
  return { walBytes: plan.Plan['WAL Bytes'], ms: plan['Execution Time'] };
}

/** The server's WAL position: the difference between two is every database's WAL in between (the server is shared). */
const walPosition = async (db: pg.ClientBase) => (await db.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn;
const walBetween = async (db: pg.ClientBase, from: string) => Number((await db.query<{ bytes: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS bytes', [from])).rows[0]!.bytes);
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The start of the raw log's `month`th month of the loaded year (0: the oldest). */
const monthOfTheYear = (month: number) => new Date(Date.now() - 365 * 86_400_000 + month * 30 * 86_400_000);

/** The old purge (before the partitioning): DELETE in batches of 5,000 through raw_log_purge(cutoff, max_rows), then the VACUUM that clears what it left. */
async function purgeByDelete(pool: pg.Pool): Promise<void> {
  const db = await pool.connect();
  try {
    const cutoff = monthOfTheYear(1);
    const olderThan = async () => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM raw_log WHERE logged_at < $1', [cutoff])).rows[0]!.n);
    const entries = await olderThan();
    await db.query('CHECKPOINT');
    const [position, started] = [await walPosition(db), Date.now()];
    let walBytes = 0;
    for (let done = 0; done < entries; done += 5_000) walBytes += (await walOf(db, 'SELECT raw_log_purge($1, 5000)', [cutoff])).walBytes;
    const ms = Date.now() - started;
    const serverWal = await walBetween(db, position);
    if ((await olderThan()) !== 0) throw new Error('the old purge left entries before its cutoff');
    const [vacuumPosition, vacuumStarted] = [await walPosition(db), Date.now()];
    await db.query('VACUUM raw_log');
    log(
      `raw log purge of its oldest month (before ${cutoff.toISOString()}) by DELETE in batches of 5,000: ${entries} entries in ${(ms / 1000).toFixed(1)} s, ` +
        `WAL ${megabytes(walBytes)} written by the purge's statements (${megabytes(serverWal)} on the server meanwhile); ` +
        `then VACUUM raw_log: ${((Date.now() - vacuumStarted) / 1000).toFixed(1)} s, ${megabytes(await walBetween(db, vacuumPosition))} on the server`,
    );
  } finally {
    db.release();
  }
}

/** The purge of the partitioned raw log: the weeks wholly before the end of the year's second month dropped (raw_log_purge(cutoff)). */
async function purgeByDroppingWeeks(pool: pg.Pool): Promise<void> {
  const db = await pool.connect();
  try {
    const cutoff = monthOfTheYear(2);
    const before = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM raw_log')).rows[0]!.n);
    await db.query('CHECKPOINT');
    const [position, started] = [await walPosition(db), Date.now()];
    const purge = await walOf(db, 'SELECT raw_log_purge($1)', [cutoff]);
    const ms = Date.now() - started;
    const serverWal = await walBetween(db, position);
    const after = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM raw_log')).rows[0]!.n);
    log(
      `raw log purge of its next month (weeks wholly before ${cutoff.toISOString()}) by dropping partitions: ${before - after} entries in ${(ms / 1000).toFixed(2)} s, ` +
        `WAL ${megabytes(purge.walBytes)} written by the purge's statement (${megabytes(serverWal)} on the server meanwhile); nothing left for VACUUM`,
    );
  } finally {
    db.release();
  }
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

/** The lists without a filter, as ticketing queries them (plans); measureReads asks the API for the same. */
const LISTS: Record<string, TicketFilter> = {
  'the list': { limit: LIMIT },
  'the list of a big account': { accountId: BIG, limit: LIMIT },
  'the list by last activity': { order: 'lastActivity', limit: LIMIT },
};

/** The searches measured (q, and the account when scoped to one): a rare key, a word in a few tickets in a thousand, a common word in a big account, a handle, a common phrase. */
const SEARCHES: Record<string, [string, string?]> = {
  'search order number': ['#1000010'],
  'search rare word': ['chargeback'],
  'search common word in a big account': ['refund', BIG],
  'search handle': ['@helper_20'],
  'search phrase': ['"wrong door"'],
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
  if (filter.order !== undefined) query.set('order', filter.order);
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
  for (const [name, filter] of Object.entries(LISTS)) await explain(name, (queries) => queries.tickets(filter));
  for (const [name, [q, accountId]] of Object.entries(SEARCHES)) {
    const { walk, index } = searchStatements({ q: parseTicketSearch(q), accountId, limit: LIMIT });
    if (walk) await explainSql(`${name} (${q}): the walk of the newest ${SEARCH_WALK} documents`, walk.sql, walk.values);
    await explainSql(`${name} (${q}): from the index${walk ? ' (when the walk leaves the page short)' : ''}`, index.sql, index.values);
  }
}

/**
 * The raw log's reads across its partitions (a week each: five or six once purged to the
 * default retention, which this does first, timed): the
 * rebuild's page in seq order, the silence alarm's latest entry of an account, and the look-up
 * of a delivery's first entry each append makes (raw_log_logged_at).
 */
async function rawLogPlans(pool: pg.Pool): Promise<void> {
  const started = Date.now();
  const { rows: purged } = await pool.query<{ n: string }>("SELECT raw_log_purge(now() - interval '30 days') AS n");
  log(`raw log purged to the default retention (30 days) by dropping weeks: ${purged[0]!.n} entries in ${((Date.now() - started) / 1000).toFixed(2)} s`);
  const parts = (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'raw_log'::regclass")).rows[0]!.n;
  const explainSql = async (name: string, sql: string, values: unknown[]) => {
    const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) ${sql}`, values);
    const lines = rows.map((row) => row['QUERY PLAN']);
    // One scan per partition: the plan's first lines (its top and the first partitions' scans), then its totals.
    const shown = [...lines.slice(0, 12), ...(lines.length > 12 ? [`... (${lines.length - 12} more lines)`] : []), ...lines.slice(12).filter((line) => /^(Planning|Execution) Time/.test(line))];
    log(`plan of ${name} (${parts} partitions):\n${shown.map((line) => `  ${line}`).join('\n')}`);
  };
  await explainSql("the rebuild's first page (seq order)", 'SELECT seq, delivery_id, env_name, for_user_id, logged_at, message FROM raw_log WHERE seq > $1 AND ($2::text IS NULL OR for_user_id = $2) ORDER BY seq LIMIT $3', ['0', null, 500]);
  await explainSql("the silence alarm's latest entry of a big account", 'SELECT r.seq, r.received_at FROM raw_log r WHERE r.for_user_id = $1 ORDER BY r.seq DESC LIMIT 1', [BIG]);
  await explainSql("an append's look-up of a delivery's first entry (raw_log_logged_at)", 'SELECT logged_at FROM raw_log WHERE delivery_id = $1 ORDER BY logged_at LIMIT 1', ['delivery-0000']);
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
  const lists = Object.values(LISTS).map(listPath);
  const filters = Object.values(FILTERS).map(listPath);
  const searches = Object.values(SEARCHES).map(([q, accountId]) => `/v1/tickets?${new URLSearchParams({ ...(accountId === undefined ? {} : { accountId }), q }).toString()}`);
  const detail = ['/v1/tickets/00000000-0000-4000-8000-000000000100'];
  const counts = [`/v1/ticket-counts?accountId=${BIG}`, '/v1/ticket-counts'];
  await measure(base, [...lists, ...filters, ...searches, ...detail, ...counts]); // warm
  const listP99 = report('list', await measure(base, lists));
  const filtersP99 = report('filters', await measure(base, filters));
  const searchLatencies = await measure(base, searches);
  const searchP99 = report('search', searchLatencies);
  // Each search's own figures: measure() asks the paths in turn.
  Object.entries(SEARCHES).forEach(([name, [q]], i) => report(`  ${name} (${q})`, searchLatencies.filter((_, n) => n % searches.length === i)));
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

/**
 * VACUUM ANALYZE after the migrations, as autovacuum would soon do on a deployed database: a
 * migration that rewrites rows (the search documents' created_at) leaves the old versions in
 * the indexes until a vacuum, and the plans should show the indexes as they are then.
 */
async function vacuum(pool: pg.Pool): Promise<void> {
  const started = Date.now();
  await pool.query('VACUUM ANALYZE');
  log(`VACUUM ANALYZE after the migrations: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The database to load into: a fresh one dropped after the run, or kept (BENCH_KEEP_DATABASE), or an existing one measured again (BENCH_DATABASE). */
async function benchDatabase(): Promise<TestDatabase & { keep: boolean }> {
  const named = (name: string) => {
    const url = new URL(databaseServerUrl());
    url.pathname = `/${name}`;
    return url.toString();
  };
  if (EXISTING !== undefined) return { url: named(EXISTING), drop: async () => undefined, keep: true };
  if (KEEP !== undefined) {
    // Not test_…: the tests' sweep of leftovers drops those.
    const name = KEEP === '1' ? `bench_reads_${randomBytes(4).toString('hex')}` : KEEP;
    if (!/^[a-z_][a-z0-9_]*$/.test(name) || name.startsWith('test_')) throw new Error(`BENCH_KEEP_DATABASE=${KEEP}: a database name is lower-case letters, digits and _, not test_…`);
    const admin = new pg.Client({ connectionString: databaseServerUrl() });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    return { url: named(name), drop: async () => undefined, keep: true };
  }
  return { ...(await freshDatabase('bench_reads')), keep: false };
}

/** Loads the year (or not, for BENCH_DATABASE), runs every migration, prints the plans, and measures the reads. */
async function main(): Promise<void> {
  let vhost: TestVirtualHost | undefined;
  let db: (TestDatabase & { keep: boolean }) | undefined;
  let pool: pg.Pool | undefined;
  let child: ReturnType<typeof spawn> | undefined;
  try {
    log(EXISTING === undefined ? `bench:reads at BENCH_SCALE=${SCALE}: ${JSON.stringify(sizes)}` : `bench:reads on the loaded database ${EXISTING}`);
    [vhost, db] = await Promise.all([freshVirtualHost('bench_reads'), benchDatabase()]);
    if (db.keep) log(`database kept after the run: ${new URL(db.url).pathname.slice(1)}`);
    // Three: the load's own session, and two more that make indexes and search documents beside each other.
    pool = new pg.Pool({ connectionString: db.url, max: 3 });
    if (EXISTING === undefined) {
      await migrateBefore(db.url, INDEXES_MIGRATION);
      log('load:');
      await load(pool);
      await plans(pool, `without the indexes of ${INDEXES_MIGRATION}`, false);
      await purgeByDelete(pool);
      const indexing = Date.now();
      await migrateBefore(db.url, PARTITIONING_MIGRATION);
      await pool.query('ANALYZE tickets');
      log(`${INDEXES_MIGRATION} applied to the loaded tickets in ${((Date.now() - indexing) / 1000).toFixed(1)} s`);
      const partitioning = Date.now();
      await migrate(db.url, MIGRATIONS);
      log(`${PARTITIONING_MIGRATION} (and any after it) applied to the loaded data in ${((Date.now() - partitioning) / 1000).toFixed(1)} s`);
      await vacuum(pool);
      await purgeByDroppingWeeks(pool);
      await rawLogPlans(pool);
      log(`load steps: ${steps.map(({ step: name, seconds }) => `${name} ${seconds.toFixed(1)} s`).join('; ')}`);
    } else {
      const migrating = Date.now();
      await migrate(db.url, MIGRATIONS);
      log(`migrations not yet applied (if any) in ${((Date.now() - migrating) / 1000).toFixed(1)} s`);
      await vacuum(pool);
    }
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
