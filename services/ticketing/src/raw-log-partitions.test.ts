import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RawActivity, type Envelope, type RawActivityPayload } from '@crm/contracts';
import { migrate, type Pool } from '@crm/db';
import { makeEnvelope } from '@crm/messaging';
import { freshDatabase, testPool, waitFor, type TestDatabase } from '@crm/testing';
import { RawLog } from './adapters/db/raw-log';

/**
 * The raw log partitioned by week (migration raw-log-partitioned): the migration converts a
 * raw log with entries in it, losing none; the purge drops whole weeks; a delivery logged again
 * (later, in another week, or by a transaction at the same time) still has one entry; every
 * partition refuses changes as the table does.
 */
const MIGRATIONS = path.join(__dirname, '../migrations');
const PARTITIONING = '1781500000000_raw-log-partitioned.sql';
const DAY = 86_400_000;
const ACCOUNT = '7400000001';

let db: TestDatabase;
let pool: Pool;

beforeAll(async () => {
  db = await freshDatabase('ticketing_raw_log_partitions');
  pool = testPool(db.url, { max: 4 });
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

function envelopeOf(text: string): Envelope<RawActivityPayload> {
  const delivery = { for_user_id: ACCOUNT, text };
  const sha = createHash('sha256').update(JSON.stringify(delivery)).digest('hex');
  return makeEnvelope(RawActivity, 'webhook-ingest', { envName: 'test', kind: 'direct_message_events', forUserId: ACCOUNT, receivedAt: new Date().toISOString(), bodySha256: sha, delivery }, { id: `delivery-${sha}` });
}

/** An entry logged at `loggedAt`, as the table's owner may write it (the upgrade's old entries, a test's past). */
async function logAt(loggedAt: Date, text: string): Promise<string> {
  const envelope = envelopeOf(text);
  await pool.query(
    `INSERT INTO raw_log (delivery_id, env_name, kind, for_user_id, received_at, logged_at, body_sha256, message) VALUES ($1, 'test', 'direct_message_events', $2, $3, $3, $4, convert_to($5, 'UTF8'))`,
    [envelope.id, ACCOUNT, loggedAt, envelope.payload.bodySha256, JSON.stringify(envelope)],
  );
  return envelope.id;
}

const entries = async () =>
  (await pool.query<{ seq: number; delivery_id: string; logged_at: Date; message: string; part: string }>(
    "SELECT seq, delivery_id, logged_at, convert_from(message, 'UTF8') AS message, tableoid::regclass::text AS part FROM raw_log ORDER BY seq",
  )).rows;

it('converts a raw log with entries in it, each kept in the partition of its week; the purge drops the weeks wholly past the cutoff', async () => {
  const before = mkdtempSync(path.join(tmpdir(), 'ticketing-migrations-'));
  try {
    for (const file of readdirSync(MIGRATIONS).filter((name) => name < PARTITIONING)) cpSync(path.join(MIGRATIONS, file), path.join(before, file));
    await migrate(db.url, before);
  } finally {
    rmSync(before, { recursive: true, force: true });
  }
  const now = Date.now();
  for (const [i, daysAgo] of [60, 45, 44, 20, 3, 0].entries()) await logAt(new Date(now - daysAgo * DAY), `before the partitions ${i}`);
  const logged = await entries();
  expect(logged).toHaveLength(6);

  await migrate(db.url, MIGRATIONS);

  const converted = await entries();
  expect(converted.map(({ part: _, ...entry }) => entry)).toEqual(logged.map(({ part: _, ...entry }) => entry));
  const weekOf = (at: Date) => {
    const monday = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - ((at.getUTCDay() + 6) % 7)));
    return `raw_log_${monday.toISOString().slice(0, 10).replace(/-/g, '_')}`;
  };
  for (const entry of converted) expect(entry.part).toBe(weekOf(entry.logged_at));
  const rawLog = new RawLog(pool);
  expect(await rawLog.count()).toBe(6);

  // A cutoff 30 days ago: the weeks of the entries 60, 45 and 44 days old are wholly before it.
  expect(await rawLog.purgeBefore(new Date(now - 30 * DAY))).toBe(3);
  expect((await entries()).map((entry) => entry.delivery_id)).toEqual(logged.slice(3).map((entry) => entry.delivery_id));
  // An entry's week goes only once it is wholly before the cutoff: a cutoff a minute from now leaves this week's.
  expect(await rawLog.purgeBefore(new Date(now - 10 * DAY))).toBe(1);
  expect(await rawLog.purgeBefore(new Date(now + 60_000))).toBe(weekOf(new Date(now - 3 * DAY)) === weekOf(new Date(now)) ? 0 : 1);
  expect(await rawLog.count()).toBeGreaterThan(0);
  const weeks = await pool.query<{ name: string }>("SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'raw_log'::regclass ORDER BY 1");
  expect(weeks.rows.map((row) => row.name)).toEqual(expect.arrayContaining([weekOf(new Date(now)), weekOf(new Date(now + 7 * DAY)), weekOf(new Date(now + 14 * DAY)), 'raw_log_default']));
});

