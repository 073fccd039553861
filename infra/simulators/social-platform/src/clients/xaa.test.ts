/**
 * The X Activity API side of the simulator, driven by twitter-api-v2 (app-only bearer token on
 * the v2 webhook and subscription routes) against a test webhook that answers the CRC and checks
 * every signature: the same activity the platform's API produces arrives as XAA deliveries.
 */
import axios from 'axios';
import { TwitterApi } from 'twitter-api-v2';
import { waitFor } from '@crm/testing';
import { startReceiver, type TestReceiver } from '../test-receiver';
import { startTlsSimulator, type TlsSimulator } from './tls-simulator';

const KEY = 'xaa-consumer-key';
const SECRET = 'xaa-consumer-secret';
let simulator: TlsSimulator;
let receiver: TestReceiver;
let app: TwitterApi;
let control: ReturnType<typeof axios.create>;

interface Delivered {
  data: { event_uuid: string; event_type: string; filter: { user_id?: string }; tag: string | null; payload: Record<string, unknown>; includes?: Record<string, unknown[]> };
}

const delivered = () => receiver.received.map((r) => JSON.parse(r.raw.toString('utf8')) as Delivered);
const until = <T>(check: () => T | undefined, what: string): Promise<T> => waitFor(check, { timeoutMs: 5_000, what }) as Promise<T>;
/** The number of deliveries to the webhook that failed (it was down), as the simulator records them. */
const failedDeliveries = async (webhookId: string) => ((await control.get('/control/platform/xaa/deliveries')).data.items as { webhookId: string; error?: string }[]).filter((item) => item.webhookId === webhookId && item.error !== undefined).length;

/** A user's OAuth 1.0a client, with a token as if the user had connected the app. */
async function userClient(user: string): Promise<{ client: TwitterApi; id: string }> {
  const { data } = await control.post('/control/platform/tokens', { user });
  const client = new TwitterApi({ appKey: KEY, appSecret: SECRET, accessToken: data.oauthToken, accessSecret: data.oauthTokenSecret }, { httpAgent: simulator.agent });
  return { client, id: data.userId as string };
}

/** The account's OAuth 2.0 client: the platform takes subscriptions to private events with the monitored user's token only. */
async function oauth2Client(user: string, scopes: string[]): Promise<TwitterApi> {
  const { data } = await control.post('/control/platform/tokens', { user, oauth2Scopes: scopes });
  return new TwitterApi(data.accessToken as string, { httpAgent: simulator.agent });
}

beforeAll(async () => {
  simulator = await startTlsSimulator({ SOCIAL_CONSUMER_KEY: KEY, SOCIAL_CONSUMER_SECRET: SECRET, WEBHOOK_HTTP_ALLOWED: 'true', XAA_MAX_SUBSCRIPTIONS: '6', XAA_REPLAY_MIN_START_AGE_SECONDS: '0', XAA_REPLAY_MIN_END_AGE_SECONDS: '0' });
  receiver = await startReceiver(SECRET);
  control = axios.create({ httpsAgent: simulator.agent, baseURL: 'https://api.x.com' });
  app = await new TwitterApi({ appKey: KEY, appSecret: SECRET }, { httpAgent: simulator.agent }).appLogin();
});

afterAll(async () => {
  await receiver.close();
  await simulator.close();
});

