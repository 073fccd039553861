/**
 * The migration that puts each ticket's created_at on its search document, run on a database
 * that already holds tickets and documents (real PostgreSQL): it fills every document
 * set-based, and the refresh keeps filling it for new tickets afterwards.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, type Pool } from '@crm/db';
import { freshDatabase, testPool, type TestDatabase } from '@crm/testing';
import { TicketQueries } from './adapters/db/ticket-queries';
import { parseTicketSearch } from './domain/ticket-search';

const MIGRATIONS = path.join(__dirname, '../migrations');
const ORDER_MIGRATION = '1781750000000_ticket-search-order.sql';
const ACCOUNT = '33000001';

let db: TestDatabase;
let pool: Pool;

beforeAll(async () => {
  db = await freshDatabase('search_order_migration');
  pool = testPool(db.url, { max: 2 });
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

const insertTickets = (subject: string, count: number) =>
  pool.query(
    `INSERT INTO tickets (account_id, status, channel, queue, folder, conversation_key, subject, created_at, last_activity_at)
     SELECT $1, 'closed', 'dm', 'social', 'inbox', $2 || n, $2 || ' ' || n, now() - n * interval '1 hour', now()
       FROM generate_series(1, $3::int) n`,
    [ACCOUNT, subject, count],
  );

it("fills the created_at of the documents already there, and the refresh fills a new ticket's", async () => {
  const before = mkdtempSync(path.join(tmpdir(), 'ticketing-migrations-'));
  try {
    for (const file of readdirSync(MIGRATIONS).filter((name) => name < ORDER_MIGRATION)) cpSync(path.join(MIGRATIONS, file), path.join(before, file));
    await migrate(db.url, before);
  } finally {
    rmSync(before, { recursive: true, force: true });
  }
  await pool.query("INSERT INTO accounts (account_id, status, status_changed_at) VALUES ($1, 'connected', now())", [ACCOUNT]);
  await insertTickets('heron', 40);

  await migrate(db.url, MIGRATIONS);
  await insertTickets('ibis', 3);

  const { rows } = await pool.query<{ documents: number; same: number }>(
    'SELECT count(*)::int AS documents, count(*) FILTER (WHERE s.created_at = t.created_at)::int AS same FROM ticket_search s JOIN tickets t ON t.id = s.ticket_id',
  );
  expect(rows[0]).toEqual({ documents: 43, same: 43 });
  const page = await new TicketQueries(pool).tickets({ q: parseTicketSearch('heron'), accountId: ACCOUNT, limit: 5 });
  expect(page.rows.map((ticket) => ticket.subject)).toEqual(['heron 1', 'heron 2', 'heron 3', 'heron 4', 'heron 5']);
  expect(page.more).toBe(true);
});
