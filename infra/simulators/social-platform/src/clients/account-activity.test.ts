/**
 * The Account Activity API on its v2 routes, driven by twitter-api-v2 against the simulator at
 * its pay-per-use limits (1 webhook, 3 subscriptions): the webhook on `/2/webhooks`, an
 * account's subscription with its own token, the app's list, count and delete, answers nested
 * in `data`, and the account's activity delivered to the webhook in the Account Activity shape.
 * Also the app refused as a whole (usage cap, depleted credits), in problem details.
 */
import axios from 'axios';
import { TwitterApi } from 'twitter-api-v2';
import { waitFor } from '@crm/testing';
import { startReceiver, type TestReceiver } from '../test-receiver';
import { startTlsSimulator, type TlsSimulator } from './tls-simulator';

const KEY = 'aaa-consumer-key';
const SECRET = 'aaa-consumer-secret';
let simulator: TlsSimulator;
let receiver: TestReceiver;
let app: TwitterApi;
let control: ReturnType<typeof axios.create>;

async function userClient(user: string): Promise<{ client: TwitterApi; id: string }> {
  const { data } = await control.post('/control/platform/tokens', { user });
  const client = new TwitterApi({ appKey: KEY, appSecret: SECRET, accessToken: data.oauthToken, accessSecret: data.oauthTokenSecret }, { httpAgent: simulator.agent });
  return { client, id: data.userId as string };
}

async function oauth2Client(user: string, scopes: string[]): Promise<TwitterApi> {
  const { data } = await control.post('/control/platform/tokens', { user, oauth2Scopes: scopes });
  return new TwitterApi(data.accessToken as string, { httpAgent: simulator.agent });
}

beforeAll(async () => {
  simulator = await startTlsSimulator({ SOCIAL_CONSUMER_KEY: KEY, SOCIAL_CONSUMER_SECRET: SECRET, WEBHOOK_HTTP_ALLOWED: 'true' }); // the test receiver is plain http
  receiver = await startReceiver(SECRET);
  control = axios.create({ httpsAgent: simulator.agent, baseURL: 'https://api.x.com' });
  app = await new TwitterApi({ appKey: KEY, appSecret: SECRET }, { httpAgent: simulator.agent }).appLogin();
});

afterAll(async () => {
  await receiver.close();
  await simulator.close();
});

