/**
 * The simulator driven by twitter-api-v2, a widely used client, unchanged: it calls
 * https://api.x.com as it always does, and an HTTPS agent connects those calls to the simulator
 * (what a hosts-file entry would do), so the client signs and parses exactly as against the
 * platform. The simulator is served over TLS with a certificate for the platform's host names,
 * made for the test and trusted by that agent alone.
 */
import axios from 'axios';
import { TwitterApi } from 'twitter-api-v2';
import { TINY_PNG } from '@crm/testing';
import { startTlsSimulator, type TlsSimulator } from './tls-simulator';

const KEY = 'client-consumer-key';
const SECRET = 'client-consumer-secret';
let simulator: TlsSimulator;
let agent: TlsSimulator['agent'];
let browser: ReturnType<typeof axios.create>;

beforeAll(async () => {
  simulator = await startTlsSimulator({ SOCIAL_CONSUMER_KEY: KEY, SOCIAL_CONSUMER_SECRET: SECRET });
  agent = simulator.agent;
  // The person's browser on the authorize page.
  browser = axios.create({ httpsAgent: agent, baseURL: 'https://api.x.com' });
});

afterAll(async () => {
  await simulator.close();
});

/** What a person does on the authorize page: approves as the given user; the verifier comes back on the callback. */
async function approve(authUrl: string, user: string): Promise<string> {
  const token = new URL(authUrl).searchParams.get('oauth_token')!;
  const page = await browser.get(authUrl);
  expect(page.status).toBe(200);
  const res = await browser.post('/oauth/authorize', new URLSearchParams({ oauth_token: token, user, decision: 'approve' }), { maxRedirects: 0, validateStatus: (s) => s === 302 });
  return new URL(res.headers.location as string).searchParams.get('oauth_verifier')!;
}

async function connectedClient(user: string) {
  const app = new TwitterApi({ appKey: KEY, appSecret: SECRET }, { httpAgent: agent });
  const link = await app.generateAuthLink('http://127.0.0.1:9/connected');
  expect(link.oauth_callback_confirmed).toBe('true');
  const verifier = await approve(link.url, user);
  const pending = new TwitterApi({ appKey: KEY, appSecret: SECRET, accessToken: link.oauth_token, accessSecret: link.oauth_token_secret }, { httpAgent: agent });
  return pending.login(verifier);
}