it('logs a delivery once, whether it comes again in the same batch, a week later, or from another transaction at the same time', async () => {
  const rawLog = new RawLog(pool);
  const dm = envelopeOf('hello');
  expect(await rawLog.append([dm, dm])).toBe(1);
  expect(await rawLog.append([dm])).toBe(0);

  // First logged a week ago (its week's partition): sent again now, it is not logged in this week's.
  const earlier = await logAt(new Date(Date.now() - 8 * DAY), 'a week ago');
  expect(await rawLog.append([envelopeOf('a week ago')])).toBe(0);
  expect((await pool.query('SELECT 1 FROM raw_log WHERE delivery_id = $1', [earlier])).rowCount).toBe(1);

  // Two transactions logging the same deliveries (in another order): the second waits for the first, then adds nothing.
  const [one, two] = [await pool.connect(), await pool.connect()];
  try {
    const [a, b] = [envelopeOf('at once a'), envelopeOf('at once b')];
    await one.query('BEGIN');
    await two.query('BEGIN');
    expect(await new RawLog(one).append([a, b])).toBe(2);
    const secondPid = (await two.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    let secondDone = false;
    const second = new RawLog(two).append([b, a]).then((added) => ((secondDone = true), added));
    await waitFor(async () => (await pool.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'", [secondPid])).rowCount === 1, { what: 'the second transaction waiting' });
    expect(secondDone).toBe(false);
    await one.query('COMMIT');
    expect(await second).toBe(0);
    await two.query('COMMIT');
    expect((await pool.query('SELECT delivery_id FROM raw_log WHERE delivery_id = ANY($1)', [[a.id, b.id]])).rowCount).toBe(2);
  } finally {
    one.release();
    two.release();
  }
});

it('takes entries of a week without a partition in the DEFAULT one, and moves them into the partition once it is made', async () => {
  const longAgo = new Date(Date.now() - 400 * DAY);
  const id = await logAt(longAgo, 'long ago');
  expect((await entries()).find((entry) => entry.delivery_id === id)?.part).toBe('raw_log_default');
  await pool.query("SELECT raw_log_prepare(0, raw_log_week_of($1))", [longAgo]);
  expect((await entries()).find((entry) => entry.delivery_id === id)?.part).toMatch(/^raw_log_\d{4}_\d{2}_\d{2}$/);
  const gone = await new RawLog(pool).purgeBefore(new Date(Date.now() - 390 * DAY));
  expect(gone).toBe(1);
});

it("refuses every change on each partition to a role that is not the owner, even one granted the rights, and gives a new partition's rights to nobody else", async () => {
  const role = `rawlog_${Date.now().toString(36)}`;
  const client = await pool.connect();
  try {
    await client.query(`CREATE ROLE ${role} NOLOGIN`);
    await client.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL ON TABLES TO ${role}`);
    await client.query(`SELECT raw_log_prepare(3)`);
    const { rows } = await client.query<{ part: string }>("SELECT c.relname AS part FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'raw_log'::regclass AND c.relname <> 'raw_log_default' ORDER BY c.relname DESC LIMIT 1");
    const newest = rows[0]!.part;
    const rights = await client.query<{ rights: string[] }>(
      `SELECT array_agg(p ORDER BY p) AS rights FROM unnest(ARRAY['SELECT','INSERT','UPDATE','DELETE','TRUNCATE']) p WHERE has_table_privilege($1, $2, p)`,
      [role, newest],
    );
    expect(rights.rows[0]!.rights).toEqual(['INSERT', 'SELECT']);
    await logAt(new Date(), 'to be kept');
    for (const part of ['raw_log_default', newest, (await entries()).at(-1)!.part]) {
      await client.query(`GRANT SELECT, UPDATE, DELETE, TRUNCATE ON ${part} TO ${role}`);
      await client.query(`SET ROLE ${role}`);
      await expect(client.query(`UPDATE ${part} SET env_name = 'forged'`)).rejects.toThrow(/append-only/);
      await expect(client.query(`DELETE FROM ${part}`)).rejects.toThrow(/append-only: DELETE refused/);
      await expect(client.query(`TRUNCATE ${part}`)).rejects.toThrow(/append-only/);
      await client.query('RESET ROLE');
    }
  } finally {
    await client.query('RESET ROLE');
    await client.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE ALL ON TABLES FROM ${role}`);
    await client.query(`DROP OWNED BY ${role}`);
    await client.query(`DROP ROLE ${role}`);
    client.release();
  }
});
