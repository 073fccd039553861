import { randomBytes } from 'node:crypto';
import { Queues, SYSTEM_TOPOLOGY, WebhookKeyRequest } from '@crm/contracts';
import { Broker, RpcClient } from '@crm/messaging';
import { freshDatabase, freshVirtualHost, testLogger, type TestDatabase, type TestVirtualHost, testPool } from '@crm/testing';
import { webhookKeyOf } from './handlers/rpc-methods';
import { readConfig } from './config';
import { startAuth } from './service';

const logger = testLogger('auth-rotation');
let db: TestDatabase;
let vhost: TestVirtualHost;
const credentialsKey = randomBytes(32).toString('base64');

/** Starts auth with this consumer secret (as a deploy with a changed SOCIAL_CONSUMER_SECRET does), asks auth.rpc for the key, stops. */
async function keyAfterStartingWith(consumerSecret: string, env: Record<string, string> = {}) {
  const config = readConfig({
    NODE_ENV: 'production',
    PORT: '0',
    AMQP_URL: vhost.url,
    DATABASE_URL: db.url,
    SOCIAL_API_URL: 'http://127.0.0.1:9',
    SOCIAL_CONSUMER_KEY: 'consumer-key',
    SOCIAL_CONSUMER_SECRET: consumerSecret,
    SOCIAL_OAUTH2_CLIENT_ID: 'oauth2-client-id',
    SOCIAL_OAUTH2_CLIENT_SECRET: 'oauth2-client-secret',
    SOCIAL_ENV_NAME: 'prod',
    PUBLIC_WEBHOOK_URL: 'https://hooks.example.com/webhooks/prod',
    CREDENTIALS_KEY: credentialsKey,
    CRM_API_TOKENS: 'crm-token-for-rotation-test',
    WEBHOOK_CHECK_INTERVAL_MS: '0',
    ...env,
  });
  const auth = await startAuth(config, { logger });
  const broker = new Broker({ url: vhost.url, name: 'rotation-test', logger });
  const client = new RpcClient(broker, 'webhook-ingest', SYSTEM_TOPOLOGY);
  try {
    return await client.call(Queues.authRpc, WebhookKeyRequest, { envName: 'prod' }, { timeoutMs: 10_000 });
  } finally {
    await client.close();
    await broker.close();
    await auth.stop();
  }
}

async function rotatedAt(): Promise<Date | null> {
  const pool = testPool(db.url);
  try {
    return (await pool.query<{ rotated_at: Date | null }>('SELECT rotated_at FROM app_credentials')).rows[0]!.rotated_at;
  } finally {
    await pool.end();
  }
}

beforeAll(async () => {
  [db, vhost] = await Promise.all([freshDatabase('auth_rotation'), freshVirtualHost('auth-rotation')]);
});

afterAll(async () => {
  await Promise.all([db.drop(), vhost.drop()]);
});

describe('consumer secret rotation', () => {
  it('gives the previous secret beside the new one during the overlap, then the new one only', async () => {
    expect(await keyAfterStartingWith('secret-one-aaaaaa')).toEqual({ consumerSecret: 'secret-one-aaaaaa' });
    expect(await rotatedAt()).toBeNull();
    expect(await keyAfterStartingWith('secret-two-bbbbbb')).toEqual({ consumerSecret: 'secret-two-bbbbbb', previousConsumerSecret: 'secret-one-aaaaaa' });
    const first = await rotatedAt();
    expect(first).toBeInstanceOf(Date);
    // the same secret again is no rotation: the overlap keeps its start
    expect(await keyAfterStartingWith('secret-two-bbbbbb')).toEqual({ consumerSecret: 'secret-two-bbbbbb', previousConsumerSecret: 'secret-one-aaaaaa' });
    expect(await rotatedAt()).toEqual(first);
    expect(await keyAfterStartingWith('secret-two-bbbbbb', { WEBHOOK_KEY_OVERLAP_SECONDS: '0' })).toEqual({ consumerSecret: 'secret-two-bbbbbb' });
  });

  it('ends the overlap exactly at rotatedAt + the window', () => {
    const rotated = new Date('2026-01-01T00:00:00Z');
    const credentials = { consumerKey: 'k', consumerSecret: 'new', previous: { consumerSecret: 'old', rotatedAt: rotated } };
    expect(webhookKeyOf(credentials, 60_000, rotated.getTime() + 59_999)).toEqual({ consumerSecret: 'new', previousConsumerSecret: 'old' });
    expect(webhookKeyOf(credentials, 60_000, rotated.getTime() + 60_000)).toEqual({ consumerSecret: 'new' });
    expect(webhookKeyOf({ consumerKey: 'k', consumerSecret: 'new' }, 60_000, rotated.getTime())).toEqual({ consumerSecret: 'new' });
  });
});
