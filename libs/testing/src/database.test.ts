import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropMigratedTemplates, freshDatabase, migratedDatabase, migratedTemplateName, testClient, testPool, waitFor, type TestDatabase } from './index';

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

it("migrated databases, asked for together, each hold the migrations' schema and rows, copied from one template no one connects to", async () => {
  // The ticketing service's migrations: the most of any service, an extension among them.
  const dir = join(__dirname, '..', '..', '..', 'services', 'ticketing', 'migrations');
  const copies = await Promise.all([migratedDatabase('migrated_a', dir), migratedDatabase('migrated_b', dir)]);
  try {
    for (const copy of copies) {
      const client = testClient(copy.url);
      await client.connect();
      try {
        const applied = await client.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY run_on, id');
        const files = readdirSync(dir).map((file) => file.replace(/\.sql$/, ''));
        expect(applied.rows.map((row) => row.name).sort()).toEqual(files.sort());
        const templates = await client.query<{ datallowconn: boolean }>("SELECT datallowconn FROM pg_database WHERE datistemplate AND datname LIKE 'test\\_template\\_%'");
        expect(templates.rows.length).toBeGreaterThan(0);
        expect(templates.rows.every((row) => !row.datallowconn)).toBe(true);
      } finally {
        await client.end();
      }
    }
    // Each copy is its own: a row written in one is not in the other.
    const [a, b] = copies.map((copy) => testClient(copy.url));
    await Promise.all([a!.connect(), b!.connect()]);
    try {
      await a!.query('CREATE TABLE only_in_a (id int)');
      expect((await b!.query("SELECT to_regclass('only_in_a') AS t")).rows[0].t).toBeNull();
    } finally {
      await Promise.all([a!.end(), b!.end()]);
    }
  } finally {
    await Promise.all(copies.map((copy) => copy.drop()));
  }
});

it('the teardown drops a template of migrated databases, which the next migratedDatabase makes again; the copies stay', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  // A set of migrations of this test's own: its template is no other file's.
  writeFileSync(join(dir, '1000000000000_notes.sql'), `-- Up Migration\nCREATE TABLE notes (id int); -- ${dir}`);
  const template = migratedTemplateName(dir);
  const templateCount = async () => {
    const admin = testClient(db.url);
    await admin.connect();
    try {
      return (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template])).rowCount;
    } finally {
      await admin.end();
    }
  };
  const first = await migratedDatabase('dropped_template', dir);
  try {
    expect(await templateCount()).toBe(1);
    expect(await dropMigratedTemplates([template])).toBe(1);
    expect(await templateCount()).toBe(0);
    const second = await migratedDatabase('dropped_template', dir);
    await second.drop();
    for (const copy of [first, second]) expect(copy.url).toMatch(/test_dropped_template_/);
    const client = testClient(first.url);
    await client.connect();
    try {
      expect((await client.query("SELECT to_regclass('notes') AS t")).rows[0].t).toBe('notes');
    } finally {
      await client.end();
    }
  } finally {
    await first.drop();
    await dropMigratedTemplates([template]);
    rmSync(dir, { recursive: true, force: true });
  }
});

it("the teardown drops this run's templates only: a run beside it on the server keeps its own", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  writeFileSync(join(dir, '1000000000000_notes.sql'), `-- Up Migration\nCREATE TABLE notes (id int); -- ${dir}`);
  // Two runs of this test's own (the real run's templates are other files' to use): 'this' and 'other'.
  const realRun = process.env.TEST_RUN_ID;
  const otherRun = `other${Date.now().toString(36)}`;
  const thisRun = `this${Date.now().toString(36)}`;
  const copies: TestDatabase[] = [];
  try {
    process.env.TEST_RUN_ID = otherRun;
    const othersTemplate = migratedTemplateName(dir);
    copies.push(await migratedDatabase('other_run', dir));
    process.env.TEST_RUN_ID = thisRun;
    const ownTemplate = migratedTemplateName(dir);
    expect(ownTemplate).not.toBe(othersTemplate);
    copies.push(await migratedDatabase('this_run', dir));
    await dropMigratedTemplates();
    const admin = testClient(db.url);
    await admin.connect();
    try {
      const left = (await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname = ANY($1)', [[ownTemplate, othersTemplate]])).rows.map((row) => row.datname);
      expect(left).toEqual([othersTemplate]);
    } finally {
      await admin.end();
    }
    expect(await dropMigratedTemplates([othersTemplate])).toBe(1);
  } finally {
    if (realRun === undefined) delete process.env.TEST_RUN_ID;
    else process.env.TEST_RUN_ID = realRun;
    await Promise.all(copies.map((copy) => copy.drop()));
    rmSync(dir, { recursive: true, force: true });
  }
});