describe('twitter-api-v2 against the simulator (OAuth 1.0a, v1.1 routes)', () => {
  it('connects an account through request_token, the authorize page and access_token', async () => {
    const { client, userId, screenName } = await connectedClient('@client_acme');
    expect(screenName).toBe('client_acme');
    expect((await client.v1.verifyCredentials()).id_str).toBe(userId);
  });

  it('reads and writes the profile and settings, timelines and users', async () => {
    const { client, userId } = await connectedClient('@client_profile');
    const v1 = client.v1;
    expect((await v1.user({ user_id: userId })).screen_name).toBe('client_profile');
    expect(await v1.accountSettings()).toHaveProperty('language');
    expect((await v1.updateAccountSettings({ lang: 'fr' })).language).toBe('fr');
    expect((await v1.updateAccountProfile({ name: 'Acme Help' })).name).toBe('Acme Help');
    const posted = await v1.tweet('hello from the client');
    expect((await v1.get('statuses/home_timeline.json', { count: 5 })).map((p: { id_str: string }) => p.id_str)).toContain(posted.id_str);
    expect((await v1.get('statuses/user_timeline.json', { user_id: userId })).map((p: { id_str: string }) => p.id_str)).toContain(posted.id_str);
    const reply = await v1.reply('a reply', posted.id_str);
    expect(reply.in_reply_to_status_id_str).toBe(posted.id_str);
    expect((await v1.deleteTweet(reply.id_str)).id_str).toBe(reply.id_str);
  });

  it('likes, reposts and takes both back', async () => {
    const { client } = await connectedClient('@client_likes');
    const { client: other } = await connectedClient('@client_author');
    const post = await other.v1.tweet('like me');
    expect((await client.v1.post('favorites/create.json', { id: post.id_str })).favorited).toBe(true);
    expect((await client.v1.post('favorites/destroy.json', { id: post.id_str })).favorited).toBe(false);
    const repost = await client.v1.post(`statuses/retweet/${post.id_str}.json`);
    expect(repost.retweeted_status.id_str).toBe(post.id_str);
    expect((await client.v1.post(`statuses/unretweet/${post.id_str}.json`)).id_str).toBe(post.id_str);
  });

  it('follows, lists who it follows, mutes, blocks and reports, and undoes each', async () => {
    const { client } = await connectedClient('@client_follows');
    const { userId: targetId } = await connectedClient('@client_target');
    expect((await client.v1.createFriendship({ user_id: targetId })).id_str).toBe(targetId);
    expect((await client.v1.get('friends/ids.json', { stringify_ids: true })).ids).toContain(targetId);
    expect((await client.v1.get('friends/list.json')).users.map((u: { id_str: string }) => u.id_str)).toContain(targetId);
    expect((await client.v1.destroyFriendship({ user_id: targetId })).id_str).toBe(targetId);
    for (const [make, undo] of [['mutes/users/create.json', 'mutes/users/destroy.json'], ['blocks/create.json', 'blocks/destroy.json']] as const) {
      expect((await client.v1.post(make, { user_id: targetId })).id_str).toBe(targetId);
      expect((await client.v1.post(undo, { user_id: targetId })).id_str).toBe(targetId);
    }
    expect((await client.v1.reportUserAsSpam({ user_id: targetId })).id_str).toBe(targetId);
  });

  it('manages lists and collections', async () => {
    const { client, userId } = await connectedClient('@client_lists');
    const list = await client.v1.createList({ name: 'vip', mode: 'private' });
    expect((await client.v1.updateList({ list_id: list.id_str, description: 'top customers' })).description).toBe('top customers');
    expect((await client.v1.lists()).map((l) => l.id_str)).toContain(list.id_str);
    await client.v1.addListMembers({ list_id: list.id_str, user_id: userId });
    await client.v1.removeListMembers({ list_id: list.id_str, user_id: userId });
    expect(Array.isArray(await client.v1.get('lists/statuses.json', { list_id: list.id_str }))).toBe(true);
    expect(await client.v1.get('lists/subscriptions.json')).toHaveProperty('lists');
    expect((await client.v1.removeList({ list_id: list.id_str })).id_str).toBe(list.id_str);
    expect((await client.v1.lists()).map((l) => l.id_str)).not.toContain(list.id_str);

    const made = await client.v1.post('collections/create.json', { name: 'praise' });
    const collectionId = made.response.timeline_id as string;
    const post = await client.v1.tweet('great service');
    await client.v1.post('collections/entries/add.json', { id: collectionId, tweet_id: post.id_str });
    expect(await client.v1.get('collections/entries.json', { id: collectionId })).toHaveProperty('objects');
    await client.v1.post('collections/entries/remove.json', { id: collectionId, tweet_id: post.id_str });
    expect((await client.v1.get('collections/list.json', { user_id: userId })).objects).toBeDefined();
    await client.v1.post('collections/destroy.json', { id: collectionId });
  });

  it('sends, reads, marks read and deletes direct messages', async () => {
    const { client } = await connectedClient('@client_dms');
    const { userId: customerId } = await connectedClient('@client_customer');
    const sent = await client.v1.sendDm({ recipient_id: customerId, text: 'how can we help?' });
    const eventId = sent.event.id;
    expect((await client.v1.getDmEvent(eventId)).event.id).toBe(eventId);
    const page = await client.v1.listDmEvents();
    expect(page.events.map((e) => e.id)).toContain(eventId);
    await client.v1.markDmAsRead(eventId, customerId);
    await client.v1.indicateDmTyping(customerId);
    await client.v1.deleteDm(eventId);
    await expect(client.v1.getDmEvent(eventId)).rejects.toMatchObject({ code: 404 });
  });

  it("uploads an image with the client's v2 uploadMedia (chunked) and sends it in a DM", async () => {
    const { client } = await connectedClient('@client_media');
    const { userId: customerId } = await connectedClient('@client_mcust');
    const mediaId = await client.v2.uploadMedia(TINY_PNG, { media_type: 'image/png', media_category: 'dm_image' });
    expect(mediaId).toMatch(/^[0-9]+$/);
    // The client's type describes `data`; it returns the whole answer, `{data: {dm_event_id, ...}}`.
    const sent = (await client.v2.sendDmToParticipant(customerId, { text: 'your label', attachments: [{ media_id: mediaId }] })) as unknown as { data: { dm_event_id: string } };
    const event = await client.v2.get(`dm_events/${sent.data.dm_event_id}`, { 'dm_event.fields': 'attachments' });
    expect(event.data).toMatchObject({ text: 'your label', attachments: { media_keys: [`3_${mediaId}`] } });
  });

  it('gets an app-only bearer token and reads the webhook subscriptions count with it', async () => {
    const app = new TwitterApi({ appKey: KEY, appSecret: SECRET }, { httpAgent: agent });
    const appOnly = await app.appLogin();
    expect(await appOnly.v2.get('account_activity/subscriptions/count')).toMatchObject({ data: { subscriptions_count_all: expect.any(String) } });
  });
});