describe('the Account Activity API on /2', () => {
  let webhookId: string;
  let account: { client: TwitterApi; id: string };

  it('registers one webhook (pay-per-use: a second is refused)', async () => {
    const made = await app.v2.post('webhooks', { url: receiver.url });
    webhookId = made.data.id;
    expect(made.data).toMatchObject({ id: expect.any(String), url: receiver.url, valid: true, created_at: expect.any(String) });
    await expect(app.v2.post('webhooks', { url: `${receiver.url}?second` })).rejects.toMatchObject({ code: 403 });
  });

  it("subscribes an account with its own token, checks it, lists and counts the app's subscriptions", async () => {
    account = await userClient('@aaa_acme');
    const path = `account_activity/webhooks/${webhookId}/subscriptions/all`;
    expect(await account.client.v2.post(path, {})).toEqual({ data: { subscribed: true } });
    await expect(account.client.v2.post(path, {})).rejects.toMatchObject({ code: 409 });
    expect(await account.client.v2.get(path)).toEqual({ data: { subscribed: true } });
    expect(await (await userClient('@aaa_other')).client.v2.get(path)).toEqual({ data: { subscribed: false } });
    // The app's bearer token is not the user's: it cannot subscribe anyone.
    await expect(app.v2.post(path, {})).rejects.toMatchObject({ code: 403 });
    // An OAuth 2.0 token must hold the route's scopes.
    await expect((await oauth2Client('@aaa_acme', ['tweet.read', 'users.read'])).v2.post(path, {})).rejects.toMatchObject({ code: 403 });

    expect(await app.v2.get(`${path}/list`)).toEqual({ data: { application_id: expect.any(String), webhook_id: webhookId, webhook_url: receiver.url, subscriptions: [{ user_id: account.id }] } });
    expect((await app.v2.get('account_activity/subscriptions/count')).data).toMatchObject({ subscriptions_count_all: '1', provisioned_count: '3' });
  });

  it("delivers the account's activity to the v2 webhook in the Account Activity shape", async () => {
    const before = receiver.received.length;
    await account.client.v2.tweet('hello from aaa');
    await waitFor(() => receiver.received.length > before, { what: 'the delivery of the post' });
    const delivery = JSON.parse(receiver.received.at(-1)!.raw.toString('utf8')) as { for_user_id: string; tweet_create_events: { text: string }[] };
    expect(delivery.for_user_id).toBe(account.id);
    expect(delivery.tweet_create_events[0]!.text).toBe('hello from aaa');
  });

  it('allows 3 subscriptions (pay-per-use), and removes one with the bearer token', async () => {
    const path = `account_activity/webhooks/${webhookId}/subscriptions/all`;
    for (const user of ['@aaa_two', '@aaa_three']) await (await userClient(user)).client.v2.post(path, {});
    const fourth = await userClient('@aaa_four');
    await expect(fourth.client.v2.post(path, {})).rejects.toMatchObject({ code: 403 });
    expect(await app.v2.delete(`account_activity/webhooks/${webhookId}/subscriptions/${account.id}/all`)).toEqual({ data: { subscribed: false } });
    await expect(app.v2.delete(`account_activity/webhooks/${webhookId}/subscriptions/${account.id}/all`)).rejects.toMatchObject({ code: 404 });
    expect(await fourth.client.v2.post(path, {})).toEqual({ data: { subscribed: true } });
  });

  it('is gone with its webhook', async () => {
    expect(await app.v2.delete(`webhooks/${webhookId}`)).toEqual({ data: { deleted: true } });
    expect((await app.v2.get('account_activity/subscriptions/count')).data).toMatchObject({ subscriptions_count_all: '0' });
  });
});

describe('the app refused as a whole', () => {
  afterEach(async () => {
    await control.delete('/control/platform/app-refusal');
  });

  it('answers 429 usage-capped problem details on v2 and v1.1 routes, with x-rate-limit-reset only when given', async () => {
    const { client } = await userClient('@aaa_capped');
    await control.post('/control/platform/app-refusal', { kind: 'usage-capped' });
    await expect(client.v2.me()).rejects.toMatchObject({ code: 429, data: { type: 'https://api.x.com/2/problems/usage-capped', title: 'UsageCapExceeded', period: 'Monthly' } });
    const capped = await client.v1.verifyCredentials().catch((error: { code: number; data: unknown; headers: Record<string, string> }) => error);
    expect(capped).toMatchObject({ code: 429, data: { type: 'https://api.x.com/2/problems/usage-capped' } });
    expect((capped as { headers: Record<string, string> }).headers['x-rate-limit-reset']).toBeUndefined();
    await control.post('/control/platform/app-refusal', { kind: 'usage-capped', resetInSeconds: 3600 });
    const withReset = await client.v2.me().catch((error: { headers: Record<string, string> }) => error);
    expect(Number((withReset as { headers: Record<string, string> }).headers['x-rate-limit-reset'])).toBeGreaterThan(Date.now() / 1000 + 3000);
  });

  it('answers 402 credits-depleted until credits come back', async () => {
    const { client } = await userClient('@aaa_broke');
    await control.post('/control/platform/app-refusal', { kind: 'credits-depleted' });
    await expect(client.v2.me()).rejects.toMatchObject({ code: 402, data: { type: 'https://api.x.com/2/problems/credits-depleted', title: 'CreditsDepleted', status: 402 } });
    await control.delete('/control/platform/app-refusal');
    expect((await client.v2.me()).data.username).toBe('aaa_broke');
  });
});
