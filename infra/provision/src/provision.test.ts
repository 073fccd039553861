/**
 * The provisioned boundaries on a fresh vhost and fresh databases, with users and roles named
 * for this run only (created and dropped here): what each service's broker user and database
 * roles may and may not do, and the services working end to end with them.
 */
import { randomBytes } from 'node:crypto';
import amqplib from 'amqplib';
import pg from 'pg';
import { Exchanges, Queues, SYSTEM_TOPOLOGY, WebhookKeyRequest } from '@crm/contracts';
import { Broker, makeEnvelope, RpcClient, RpcError, RpcServer } from '@crm/messaging';
import { amqpUrl, databaseServerUrl, testLogger } from '@crm/testing';
import { authRpcMethods } from '@crm/auth/src/handlers/rpc-methods';
import type { AppCredentialsStore } from '@crm/auth/src/adapters/app-credentials';
import { databaseRolesOf, deleteBrokerUsers, dropDatabaseRoles, provision, rabbitmqctl, type Provisioned } from './provision';

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

beforeAll(async () => {
  provisioned = await provision(options());
  // Provisioning again keeps everything working (idempotent), with the same passwords.
  provisioned = await provision({ ...options(), passwords: provisioned.passwords });
}, 120_000);

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
    expect(await outcome(urlOf('ticketing'), consume(Queues.ticketingActivity))).toBe('allowed');
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
    const client = new pg.Client({ connectionString: url });
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
});