describe('the X Activity API', () => {
  let webhookId: string;
  let account: { client: TwitterApi; id: string };
  let accountOAuth2: TwitterApi;
  let customer: { client: TwitterApi; id: string };

  it('registers a v2 webhook after its CRC, and lists it', async () => {
    const made = await app.v2.post('webhooks', { url: receiver.url });
    webhookId = made.data.id;
    expect(made.data).toMatchObject({ url: receiver.url, valid: true });
    expect((await app.v2.get('webhooks')).data.map((w: { id: string }) => w.id)).toEqual([webhookId]);
    // The library sends `{}` on a PUT unless told the body goes in the URL: the CRC re-run takes no body.
    expect((await app.v2.put(`webhooks/${webhookId}`, undefined, { forceBodyMode: 'url' })).data).toEqual({ valid: true });
  });

  it('subscribes an account per event type and delivers its DMs, mentions and likes in the XAA shape', async () => {
    account = await userClient('@xaa_acme');
    customer = await userClient('@xaa_ana');
    accountOAuth2 = await oauth2Client('@xaa_acme', ['tweet.read', 'users.read', 'dm.read', 'like.read', 'mute.read']);
    // Private events: the app's bearer token is refused, the account's own OAuth 2.0 token holding the scope is taken.
    await expect(app.v2.post('activity/subscriptions', { event_type: 'dm.received', filter: { user_id: account.id } })).rejects.toMatchObject({ code: 403 });
    await expect(accountOAuth2.v2.post('activity/subscriptions', { event_type: 'dm.received', filter: { user_id: customer.id } })).rejects.toMatchObject({ code: 403 });
    await expect((await oauth2Client('@xaa_acme', ['tweet.read'])).v2.post('activity/subscriptions', { event_type: 'like.create', filter: { user_id: account.id } })).rejects.toMatchObject({ code: 403 });
    for (const eventType of ['dm.received', 'post.mention.create']) {
      await accountOAuth2.v2.post('activity/subscriptions', { event_type: eventType, filter: { user_id: account.id }, tag: 'acme', webhook_id: webhookId });
    }
    const made = await accountOAuth2.v2.post('activity/subscriptions', { event_type: 'like.create', filter: { user_id: account.id, direction: 'inbound' } });
    // As the API reference has it: the subscription nested in data.subscription.
    expect(made.data.subscription).toMatchObject({ subscription_id: expect.any(String), event_type: 'like.create', filter: { user_id: account.id, direction: 'inbound' } });
    expect((await app.v2.get('activity/subscriptions')).meta).toMatchObject({ result_count: 3, total_subscriptions: 3 });
    const first = await app.v2.get('activity/subscriptions', { max_results: 2 });
    expect(first.data).toHaveLength(2);
    const rest = await app.v2.get('activity/subscriptions', { max_results: 2, pagination_token: first.meta.next_token });
    expect(rest.data).toHaveLength(1);
    expect(rest.meta.next_token).toBeUndefined();

    const dm = await customer.client.v1.sendDm({ recipient_id: account.id, text: 'where is my order?' });
    const received = await until(() => delivered().find((d) => d.data.event_type === 'dm.received'), 'the DM');
    // Legacy DMs keep the Account Activity shape: direct_message_events[] and a users map of {data: user}.
    expect(received.data).toMatchObject({
      filter: { user_id: account.id },
      tag: 'acme',
      payload: {
        direct_message_events: [{ type: 'message_create', id: dm.event.id, message_create: { sender_id: customer.id, target: { recipient_id: account.id }, message_data: { text: 'where is my order?' } } }],
        users: { [customer.id]: { data: expect.objectContaining({ id: customer.id, username: 'xaa_ana' }) } },
      },
    });

    const mention = await customer.client.v1.tweet('@xaa_acme my parcel is late');
    const post = await until(() => delivered().find((d) => d.data.event_type === 'post.mention.create'), 'the mention');
    expect(post.data.payload).toMatchObject({ id: mention.id_str, author_id: customer.id, edit_history_tweet_ids: [mention.id_str] });

    const own = await account.client.v1.tweet('we are on it');
    await customer.client.v1.post('favorites/create.json', { id: own.id_str });
    const like = await until(() => delivered().find((d) => d.data.event_type === 'like.create'), 'the like');
    expect(like.data).toMatchObject({ filter: { user_id: account.id, direction: 'inbound' }, payload: { liked_tweet_id: own.id_str, liked_tweet_author_id: account.id, timestamp_ms: expect.stringMatching(/^[0-9]+$/) } });
    expect(like.data.payload).not.toHaveProperty('liking_user_id');
    expect(receiver.received.every((r) => r.signatureValid)).toBe(true);
  });

  it('keeps what a webhook missed during an outage and replays it, then reports the job complete', async () => {
    await control.post('/control/platform/xaa/outage', { webhookId, down: true });
    const from = new Date(Date.now() - 60_000);
    const failedBefore = await failedDeliveries(webhookId);
    const dm = await customer.client.v1.sendDm({ recipient_id: account.id, text: 'sent while you were down' });
    await waitFor(async () => (await failedDeliveries(webhookId)) > failedBefore, { what: 'the failed delivery' });
    expect(delivered().some((d) => JSON.stringify(d.data.payload).includes(`"id":"${dm.event.id}"`))).toBe(false);
    await control.post('/control/platform/xaa/outage', { webhookId, down: false });
    const minute = (d: Date) => d.toISOString().replace(/[-T:]/g, '').slice(0, 12);
    const job = await app.v2.post('webhooks/replay', { webhook_id: webhookId, from_date: minute(from), to_date: minute(new Date()) });
    const done = await until(() => delivered().find((d) => d.data.event_type === 'replay_job_status'), 'the replay to complete');
    expect(done.data.payload).toMatchObject({ job_id: job.data.job_id, status: 'complete' });
    const copies = delivered().filter((d) => JSON.stringify(d.data.payload).includes(`"id":"${dm.event.id}"`));
    expect(copies).toHaveLength(1);
    await expect(app.v2.post('webhooks/replay', { webhook_id: webhookId, from_date: '201001010000', to_date: '201001010100' })).rejects.toMatchObject({ code: 400 });
  });

  it('delivers an encrypted DM as chat.received, ciphertext only, and answers bad or excess subscriptions with problem details', async () => {
    await accountOAuth2.v2.post('activity/subscriptions', { event_type: 'chat.received', filter: { user_id: account.id } });
    await control.post('/control/platform/xaa/encrypted-dm', { from: '@xaa_ana', to: '@xaa_acme' });
    const encrypted = await until(() => delivered().find((d) => d.data.event_type === 'chat.received'), 'the encrypted DM');
    expect(encrypted.data.payload).toMatchObject({ sender_id: customer.id, conversation_id: `${customer.id}:${account.id}`, encoded_event: expect.any(String) });
    expect(encrypted.data.payload).not.toHaveProperty('text');
    await expect(app.v2.post('activity/subscriptions', { event_type: 'dm.everything', filter: { user_id: account.id } })).rejects.toMatchObject({ code: 400, data: { title: 'Invalid Request' } });
    // The platform's names are follow.follow, mute.mute, block.block; directions inbound/outbound, on likes only.
    for (const eventType of ['follow.create', 'mute.create']) await expect(app.v2.post('activity/subscriptions', { event_type: eventType, filter: { user_id: account.id } })).rejects.toMatchObject({ code: 400 });
    await expect(accountOAuth2.v2.post('activity/subscriptions', { event_type: 'like.create', filter: { user_id: account.id, direction: 'in' } })).rejects.toMatchObject({ code: 400 });
    await expect(accountOAuth2.v2.post('activity/subscriptions', { event_type: 'mute.mute', filter: { user_id: account.id, direction: 'outbound' } })).rejects.toMatchObject({ code: 400 });
    await expect(accountOAuth2.v2.post('activity/subscriptions', { event_type: 'dm.received', filter: { user_id: account.id }, tag: 'acme', webhook_id: webhookId })).rejects.toMatchObject({ code: 409 });
    await app.v2.post('activity/subscriptions', { event_type: 'follow.follow', filter: { user_id: account.id } });
    await accountOAuth2.v2.post('activity/subscriptions', { event_type: 'mute.mute', filter: { user_id: account.id } });
    await expect(app.v2.post('activity/subscriptions', { event_type: 'post.delete', filter: { user_id: account.id } })).rejects.toMatchObject({ code: 429 });
    const id = (await app.v2.get('activity/subscriptions')).data[0].subscription_id as string;
    expect((await app.v2.delete(`activity/subscriptions/${id}`)).data).toEqual({ deleted: true });
  });

  it('delivers follows and mutes as source and target users wrapped in data, with no time', async () => {
    await customer.client.v1.post('friendships/create.json', { user_id: account.id });
    const follow = await until(() => delivered().find((d) => d.data.event_type === 'follow.follow'), 'the follow');
    expect(follow.data).toMatchObject({ filter: { user_id: account.id }, payload: { source: { data: { id: customer.id, username: 'xaa_ana' } }, target: { data: { id: account.id } } } });
    expect(Object.keys(follow.data.payload).sort()).toEqual(['source', 'target']);
    await account.client.v1.post('mutes/users/create.json', { user_id: customer.id });
    const mute = await until(() => delivered().find((d) => d.data.event_type === 'mute.mute'), 'the mute');
    expect(mute.data.payload).toMatchObject({ source: { data: { id: account.id } }, target: { data: { id: customer.id } } });
  });
});
