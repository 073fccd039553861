import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, type Pool } from '@crm/db';
import { freshDatabase, testPool, type TestDatabase } from '@crm/testing';
import { ticketCountsOf, TicketQueries, type TicketCounts, type ViewCountRow } from './adapters/db/ticket-queries';
import { ViewCountRepository } from './adapters/db/view-counts';

/**
 * The views' counters (table ticket_view_counts, kept by a trigger on tickets) against a count
 * over the tickets themselves, after a random mix of changes, some of them in concurrent
 * transactions on connections of their own (so in different counter slots).
 */
const MIGRATIONS = path.join(__dirname, '../migrations');
const COUNTERS_MIGRATION = '1781300000000_ticket-view-counts.sql';
const ACCOUNTS = ['8100000001', '8100000002', '8100000003'];
const STATUSES = ['open', 'pending', 'resolved', 'closed', 'merged'];
const QUEUES = ['social', 'billing', 'escalations'];
const FOLDERS = ['inbox', 'vip'];
const AGENTS = [null, 'agent-a', 'agent-b', 'agent-c'];

/** A small seeded generator, so a failing mix can be run again. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return { pick: <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!, chance: (share: number) => next() < share };
}
type Random = ReturnType<typeof generator>;

/** Views' counts as a count over the tickets (how the endpoint answered before the counters). */
async function countedOverTickets(db: Pool, accountIds: string[] | undefined, me: string): Promise<TicketCounts> {
  const { rows } = await db.query<ViewCountRow>(
    `SELECT t.queue, t.folder, count(*) AS total, count(*) FILTER (WHERE t.assignee = $2) AS mine,
            count(*) FILTER (WHERE t.assignee IS NULL) AS unassigned, count(*) FILTER (WHERE t.sla_breached) AS breached
       FROM tickets t WHERE t.status IN ('open', 'pending') AND ($1::text[] IS NULL OR t.account_id = ANY ($1))
      GROUP BY GROUPING SETS ((), (t.queue, t.folder)) ORDER BY t.queue NULLS FIRST, t.folder`,
    [accountIds ?? null, me],
  );
  return ticketCountsOf(rows);
}

/** Every combination's sum in the counters against the same grouping over the open and pending tickets. */
async function combinations(db: Pool): Promise<{ counters: unknown[]; tickets: unknown[] }> {
  const order = 'ORDER BY account_id, status, queue, folder, assignee NULLS FIRST, breached';
  const counters = await db.query(
    `SELECT account_id, status, queue, folder, assignee, breached, sum(tickets)::int AS n FROM ticket_view_counts
      GROUP BY account_id, status, queue, folder, assignee, breached HAVING sum(tickets) <> 0 ${order}`,
  );
  const tickets = await db.query(
    `SELECT account_id, status, queue, folder, assignee, sla_breached AS breached, count(*)::int AS n FROM tickets
      WHERE status IN ('open', 'pending') GROUP BY account_id, status, queue, folder, assignee, sla_breached ${order}`,
  );
  return { counters: counters.rows, tickets: tickets.rows };
}

let serial = 0;
async function insertTicket(db: Pick<Pool, 'query'>, random: Random): Promise<void> {
  serial += 1;
  await db.query(
    `INSERT INTO tickets (account_id, status, channel, queue, folder, conversation_key, subject, last_activity_at, assignee, sla_breached)
     VALUES ($1, $2, 'dm', $3, $4, $5, 'A ticket', now(), $6, $7)`,
    [random.pick(ACCOUNTS), random.pick(STATUSES.slice(0, 4)), random.pick(QUEUES), random.pick(FOLDERS), `conv:${serial}`, random.pick(AGENTS), random.chance(0.2)],
  );
}

/** One random change of one random ticket: what moves it between views, a change no view sees, a merge, or a deletion. */
async function changeTicket(db: Pick<Pool, 'query'>, random: Random): Promise<void> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM tickets ORDER BY random() LIMIT 2');
  if (rows.length < 2) return insertTicket(db, random);
  const [one, other] = [rows[0]!.id, rows[1]!.id];
  const change = random.pick(['status', 'queue', 'folder', 'assignee', 'breach', 'several', 'untracked', 'merge', 'delete', 'insert'] as const);
  const set: Record<typeof change, [string, unknown[]]> = {
    status: ['UPDATE tickets SET status = $2 WHERE id = $1', [one, random.pick(STATUSES.slice(0, 4))]],
    queue: ['UPDATE tickets SET queue = $2 WHERE id = $1', [one, random.pick(QUEUES)]],
    folder: ['UPDATE tickets SET folder = $2 WHERE id = $1', [one, random.pick(FOLDERS)]],
    assignee: ['UPDATE tickets SET assignee = $2 WHERE id = $1', [one, random.pick(AGENTS)]],
    breach: ['UPDATE tickets SET sla_breached = NOT sla_breached WHERE id = $1', [one]],
    several: ['UPDATE tickets SET queue = $2, assignee = $3, sla_breached = $4 WHERE id = $1', [one, random.pick(QUEUES), random.pick(AGENTS), random.chance(0.5)]],
    untracked: ['UPDATE tickets SET last_activity_at = now(), subject = subject || $2 WHERE id = $1', [one, '.']],
    merge: [`UPDATE tickets SET status = 'merged', merged_into = $2 WHERE id = $1 AND merged_into IS NULL`, [one, other]],
    delete: ['DELETE FROM tickets WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM tickets m WHERE m.merged_into = $1)', [one]],
    insert: ['SELECT 1', []],
  };
  if (change === 'insert') return insertTicket(db, random);
  const [sql, values] = set[change];
  try {
    await db.query(sql, values);
  } catch (error) {
    // Reopening a second ticket of a conversation that has an open one: the unique index refuses it, as it would in ticketing.
    if ((error as { code?: string }).code !== '23505') throw error;
  }
}

