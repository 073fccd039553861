import { freshDatabase, testPool, waitFor, type TestDatabase } from '@crm/testing';
import { createPool, PREPARED_PER_CONNECTION, TRANSACTION_ATTEMPTS, withTransaction, type Pool } from './index';

let db: TestDatabase;
let pool: Pool;

beforeAll(async () => {
  db = await freshDatabase('db_transactions');
  pool = testPool(db.url, { max: 4 });
  await pool.query('CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL)');
});

afterAll(async () => {
  await pool.end();
  await db.drop();
});

beforeEach(async () => {
  await pool.query('TRUNCATE counters');
  await pool.query('INSERT INTO counters (id, n) VALUES (1, 0), (2, 0)');
});

describe('withTransaction', () => {
  it('runs a transaction PostgreSQL broke for a deadlock again: both transactions commit', async () => {
    let runs = 0;
    let locked = 0;
    let bothLocked!: () => void;
    const crosswise = new Promise<void>((resolve) => (bothLocked = resolve));
    // Each takes one row, waits until the other holds the other row, then takes it: a deadlock on the first attempt.
    const bump = (first: number, second: number) =>
      withTransaction(pool, async (client) => {
        runs += 1;
        await client.query('UPDATE counters SET n = n + 1 WHERE id = $1', [first]);
        locked += 1;
        if (locked === 2) bothLocked();
        await crosswise;
        await client.query('UPDATE counters SET n = n + 1 WHERE id = $1', [second]);
        return `${first}-${second}`;
      });

    await expect(Promise.all([bump(1, 2), bump(2, 1)])).resolves.toEqual(['1-2', '2-1']);
    expect(runs).toBe(3); // one of the two ran again
    const { rows } = await pool.query<{ id: number; n: number }>('SELECT id, n FROM counters ORDER BY id');
    expect(rows).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it('gives up after a bounded number of attempts, and never retries other errors', async () => {
    let runs = 0;
    const alwaysConflicting = withTransaction(pool, async (client) => {
      runs += 1;
      await client.query('UPDATE counters SET n = n + 1 WHERE id = 1');
      throw Object.assign(new Error('could not serialize access'), { code: '40001' });
    });
    await expect(alwaysConflicting).rejects.toMatchObject({ code: '40001' });
    expect(runs).toBe(TRANSACTION_ATTEMPTS);

    runs = 0;
    const broken = withTransaction(pool, async (client) => {
      runs += 1;
      await client.query('UPDATE counters SET n = n + 1 WHERE id = 1');
      await client.query('SELECT * FROM no_such_table');
    });
    await expect(broken).rejects.toMatchObject({ code: '42P01' });
    expect(runs).toBe(1);
    expect((await pool.query('SELECT n FROM counters WHERE id = 1')).rows[0]).toEqual({ n: 0 }); // every attempt rolled back
  });
});

describe('prepared statements', () => {
  it('prepares a parameterised statement once per connection, runs other statements as given, and keeps a bounded number', async () => {
    const own = testPool(db.url, { max: 1 });
    const client = await own.connect();
    try {
      const prepared = async () => (await client.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows.map((row) => row.statement);
      for (const n of [1, 2, 3]) expect((await client.query<{ n: number }>('SELECT n FROM counters WHERE id = $1', [n === 3 ? 2 : 1])).rows).toEqual([{ n: 0 }]);
      await client.query('SELECT count(*) FROM counters');
      await client.query({ text: 'SELECT n FROM counters WHERE id = $1 AND n >= 0', values: [1] });
      expect(await prepared()).toEqual(['SELECT n FROM counters WHERE id = $1']);

      for (let i = 0; i < PREPARED_PER_CONNECTION + 20; i += 1) await client.query(`SELECT $1::int + ${i} AS n`, [1]);
      expect(await prepared()).toHaveLength(PREPARED_PER_CONNECTION);
      expect((await client.query<{ n: number }>(`SELECT $1::int + ${PREPARED_PER_CONNECTION + 19} AS n`, [1])).rows).toEqual([{ n: PREPARED_PER_CONNECTION + 20 }]);
    } finally {
      client.release();
      await own.end();
    }
  });
});

describe('idle connections', () => {
  it('tells of an idle connection the server ends, and answers the next query on another', async () => {
    const heard: Error[] = [];
    const own = createPool(db.url, { max: 1, applicationName: 'idle-ended', onIdleError: (error) => heard.push(error) });
    try {
      await own.query('SELECT 1');
      await pool.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'idle-ended'");
      await waitFor(() => heard.length > 0, { what: 'the pool to tell of the ended connection' });
      expect(heard).toEqual([expect.objectContaining({ code: '57P01' })]);
      expect((await own.query<{ n: number }>('SELECT 2 AS n')).rows).toEqual([{ n: 2 }]);
    } finally {
      await own.end();
    }
  });
});
