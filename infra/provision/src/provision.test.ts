/**
 * The provisioned boundaries on a fresh vhost and fresh databases, with users and roles named
 * for this run only (created and dropped here): what each service's broker user and database
 * roles may and may not do, and the services working end to end with them.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import amqplib from 'amqplib';
import { Exchanges, Queues, SYSTEM_TOPOLOGY, ticketingActivityPartition, WebhookKeyRequest } from '@crm/contracts';
import { migrate } from '@crm/db';
import { Broker, makeEnvelope, RpcClient, RpcError, RpcServer } from '@crm/messaging';
import { amqpUrl, databaseServerUrl, testLogger, testClient } from '@crm/testing';
import { authRpcMethods } from '@crm/auth/src/handlers/rpc-methods';
import type { AppCredentialsStore } from '@crm/auth/src/adapters/app-credentials';
import { APPEND_ONLY_TABLES, DATABASE_SERVICES, databaseRolesOf, deleteBrokerUsers, dropDatabaseRoles, provision, rabbitmqctl, type Provisioned } from './provision';

const run = randomBytes(4).toString('hex');
const prefix = `lp_${run}_`;
const vhost = `test-provision-${run}`;
const logger = testLogger('provision-test');
const SECRET = `secret-${run}`;
const databases = { auth: `test_prov_auth_${run}`, ticketing: `test_prov_ticketing_${run}`, tracking: `test_prov_tracking_${run}` };
const options = () => {
  const admin = new URL(amqpUrl());
  admin.pathname = `/${vhost}`;
  return { amqpAdminUrl: admin.toString(), databaseAdminUrl: databaseServerUrl(), brokerUserPrefix: prefix, rolePrefix: prefix, databases };
};

let provisioned: Provisioned;
const closers: (() => Promise<unknown>)[] = [];

/** The broker's refusal (ACCESS_REFUSED, PRECONDITION_FAILED, ...) of what `work` does on a fresh channel of `url`, or 'allowed'. */
async function outcome(url: string, work: (channel: amqplib.ConfirmChannel) => Promise<unknown>): Promise<string> {
  const connection = await amqplib.connect(url);
  connection.on('error', () => undefined);
  try {
    const channel = await connection.createConfirmChannel();
    const closed = new Promise<string>((resolve) => channel.on('error', (error: Error) => resolve(error.message)));
    const done = work(channel).then(
      () => channel.waitForConfirms().then(() => 'allowed'),
      (error: Error) => error.message,
    );
    return await Promise.race([closed, done]);
  } finally {
    await connection.close().catch(() => undefined);
  }
}

const publishTo = (exchange: string, routingKey: string, properties: amqplib.Options.Publish = {}) => (channel: amqplib.ConfirmChannel) => {
  channel.publish(exchange, routingKey, Buffer.from('{}'), properties);
  return Promise.resolve();
};

const urlOf = (service: keyof Provisioned['services']) => provisioned.services[service].AMQP_URL;

const migrationsOf = (service: string) => path.join(__dirname, '..', '..', '..', 'services', service, 'migrations');

/** Whether a role holds each DML right on a table (as PostgreSQL's catalog says). */
async function rightsOf(url: string, role: string, table: string): Promise<Record<'select' | 'insert' | 'update' | 'delete' | 'truncate', boolean>> {
  const client = testClient(url);
  await client.connect();
  try {
    const privilege = (name: string) => `has_table_privilege($1, $2, '${name}') AS ${name.toLowerCase()}`;
    const { rows } = await client.query(`SELECT ${['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'].map(privilege).join(', ')}`, [role, `public.${table}`]);
    return rows[0];
  } finally {
    await client.end();
  }
}

const READ_AND_ADD = { select: true, insert: true, update: false, delete: false, truncate: false };

/** The table and its partitions (the raw log has one a week), each a table of its own to the rights. */
async function withPartitions(url: string, table: string): Promise<string[]> {
  const client = testClient(url);
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>('SELECT $1::text AS name UNION ALL SELECT c.relname::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass($1)', [table]);
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}
/** The app role's rights on each append-only table right after the migrations, before provisioning ran again. */
const rightsAfterMigrations: Record<string, unknown> = {};

