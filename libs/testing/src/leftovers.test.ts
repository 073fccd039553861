/**
 * What a run removes of what cut-off runs left behind: only test virtual hosts and databases
 * old enough and unused. Each case limits the sweep to its own names, so what other runs on
 * the machine have is never in reach.
 */
import { randomBytes } from 'node:crypto';
import amqplib from 'amqplib';
import { amqpUrl, databaseServerUrl, emptyVirtualHostPool, fillVirtualHostPool, freshVirtualHost, rabbitmqctl, testVirtualHostName, virtualHostCreatedAt } from './environment';
import { freshDatabase, testClient } from './helpers';
import { sweepDatabases, sweepVirtualHosts } from './leftovers';

const HOUR = 3_600_000;

async function virtualHosts(): Promise<string[]> {
  const { stdout } = await rabbitmqctl(['-q', 'list_vhosts', 'name', '--no-table-headers']);
  return stdout.split('\n').map((line) => line.trim());
}

async function databaseExists(name: string): Promise<boolean> {
  const admin = new URL(databaseServerUrl());
  admin.pathname = '/postgres';
  const client = testClient(admin.toString());
  await client.connect();
  try {
    return (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

it('reads the age of a test virtual host from its name, and none from a name of another form', () => {
  expect(virtualHostCreatedAt(testVirtualHostName('console-auth', 1_790_000_000_000))).toBe(1_790_000_000_000);
  expect(virtualHostCreatedAt('test-console-auth-1a2b3c4d')).toBeNull();
  expect(virtualHostCreatedAt('/')).toBeNull();
  expect(virtualHostCreatedAt('crm')).toBeNull();
});

it('makes a virtual host the tests\' user may declare and publish on, and drops it whole', async () => {
  const vhost = await freshVirtualHost('fresh');
  const name = decodeURIComponent(vhost.url.split('/').pop()!);
  const connection = await amqplib.connect(vhost.url);
  try {
    const channel = await connection.createConfirmChannel();
    await channel.assertQueue('work', { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    channel.sendToQueue('work', Buffer.from('one'), { persistent: true });
    await channel.waitForConfirms();
    expect((await channel.checkQueue('work')).messageCount).toBe(1);
  } finally {
    await connection.close();
  }
  expect(await virtualHosts()).toContain(name);
  await vhost.drop();
  expect(await virtualHosts()).not.toContain(name);
});

it("hands out the run's pool of virtual hosts, each once, then makes new ones, and deletes the pool whole", async () => {
  const runPool = process.env.TEST_VIRTUAL_HOST_POOL;
  try {
    await fillVirtualHostPool(2);
    const taken = await Promise.all([freshVirtualHost('a'), freshVirtualHost('b'), freshVirtualHost('c')]);
    const names = taken.map((vhost) => decodeURIComponent(vhost.url.split('/').pop()!));
    expect(new Set(names).size).toBe(3);
    expect(names.filter((name) => name.startsWith('test-pool-'))).toHaveLength(2);
    const made = names.find((name) => !name.startsWith('test-pool-'))!;
    expect(await virtualHosts()).toEqual(expect.arrayContaining(names));
    // A pool host a file forgot to drop goes with the pool; the one made on demand is its file's to drop.
    await emptyVirtualHostPool();
    expect((await virtualHosts()).filter((name) => names.includes(name))).toEqual([made]);
    await taken[names.indexOf(made)]!.drop();
  } finally {
    if (runPool === undefined) delete process.env.TEST_VIRTUAL_HOST_POOL;
    else process.env.TEST_VIRTUAL_HOST_POOL = runPool;
  }
});

it('deletes an old test virtual host nothing uses, keeps an old one in use and a young one', async () => {
  const prefix = `leftover-${randomBytes(3).toString('hex')}`;
  const [unused, inUse] = [testVirtualHostName(`${prefix}-unused`, Date.now() - 2 * HOUR), testVirtualHostName(`${prefix}-used`, Date.now() - 2 * HOUR)];
  for (const name of [unused, inUse]) await rabbitmqctl(['add_vhost', name]);
  await rabbitmqctl(['set_permissions', '-p', inUse, decodeURIComponent(new URL(amqpUrl()).username || 'guest'), '.*', '.*', '.*']);
  const young = await freshVirtualHost(`${prefix}-young`);
  const url = new URL(amqpUrl());
  url.pathname = `/${encodeURIComponent(inUse)}`;
  const connection = await amqplib.connect(url.toString());
  try {
    expect(await sweepVirtualHosts(Date.now() - HOUR / 2, (name) => name.startsWith(`test-${prefix}-`))).toBe(1);
    const left = await virtualHosts();
    expect([unused, inUse, young.url.split('/').pop()!].map((name) => left.includes(decodeURIComponent(name)))).toEqual([false, true, true]);
  } finally {
    await connection.close();
    await rabbitmqctl(['delete_vhost', inUse]);
    await young.drop();
  }
});

it('drops a test database made before the cut-off that no session uses, and keeps one in use or made after', async () => {
  const prefix = `leftover_${randomBytes(3).toString('hex')}`;
  const [unused, inUse] = [await freshDatabase(`${prefix}_unused`), await freshDatabase(`${prefix}_used`)];
  const nameOf = (db: { url: string }) => new URL(db.url).pathname.slice(1);
  const session = testClient(inUse.url);
  await session.connect();
  try {
    const only = `^test_${prefix}_`;
    expect(await sweepDatabases(Date.now() - HOUR / 2, only)).toBe(0);
    expect(await sweepDatabases(Date.now() + 60_000, only)).toBe(1);
    expect([await databaseExists(nameOf(unused)), await databaseExists(nameOf(inUse))]).toEqual([false, true]);
  } finally {
    await session.end();
    await inUse.drop();
    await unused.drop();
  }
});
