import { freePort, freshDatabase, type TestDatabase } from '@crm/testing';
import { createPool, databaseServers, ensureDatabase, resolveDatabaseUrl, type Pool } from './index';

let db: TestDatabase;
let dbName: string;
let refusing: number;

/** db's URL with a server nobody listens on named before its own. */
const withRefusingFirst = (url: string, attrs = '?target_session_attrs=read-write') => {
  const { servers, urlFor } = databaseServers(url);
  const real = servers[0]!;
  return urlFor(real).replace(`${real.host}:${real.port}`, `127.0.0.1:${refusing},${real.host}:${real.port}`) + attrs;
};

beforeAll(async () => {
  db = await freshDatabase('db_hosts');
  dbName = new URL(db.url).pathname.slice(1);
  refusing = await freePort();
});

afterAll(async () => {
  await db.drop();
});

describe('databaseServers', () => {
  it('reads every host of a libpq-style URL and keeps the other parameters', () => {
    const { servers, readWrite, urlFor } = databaseServers('postgres://app:s%3Acret@db1:5441,db2/crm?target_session_attrs=read-write&sslmode=disable');
    expect(servers).toEqual([
      { host: 'db1', port: 5441 },
      { host: 'db2', port: 5432 },
    ]);
    expect(readWrite).toBe(true);
    expect(urlFor(servers[1]!)).toBe('postgres://app:s%3Acret@db2:5432/crm?sslmode=disable');
  });

  it('takes a one-host URL as it is', async () => {
    expect(databaseServers(db.url).readWrite).toBe(false);
    await expect(resolveDatabaseUrl(db.url)).resolves.toBe(db.url);
  });
});

describe('a URL naming several servers', () => {
  let pool: Pool | undefined;

  afterEach(async () => {
    await pool?.end();
    pool = undefined;
  });

  it('connects to the server that answers when the first refuses', async () => {
    const url = withRefusingFirst(db.url);
    pool = createPool(url, { max: 2 });
    const { rows } = await pool.query<{ port: number }>('SELECT inet_server_port() AS port');
    expect(rows[0]!.port).toBe(databaseServers(db.url).servers[0]!.port);
    await expect(resolveDatabaseUrl(url)).resolves.toBe(db.url);
  });

  it('creates the database on the server that answers', async () => {
    const url = withRefusingFirst(db.url).replace(`/${dbName}?`, `/${dbName}_made?`);
    await ensureDatabase(url);
    const made = createPool(url, { max: 1 });
    const { rows } = await made.query<{ name: string }>('SELECT current_database() AS name');
    await made.end();
    expect(rows[0]!.name).toBe(`${dbName}_made`);
    pool = createPool(db.url, { max: 1 });
    await pool.query(`DROP DATABASE "${dbName}_made"`);
  });

  it('says which servers it tried and what each answered when none will do', async () => {
    const other = await freePort();
    pool = createPool(`postgres://postgres@127.0.0.1:${refusing},127.0.0.1:${other}/${dbName}?target_session_attrs=read-write`, { max: 1 });
    await expect(pool.query('SELECT 1')).rejects.toThrow(
      new RegExp(`no database server that takes writes answered \\(127\\.0\\.0\\.1:${refusing}: .*ECONNREFUSED.*; 127\\.0\\.0\\.1:${other}: .*ECONNREFUSED`),
    );
  });
});