beforeAll(async () => {
  provisioned = await provision(options());
  // The services' tables, made by their migrator after the first run (as on a fresh `pnpm start`).
  for (const service of DATABASE_SERVICES) {
    const { DATABASE_MIGRATION_URL: migrator } = provisioned.services[service];
    await migrate(migrator!, migrationsOf(service));
    for (const table of APPEND_ONLY_TABLES[service]) {
      for (const part of await withPartitions(migrator!, table)) rightsAfterMigrations[`${service}.${part}`] = await rightsOf(migrator!, `${prefix}${service}_app`, part);
    }
  }
  // Provisioning again keeps everything working (idempotent), with the same passwords; every `pnpm start` does.
  provisioned = await provision({ ...options(), passwords: provisioned.passwords });
  provisioned = await provision({ ...options(), passwords: provisioned.passwords });
}, 180_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await deleteBrokerUsers(prefix);
  await rabbitmqctl(['delete_vhost', vhost]).catch(() => undefined);
  const password = () => '';
  for (const service of ['auth', 'ticketing', 'tracking'] as const) await dropDatabaseRoles(databaseServerUrl(), databaseRolesOf({ ...options() }, service, password));
}, 120_000);

describe('broker users', () => {
  it('only webhook-ingest may publish activity', async () => {
    expect(await outcome(urlOf('webhook-ingest'), publishTo(Exchanges.socialActivity, 'direct_message.1'))).toBe('allowed');
    for (const service of ['ticketing', 'auth', 'tracking'] as const) {
      expect(await outcome(urlOf(service), publishTo(Exchanges.socialActivity, 'direct_message.1'))).toMatch(/ACCESS_REFUSED/);
    }
  });

  it('only ticketing may publish commands, and nobody may write to the default exchange but the RPC servers', async () => {
    expect(await outcome(urlOf('ticketing'), publishTo(Exchanges.socialCommands, 'dm.send'))).toBe('allowed');
    expect(await outcome(urlOf('webhook-ingest'), publishTo(Exchanges.socialCommands, 'dm.send'))).toMatch(/ACCESS_REFUSED/);
    expect(await outcome(urlOf('ticketing'), publishTo('', Queues.authCommands))).toMatch(/ACCESS_REFUSED/);
    expect(await outcome(urlOf('webhook-ingest'), publishTo('', Queues.authRpc))).toMatch(/ACCESS_REFUSED/);
  });

  it('a service consumes only its own queues and declares nothing', async () => {
    const consume = (queue: string) => (channel: amqplib.ConfirmChannel) => channel.consume(queue, () => undefined);
    expect(await outcome(urlOf('ticketing'), consume(ticketingActivityPartition(0)))).toBe('allowed');
    expect(await outcome(urlOf('ticketing'), consume(Queues.authCommands))).toMatch(/ACCESS_REFUSED/);
    expect(await outcome(urlOf('webhook-ingest'), consume(Queues.authRpc))).toMatch(/ACCESS_REFUSED/);
    expect(await outcome(urlOf('auth'), (channel) => channel.assertQueue(`lp-new-${run}`))).toMatch(/ACCESS_REFUSED/);
  });

  it('refuses a message whose user id is not its sender', async () => {
    const forged = publishTo(Exchanges.authRpc, Queues.authRpc, { userId: provisioned.services['webhook-ingest'].BROKER_USER });
    expect(await outcome(urlOf('ticketing'), forged)).toMatch(/PRECONDITION_FAILED/);
  });
});

