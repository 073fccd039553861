import { freshDatabase, testClient, testPool, waitFor, type TestDatabase } from './index';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase('test_pool');
});
afterAll(async () => {
  await db.drop();
});

/** Ends a backend as an administrator (or a failover) would: 57P01 on that connection. */
async function terminate(pid: number): Promise<void> {
  const admin = testClient(db.url);
  await admin.connect();
  try {
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
}

it("a test pool hears the end of an idle connection by the server, and its next query works on another", async () => {
  const pool = testPool(db.url, { max: 1 });
  try {
    const first = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    expect(pool.idleCount).toBe(1);
    await terminate(first);
    // The pool drops the ended connection once it has heard its error (unheard, the error would throw out of the process).
    await waitFor(() => pool.totalCount === 0, { what: 'the pool to drop the ended connection' });
    const next = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    expect(next).not.toBe(first);
  } finally {
    await pool.end();
  }
});

it('a test client hears its end by the server: the next query fails on that client, not the process', async () => {
  const client = testClient(db.url);
  await client.connect();
  const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const ended = new Promise((resolve) => client.once('end', resolve));
  await terminate(pid);
  await ended;
  await expect(client.query('SELECT 1')).rejects.toThrow();
  await client.end().catch(() => undefined);
});