/** `transactions` transactions at once, each on a connection of its own, each making `changes` changes. */
async function concurrently(db: Pool, random: Random, transactions: number, changes: number): Promise<void> {
  await Promise.all(
    Array.from({ length: transactions }, async () => {
      const client = await db.connect();
      try {
        for (let attempt = 0; ; attempt += 1) {
          await client.query('BEGIN');
          try {
            for (let i = 0; i < changes; i += 1) {
              await client.query('SAVEPOINT change');
              await changeTicket(client, random).catch(async (error: unknown) => {
                await client.query('ROLLBACK TO SAVEPOINT change');
                if (!['40P01', '55P03'].includes((error as { code?: string }).code ?? '')) throw error;
              });
            }
            await client.query('COMMIT');
            return;
          } catch (error) {
            await client.query('ROLLBACK');
            if (attempt > 5) throw error;
          }
        }
      } finally {
        client.release();
      }
    }),
  );
}

describe('the views counters', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await freshDatabase('ticketing_view_counts');
    pool = testPool(db.url, { max: 8 });
  });

  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('are filled from the tickets already there when the migration runs', async () => {
    const before = mkdtempSync(path.join(tmpdir(), 'ticketing-migrations-'));
    try {
      for (const file of readdirSync(MIGRATIONS).filter((name) => name < COUNTERS_MIGRATION)) cpSync(path.join(MIGRATIONS, file), path.join(before, file));
      await migrate(db.url, before);
    } finally {
      rmSync(before, { recursive: true, force: true });
    }
    const random = generator(1);
    for (let i = 0; i < 60; i += 1) await insertTicket(pool, random);
    await expect(pool.query('SELECT 1 FROM ticket_view_counts')).rejects.toMatchObject({ code: '42P01' });

    await migrate(db.url, MIGRATIONS);

    const { counters, tickets } = await combinations(pool);
    expect(tickets.length).toBeGreaterThan(10);
    expect(counters).toEqual(tickets);
  });

  it('equal a count over the tickets after a random mix of changes, concurrent ones included', async () => {
    const random = generator(20261127);
    for (let i = 0; i < 200; i += 1) await changeTicket(pool, random);
    for (let round = 0; round < 4; round += 1) await concurrently(pool, random, 6, 12);

    const { counters, tickets } = await combinations(pool);
    expect(counters).toEqual(tickets);
    const slots = await pool.query<{ n: number }>('SELECT count(DISTINCT slot)::int AS n FROM ticket_view_counts');
    expect(slots.rows[0]!.n).toBeGreaterThan(1);
    const queries = new TicketQueries(pool);
    for (const accountId of [...ACCOUNTS, undefined]) {
      expect(await queries.counts({ accountId, me: 'agent-b' })).toEqual(await countedOverTickets(pool, accountId === undefined ? undefined : [accountId], 'agent-b'));
    }
    const someAccounts = ACCOUNTS.slice(0, 2);
    expect(await queries.counts({ accountIds: someAccounts, me: 'agent-a' })).toEqual(await countedOverTickets(pool, someAccounts, 'agent-a'));
  });

  it('fold each combination into one row and keep the counts, while tickets change', async () => {
    const random = generator(7);
    const folding = new ViewCountRepository(pool);
    // One combination spread over a second slot (as a session with another pid leaves it), so the fold has something to take whatever the timing.
    await pool.query(
      `INSERT INTO ticket_view_counts (account_id, status, queue, folder, assignee, breached, slot, tickets)
       SELECT account_id, status, queue, folder, assignee, breached, (slot + 1) % 8, 0 FROM ticket_view_counts LIMIT 1 ON CONFLICT DO NOTHING`,
    );
    const [taken] = await Promise.all([folding.fold(), concurrently(pool, random, 4, 10)]);
    expect(taken).toBeGreaterThan(0);
    await folding.fold();

    const { counters, tickets } = await combinations(pool);
    expect(counters).toEqual(tickets);
    const spread = await pool.query(
      `SELECT account_id FROM ticket_view_counts GROUP BY account_id, status, queue, folder, assignee, breached HAVING count(*) > 1 OR sum(tickets) = 0`,
    );
    expect(spread.rows).toEqual([]);
  });

  it('are emptied with the tickets', async () => {
    await pool.query('TRUNCATE tickets CASCADE');
    expect((await pool.query('SELECT 1 FROM ticket_view_counts')).rows).toEqual([]);
    expect(await new TicketQueries(pool).counts({ me: 'agent-a' })).toEqual({ open: 0, mine: 0, unassigned: 0, breached: 0, folders: [] });
  });
});
