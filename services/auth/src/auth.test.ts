import { randomBytes } from 'node:crypto';
import { WebhookKeyRequest } from '@crm/contracts';
import { Broker, RpcClient } from '@crm/messaging';
import { SYSTEM_TOPOLOGY, Queues } from '@crm/contracts';
import { capturingLogger, freshDatabase, freshVirtualHost, type TestDatabase, type TestVirtualHost, testPool } from '@crm/testing';
import { readConfig } from './config';
import { startAuth, type RunningService } from './service';

const CONSUMER_SECRET = `secret-${randomBytes(8).toString('hex')}`;
let db: TestDatabase;
let vhost: TestVirtualHost;
let service: RunningService;
let broker: Broker;
let client: RpcClient;
const { logger, lines } = capturingLogger('auth-test');

beforeAll(async () => {
  [db, vhost] = await Promise.all([freshDatabase('auth'), freshVirtualHost('auth')]);
  const config = readConfig({
    NODE_ENV: 'production',
    PORT: '0',
    AMQP_URL: vhost.url,
    DATABASE_URL: db.url,
    SOCIAL_API_URL: 'http://127.0.0.1:3101',
    SOCIAL_CONSUMER_KEY: 'consumer-key-1',
    SOCIAL_CONSUMER_SECRET: CONSUMER_SECRET,
    SOCIAL_OAUTH2_CLIENT_ID: 'oauth2-client-id',
    SOCIAL_OAUTH2_CLIENT_SECRET: 'oauth2-client-secret',
    SOCIAL_ENV_NAME: 'prod',
    PUBLIC_WEBHOOK_URL: 'https://hooks.example.com/webhooks/prod',
    CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    CRM_API_TOKENS: 'crm-token-for-auth-test',
    WEBHOOK_CHECK_INTERVAL_MS: '0',
  });
  service = await startAuth(config, { logger });
  broker = new Broker({ url: vhost.url, name: 'auth-test-client', logger });
  client = new RpcClient(broker, 'test', SYSTEM_TOPOLOGY);
});

afterAll(async () => {
  await client.close();
  await broker.close();
  await service.stop();
  await Promise.all([db.drop(), vhost.drop()]);
});

describe('auth', () => {
  it('gives the webhook key of a configured environment over auth.rpc', async () => {
    await expect(client.call(Queues.authRpc, WebhookKeyRequest, { envName: 'prod' })).resolves.toEqual({ consumerSecret: CONSUMER_SECRET });
  });

  it('answers unknown_environment for any other environment', async () => {
    await expect(client.call(Queues.authRpc, WebhookKeyRequest, { envName: 'staging' })).rejects.toMatchObject({ code: 'unknown_environment' });
  });

  it('stores the consumer secret encrypted, never in the clear', async () => {
    const pool = testPool(db.url);
    const { rows } = await pool.query('SELECT consumer_key, consumer_secret_sealed FROM app_credentials');
    await pool.end();
    expect(rows).toHaveLength(1);
    expect(rows[0].consumer_key).toBe('consumer-key-1');
    expect(rows[0].consumer_secret_sealed).toMatch(/^v1:/);
    expect(rows[0].consumer_secret_sealed).not.toContain(CONSUMER_SECRET);
  });

  it('never logs the consumer secret', () => {
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(CONSUMER_SECRET);
  });

  it.each(['production', 'staging', 'Production', undefined])('refuses to start with NODE_ENV %p without its secrets and addresses, naming them in one line', (NODE_ENV) => {
    expect(() => readConfig({ NODE_ENV })).toThrow(
      /^auth: invalid configuration: AMQP_URL is missing; DATABASE_URL is missing; SOCIAL_API_URL is missing; SOCIAL_CONSUMER_KEY is missing; SOCIAL_CONSUMER_SECRET is missing; SOCIAL_OAUTH2_CLIENT_ID is missing; SOCIAL_OAUTH2_CLIENT_SECRET is missing; PUBLIC_WEBHOOK_URL is missing; CREDENTIALS_KEY is missing; CRM_API_TOKENS is missing \(development defaults/,
    );
  });
});