describe('the webhook key', () => {
  const store = { find: () => Promise.resolve({ consumerKey: 'key', consumerSecret: SECRET }) } as unknown as AppCredentialsStore;
  const client = (service: 'webhook-ingest' | 'ticketing') => {
    const broker = new Broker({ url: urlOf(service), name: `lp-${service}`, logger, topology: 'verify' });
    const rpc = new RpcClient(broker, service, SYSTEM_TOPOLOGY);
    closers.push(() => broker.close(), () => rpc.close());
    return rpc;
  };

  beforeAll(async () => {
    const broker = new Broker({ url: urlOf('auth'), name: 'lp-auth', logger, topology: 'verify' });
    const callers = { webhookKey: [provisioned.services['webhook-ingest'].BROKER_USER] };
    const server = new RpcServer(broker, { queue: Queues.authRpc, topology: SYSTEM_TOPOLOGY, producer: 'auth', methods: authRpcMethods(store, { execute: () => Promise.reject(new Error('no searches here')) }, { webhookKeyOverlapMs: 0, callers }) });
    closers.push(() => broker.close(), () => server.stop(1000));
    await server.ready();
  });

  it('goes to webhook-ingest', async () => {
    await expect(client('webhook-ingest').call(Queues.authRpc, WebhookKeyRequest, { envName: 'prod' }, { timeoutMs: 20_000 })).resolves.toEqual({ consumerSecret: SECRET });
  });

  it('is refused to any other broker user', async () => {
    const refused = client('ticketing').call(Queues.authRpc, WebhookKeyRequest, { envName: 'prod' }, { timeoutMs: 20_000 });
    await expect(refused).rejects.toThrow(RpcError);
    await expect(refused).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('is not answered to a request sent without a user id', async () => {
    const envelope = makeEnvelope(WebhookKeyRequest, 'lp', { envName: 'prod' });
    const connection = await amqplib.connect(urlOf('webhook-ingest'));
    connection.on('error', () => undefined);
    closers.push(() => connection.close());
    const channel = await connection.createChannel();
    const reply = new Promise<string>((resolve) => void channel.consume('amq.rabbitmq.reply-to', (message) => message && resolve(message.content.toString()), { noAck: true }));
    channel.publish(Exchanges.authRpc, Queues.authRpc, Buffer.from(JSON.stringify(envelope)), { replyTo: 'amq.rabbitmq.reply-to', correlationId: 'c1' });
    const answer = JSON.parse(await reply) as { payload: { ok: boolean; error?: { code: string } } };
    expect(answer.payload).toEqual({ ok: false, error: { code: 'forbidden', message: expect.any(String) } });
  });
});

describe('database roles', () => {
  const query = async (url: string, sql: string) => {
    const client = testClient(url);
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const refusal = (url: string, sql: string) => query(url, sql).then(() => 'allowed', (error: { code?: string }) => error.code);

  it('the migrator creates tables; the app role reads and writes rows, nothing more', async () => {
    const { DATABASE_URL: app, DATABASE_MIGRATION_URL: migrator } = provisioned.services.ticketing;
    await query(migrator!, 'CREATE TABLE lp_things (id serial PRIMARY KEY, name text)');
    await query(app!, "INSERT INTO lp_things (name) VALUES ('one')");
    expect((await query(app!, 'SELECT name FROM lp_things')).rows).toEqual([{ name: 'one' }]);
    expect(await refusal(app!, 'CREATE TABLE lp_mine (id int)')).toBe('42501');
    expect(await refusal(app!, 'DROP TABLE lp_things')).toBe('42501');
    expect(await refusal(app!, 'ALTER TABLE lp_things ADD COLUMN x int')).toBe('42501');
    expect((await query(app!, "SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = current_user")).rows).toEqual([{ rolsuper: false, rolcreatedb: false, rolcreaterole: false }]);
  });

  it("a service's roles cannot reach another service's database", async () => {
    const other = new URL(provisioned.services.ticketing.DATABASE_URL!);
    other.pathname = `/${databases.auth}`;
    expect(await refusal(other.toString(), 'SELECT 1')).toBe('42501');
  });

  const appendOnly = DATABASE_SERVICES.flatMap((service) => APPEND_ONLY_TABLES[service].map((table) => [service, table] as const));
  const urls = (service: (typeof DATABASE_SERVICES)[number]) => ({ app: provisioned.services[service].DATABASE_URL!, migrator: provisioned.services[service].DATABASE_MIGRATION_URL! });
  const ROWS: Record<string, string> = {
    audit_log: "INSERT INTO audit_log (principal_id, principal_name, method, path, status) VALUES ('p1', 'test', 'POST', '/v1/x', 201)",
    raw_log: `INSERT INTO raw_log (delivery_id, env_name, kind, received_at, body_sha256, message) VALUES ('delivery-' || md5(random()::text), 'test', 'direct_message_events', now(), 'sha', '\\x7b7d')`,
  };

  it.each(appendOnly)("%s's app role may only read and add to %s, right after its migrations and after any number of runs", async (service, table) => {
    const { app, migrator } = urls(service);
    for (const part of await withPartitions(migrator, table)) {
      expect({ part, ...(rightsAfterMigrations[`${service}.${part}`] as object) }).toEqual({ part, ...READ_AND_ADD });
      expect({ part, ...(await rightsOf(migrator, `${prefix}${service}_app`, part)) }).toEqual({ part, ...READ_AND_ADD });
    }
    await query(app, ROWS[table]!);
    expect(Number((await query(app, `SELECT count(*) AS n FROM ${table}`)).rows[0].n)).toBeGreaterThan(0);
    expect(await refusal(app, `DELETE FROM ${table}`)).toBe('42501');
    expect(await refusal(app, `UPDATE ${table} SET ${table === 'raw_log' ? 'env_name' : 'path'} = 'forged'`)).toBe('42501');
    expect(await refusal(app, `TRUNCATE ${table}`)).toBe('42501');
  });

  it("every other table of a service's database stays the app role's to read and write", async () => {
    for (const service of DATABASE_SERVICES) {
      const { migrator } = urls(service);
      const { rows } = await query(migrator, "SELECT c.relname AS tablename FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition");
      const others = rows.map((row: { tablename: string }) => row.tablename).filter((table: string) => !APPEND_ONLY_TABLES[service].includes(table));
      expect(others).toContain({ auth: 'api_credentials', ticketing: 'tickets', tracking: 'tracking_clients' }[service]);
      for (const table of others) expect({ table, ...(await rightsOf(migrator, `${prefix}${service}_app`, table)) }).toEqual({ table, select: true, insert: true, update: true, delete: true, truncate: false });
    }
  });

  it('the raw log refuses DELETE to a role holding the right; the purge, as the owner, drops the weeks past the cutoff; the next run takes the right back', async () => {
    const { app, migrator } = urls('ticketing');
    const appRole = `${prefix}ticketing_app`;
    await query(app, `INSERT INTO raw_log (delivery_id, env_name, kind, received_at, logged_at, body_sha256, message) VALUES ('delivery-' || md5(random()::text), 'test', 'direct_message_events', now() - interval '8 days', now() - interval '8 days', 'sha', '\\x7b7d')`);
    // As an older provisioning left it: DELETE granted on every table.
    await query(migrator, `GRANT DELETE ON raw_log TO ${appRole}`);
    await expect(query(app, 'DELETE FROM raw_log')).rejects.toThrow(/raw_log is append-only: DELETE refused/);
    const { rows } = await query(app, "SELECT raw_log_purge(now() - interval '12 hours') AS purged");
    expect(Number(rows[0].purged)).toBe(1);
    expect(Number((await query(app, "SELECT count(*) AS n FROM raw_log WHERE logged_at < now() - interval '12 hours'")).rows[0].n)).toBe(0);
    // The retention job makes the coming weeks' partitions through the owner too.
    await query(app, 'SELECT raw_log_prepare(4)');
    await provision({ ...options(), passwords: provisioned.passwords });
    for (const part of await withPartitions(migrator, 'raw_log')) expect({ part, ...(await rightsOf(migrator, appRole, part)) }).toEqual({ part, ...READ_AND_ADD });
  });
});
