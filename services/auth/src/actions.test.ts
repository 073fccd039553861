/**
 * Every action family, through the CRM's HTTP routes and as commands on the broker, for an
 * OAuth 1.0a account, asserting what the simulated platform received: method, path (v2 for the
 * reads and writes that have a v2 route, v1.1 for the rest), parameters, and that it was signed
 * in the account's user context.
 */
import { randomUUID } from 'node:crypto';
import axios from 'axios';
import { Exchanges, SocialCommand, SYSTEM_TOPOLOGY, type SocialCommandPayload } from '@crm/contracts';
import { Broker, makeEnvelope, Publisher } from '@crm/messaging';
import { testLogger, waitFor } from '@crm/testing';
import { runCli } from './cli-commands';
import { routeOf } from './domain/actions';
import { startHarness, type Harness, type PlatformRequestLogEntry } from './testing/harness';

let h: Harness;
let accountId: string;
let broker: Broker;
let publisher: Publisher;
/** When the account was connected and subscribed: what it called since is what its actions called. */
let actionsSince: string;

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_actions' });
  accountId = await h.connectAndSubscribe('@acme_actions');
  actionsSince = new Date().toISOString();
  broker = new Broker({ url: h.vhost.url, name: 'actions-test', logger: testLogger('actions-test') });
  publisher = new Publisher(broker, SYSTEM_TOPOLOGY);
});

afterAll(async () => {
  await publisher?.close();
  await broker?.close();
  await h?.stop();
});

/** The most recent request the platform got at `path` (with `method`). */
async function received(path: string, method: string): Promise<PlatformRequestLogEntry> {
  const [last] = await h.platformRequests(path, method);
  if (!last) throw new Error(`the platform received no ${method} ${path}`);
  return last;
}

const user = () => ({ kind: 'user', userId: accountId });
const accountPath = (path: string) => `/v1/accounts/${accountId}${path}`;
/** A v2 route that names the acting user: `/2/users/<account>/...`. */
const mine = (path: string) => `/2/users/${accountId}${path}`;
const v1Requests = async (path: string) => (await h.platformRequests(path)).length;

async function ok(request: Promise<{ status: number; data: unknown }>) {
  const res = await request;
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.data)}`);
  return res.data as { platformId: string | null; data: unknown; commandId?: string };
}

async function customer(screenName: string, extra: Record<string, unknown> = {}): Promise<string> {
  return (await h.sim.post('/control/platform/users', { screenName, ...extra })).data.id_str as string;
}

describe('actions over HTTP reach the platform as the account, with the right parameters', () => {
  it('profile and settings: read and update', async () => {
    expect((await ok(h.crm.get(accountPath('/profile')))).data).toMatchObject({ id_str: accountId, screen_name: 'acme_actions' });
    expect(await received('/2/users/me', 'GET')).toMatchObject({ caller: user(), status: 200 });

    await ok(h.crm.patch(accountPath('/profile'), { name: 'Acme Support', description: 'We help.' }));
    expect(await received('/1.1/account/update_profile.json', 'POST')).toMatchObject({ form: { name: 'Acme Support', description: 'We help.' }, caller: user(), status: 200 });

    await ok(h.crm.get(accountPath('/settings')));
    expect(await received('/1.1/account/settings.json', 'GET')).toMatchObject({ caller: user(), status: 200 });
    const updated = await ok(h.crm.patch(accountPath('/settings'), { lang: 'de', sleepTimeEnabled: true, startSleepTime: 22, endSleepTime: 6 }));
    expect(updated.data).toMatchObject({ language: 'de', sleep_time: { enabled: true, start_time: 22, end_time: 6 } });
    expect(await received('/1.1/account/settings.json', 'POST')).toMatchObject({ form: { lang: 'de', sleep_time_enabled: 'true', start_sleep_time: '22', end_sleep_time: '6' }, caller: user() });

    const other = await customer('someone_else');
    expect((await ok(h.crm.get(accountPath(`/users/${other}`)))).data).toMatchObject({ screen_name: 'someone_else' });
    expect(await received(`/2/users/${other}`, 'GET')).toMatchObject({ caller: user(), status: 200 });
  });

  it('followed accounts and timelines, protected posts included for followed accounts', async () => {
    const pat = await customer('private_pat', { protected: true });
    const post = (await h.sim.post('/control/platform/posts', { author: '@private_pat', text: 'only for followers' })).data.id_str as string;

    // v2 follows by id: the screen name is looked up first.
    const followed = await ok(h.crm.put(accountPath('/following/@private_pat')));
    expect(followed.platformId).toBe(pat);
    expect(await received('/2/users/by/username/private_pat', 'GET')).toMatchObject({ caller: user(), status: 200 });
    expect(await received(mine('/following'), 'POST')).toMatchObject({ json: { target_user_id: pat }, caller: user(), status: 200 });
    expect((await ok(h.crm.get(accountPath('/following')))).data).toMatchObject({ users: [expect.objectContaining({ id_str: pat })] });
    expect(await received(mine('/following'), 'GET')).toMatchObject({ caller: user(), status: 200 });

    const home = (await ok(h.crm.get(accountPath('/timeline'), { params: { count: 5 } }))).data as { id_str: string; user: { protected: boolean } }[];
    expect(home.map((p) => p.id_str)).toContain(post);
    expect(home.find((p) => p.id_str === post)?.user.protected).toBe(true);
    expect(await received(mine('/timelines/reverse_chronological'), 'GET')).toMatchObject({ query: { max_results: '5' }, caller: user(), status: 200 });

    expect((await ok(h.crm.get(accountPath(`/users/${pat}/timeline`)))).data).toEqual([expect.objectContaining({ id_str: post })]);
    expect(await received(`/2/users/${pat}/tweets`, 'GET')).toMatchObject({ query: { max_results: '20' }, caller: user(), status: 200 });

    expect((await ok(h.crm.delete(accountPath(`/following/${pat}`)))).platformId).toBe(pat);
    expect(await received(mine(`/following/${pat}`), 'DELETE')).toMatchObject({ caller: user(), status: 200 });
    expect(await v1Requests('/1.1/friendships/create.json')).toBe(0);
    // Not followed any more: the protected timeline is refused, with the platform's message (v2's problems carry no code).
    const refused = await h.crm.get(accountPath(`/users/${pat}/timeline`));
    expect(refused.status).toBe(403);
    expect(refused.data.error).toEqual({ code: 'platform_rejected', message: `Sorry, you are not authorized to see the user with id: [${pat}].` });
  });

  it('posts: post, reply, repost, like, unlike, delete, through v2', async () => {
    const since = new Date().toISOString();
    const created = await ok(h.crm.post(accountPath('/posts'), { text: 'Hello & welcome <3' }));
    expect(created.platformId).toMatch(/^[0-9]{18,19}$/);
    expect(created.data).toEqual({ data: { id: created.platformId, text: 'Hello & welcome <3', edit_history_tweet_ids: [created.platformId] } });
    expect(await received('/2/tweets', 'POST')).toMatchObject({ json: { text: 'Hello & welcome <3' }, caller: user(), status: 201 });

    const theirs = (await h.sim.post('/control/platform/posts', { author: '@poster_pam', text: 'my parcel is late' })).data.id_str as string;
    const reply = await ok(h.crm.post(accountPath(`/posts/${theirs}/replies`), { text: 'Sorry! Checking now.' }));
    expect(reply.platformId).toMatch(/^[0-9]+$/);
    expect(await received('/2/tweets', 'POST')).toMatchObject({ json: { text: 'Sorry! Checking now.', reply: { in_reply_to_tweet_id: theirs } }, status: 201 });
    // The same post v1.1 would have made: a reply threaded under theirs.
    const [asRead] = (await ok(h.crm.get(accountPath(`/users/${accountId}/timeline`), { params: { count: 1 } }))).data as { id_str: string; in_reply_to_status_id_str: string }[];
    expect(asRead).toMatchObject({ id_str: reply.platformId, in_reply_to_status_id_str: theirs });

    const repost = await ok(h.crm.post(accountPath(`/posts/${theirs}/reposts`)));
    expect(repost.platformId).toMatch(/^[0-9]+$/);
    expect(repost.platformId).not.toBe(theirs);
    expect(await received(mine('/retweets'), 'POST')).toMatchObject({ json: { tweet_id: theirs }, caller: user(), status: 200 });

    expect((await ok(h.crm.put(accountPath(`/posts/${theirs}/like`)))).platformId).toBe(theirs);
    expect(await received(mine('/likes'), 'POST')).toMatchObject({ json: { tweet_id: theirs }, caller: user(), status: 200 });
    await ok(h.crm.delete(accountPath(`/posts/${theirs}/like`)));
    expect(await received(mine(`/likes/${theirs}`), 'DELETE')).toMatchObject({ caller: user(), status: 200 });

    expect((await ok(h.crm.delete(accountPath(`/posts/${created.platformId}`)))).platformId).toBe(created.platformId);
    expect(await received(`/2/tweets/${created.platformId}`, 'DELETE')).toMatchObject({ caller: user(), status: 200 });
    for (const legacy of ['/1.1/statuses/update.json', '/1.1/favorites/create.json', '/1.1/favorites/destroy.json', `/1.1/statuses/retweet/${theirs}.json`]) expect(await v1Requests(legacy)).toBe(0);

    // The account's own activity came back to its webhook as deliveries.
    const kinds = await waitFor(async () => {
      const items = (await h.sim.get('/control/platform/deliveries')).data.items as { kind: string; forUserId: string; webhookStatus: number; sentAt: string }[];
      const seen = new Set(items.filter((d) => d.sentAt >= since && d.forUserId === accountId && d.webhookStatus === 200).map((d) => d.kind));
      return seen.size === 3 && seen;
    });
    expect(kinds).toEqual(new Set(['tweet_create_events', 'favorite_events', 'tweet_delete_events']));
  });

  it('lists: create, update, members, delete and reads through v2', async () => {
    const member = await customer('list_member');
    const created = await ok(h.crm.post(accountPath('/lists'), { name: 'VIP customers', mode: 'private', description: 'handle first' }));
    const listId = created.platformId!;
    expect(listId).toMatch(/^[0-9]+$/);
    expect(await received('/2/lists', 'POST')).toMatchObject({ json: { name: 'VIP customers', description: 'handle first', private: true }, caller: user(), status: 201 });

    expect((await ok(h.crm.patch(accountPath(`/lists/${listId}`), { name: 'VIPs' }))).platformId).toBe(listId);
    expect(await received(`/2/lists/${listId}`, 'PUT')).toMatchObject({ json: { name: 'VIPs' }, status: 200 });
    expect((await ok(h.crm.put(accountPath(`/lists/${listId}/members/${member}`)))).platformId).toBe(listId);
    expect(await received(`/2/lists/${listId}/members`, 'POST')).toMatchObject({ json: { user_id: member }, status: 200 });
    await h.sim.post('/control/platform/posts', { author: '@list_member', text: 'member post' });
    expect((await ok(h.crm.get(accountPath(`/lists/${listId}/posts`)))).data).toEqual([expect.objectContaining({ text: 'member post' })]);
    expect(await received(`/2/lists/${listId}/tweets`, 'GET')).toMatchObject({ caller: user(), status: 200 });
    expect((await ok(h.crm.get(accountPath('/lists')))).data).toEqual([expect.objectContaining({ id_str: listId, name: 'VIPs', mode: 'private', member_count: 1 })]);
    expect(await received(mine('/owned_lists'), 'GET')).toMatchObject({ caller: user(), status: 200 });
    expect((await ok(h.crm.get(accountPath('/lists/subscriptions')))).data).toMatchObject({ lists: [] });
    expect(await received(mine('/followed_lists'), 'GET')).toMatchObject({ caller: user(), status: 200 });
    await ok(h.crm.delete(accountPath(`/lists/${listId}/members/@list_member`)));
    expect(await received('/2/users/by/username/list_member', 'GET')).toMatchObject({ caller: user(), status: 200 });
    expect(await received(`/2/lists/${listId}/members/${member}`, 'DELETE')).toMatchObject({ status: 200 });
    expect((await ok(h.crm.get(accountPath('/lists')))).data).toEqual([expect.objectContaining({ member_count: 0 })]);
    await ok(h.crm.delete(accountPath(`/lists/${listId}`)));
    expect(await received(`/2/lists/${listId}`, 'DELETE')).toMatchObject({ status: 200 });
    expect((await ok(h.crm.get(accountPath('/lists')))).data).toEqual([]);
  });

  it('collections: create, update, entries, read, delete', async () => {
    const post = (await h.sim.post('/control/platform/posts', { author: '@collected', text: 'great feedback' })).data.id_str as string;
    const created = await ok(h.crm.post(accountPath('/collections'), { name: 'Praise', description: 'kind words', timelineOrder: 'tweet_reverse_chron' }));
    const collectionId = created.platformId!;
    expect(collectionId).toMatch(/^custom-[0-9]+$/);
    expect(await received('/1.1/collections/create.json', 'POST')).toMatchObject({ form: { name: 'Praise', description: 'kind words', timeline_order: 'tweet_reverse_chron' }, caller: user() });

    await ok(h.crm.patch(accountPath(`/collections/${collectionId}`), { description: 'the kindest words' }));
    expect(await received('/1.1/collections/update.json', 'POST')).toMatchObject({ form: { id: collectionId, description: 'the kindest words' } });
    await ok(h.crm.put(accountPath(`/collections/${collectionId}/entries/${post}`)));
    expect(await received('/1.1/collections/entries/add.json', 'POST')).toMatchObject({ form: { id: collectionId, tweet_id: post } });
    const entries = await ok(h.crm.get(accountPath(`/collections/${collectionId}/entries`)));
    expect(entries.data).toMatchObject({ response: { timeline: [{ tweet: { id: post } }] } });
    expect(await received('/1.1/collections/entries.json', 'GET')).toMatchObject({ query: { id: collectionId } });
    expect((await ok(h.crm.get(accountPath('/collections')))).data).toMatchObject({ response: { results: [{ timeline_id: collectionId }] } });
    expect(await received('/1.1/collections/list.json', 'GET')).toMatchObject({ query: { user_id: accountId } });
    await ok(h.crm.delete(accountPath(`/collections/${collectionId}/entries/${post}`)));
    expect(await received('/1.1/collections/entries/remove.json', 'POST')).toMatchObject({ form: { id: collectionId, tweet_id: post } });
    await ok(h.crm.delete(accountPath(`/collections/${collectionId}`)));
    expect(await received('/1.1/collections/destroy.json', 'POST')).toMatchObject({ form: { id: collectionId }, status: 200 });
  });

  it('mute and block through v2, report through v1.1, and undoing them', async () => {
    const since = new Date().toISOString();
    const troll = await customer('troll_tom');
    expect((await ok(h.crm.put(accountPath(`/mutes/${troll}`)))).platformId).toBe(troll);
    expect(await received(mine('/muting'), 'POST')).toMatchObject({ json: { target_user_id: troll }, caller: user(), status: 200 });
    await ok(h.crm.delete(accountPath(`/mutes/${troll}`)));
    expect(await received(mine(`/muting/${troll}`), 'DELETE')).toMatchObject({ status: 200 });
    expect((await ok(h.crm.put(accountPath('/blocks/troll_tom')))).platformId).toBe(troll);
    expect(await received('/2/users/by/username/troll_tom', 'GET')).toMatchObject({ status: 200 });
    expect(await received(mine('/blocking'), 'POST')).toMatchObject({ json: { target_user_id: troll }, status: 200 });
    await ok(h.crm.delete(accountPath(`/blocks/${troll}`)));
    expect(await received(mine(`/blocking/${troll}`), 'DELETE')).toMatchObject({ status: 200 });
    await ok(h.crm.post(accountPath('/reports'), { userId: troll, block: false }));
    expect(await received('/1.1/users/report_spam.json', 'POST')).toMatchObject({ form: { user_id: troll, perform_block: 'false' }, caller: user(), status: 200 });

    // As through v1.1, each change comes back to the account's webhook.
    const kinds = await waitFor(async () => {
      const items = (await h.sim.get('/control/platform/deliveries')).data.items as { kind: string; forUserId: string; webhookStatus: number; sentAt: string }[];
      const seen = items.filter((d) => d.sentAt >= since && d.forUserId === accountId && d.webhookStatus === 200).map((d) => d.kind);
      return seen.length === 4 ? seen.sort() : undefined;
    });
    expect(kinds).toEqual(['block_events', 'block_events', 'mute_events', 'mute_events']);
  });

  it('direct messages: send, read, mark read, typing, delete', async () => {
    const ana = await customer('dm_ana');
    const sent = await ok(h.crm.post(accountPath('/direct-messages'), { recipientId: ana, text: 'Hi Ana 👋 order 42 ships today' }));
    const eventId = sent.platformId!;
    expect(sent.data).toEqual({ data: { dm_event_id: eventId, dm_conversation_id: expect.stringContaining(ana) } });
    expect(await received(`/2/dm_conversations/with/${ana}/messages`, 'POST')).toMatchObject({ json: { text: 'Hi Ana 👋 order 42 ships today' }, caller: user(), status: 201 });
    expect((await ok(h.crm.get(accountPath('/direct-messages'), { params: { count: 10 } }))).data).toMatchObject({ events: [expect.objectContaining({ id: eventId })] });
    expect(await received('/2/dm_events', 'GET')).toMatchObject({ query: { max_results: '10', event_types: 'MessageCreate' }, caller: user(), status: 200 });
    expect((await ok(h.crm.get(accountPath(`/direct-messages/${eventId}`)))).data).toMatchObject({ event: { id: eventId } });
    expect(await received(`/2/dm_events/${eventId}`, 'GET')).toMatchObject({ caller: user(), status: 200 });
    await ok(h.crm.post(accountPath('/direct-messages/read'), { recipientId: ana, lastReadEventId: eventId }));
    expect(await received('/1.1/direct_messages/mark_read.json', 'POST')).toMatchObject({ form: { recipient_id: ana, last_read_event_id: eventId }, status: 204 });
    await ok(h.crm.post(accountPath('/direct-messages/typing'), { recipientId: ana }));
    expect(await received('/1.1/direct_messages/indicate_typing.json', 'POST')).toMatchObject({ form: { recipient_id: ana }, status: 204 });
    await ok(h.crm.delete(accountPath(`/direct-messages/${eventId}`)));
    expect(await received(`/2/dm_events/${eventId}`, 'DELETE')).toMatchObject({ caller: user(), status: 200 });
    // Gone on the platform: reading it again finds nothing.
    expect((await h.crm.get(accountPath(`/direct-messages/${eventId}`))).status).toBe(404);
  });

  it('validates input before calling out, naming the field', async () => {
    const before = (await h.platformRequests('/2/tweets')).length;
    const long = await h.crm.post(accountPath('/posts'), { text: 'x'.repeat(281) });
    expect(long.status).toBe(400);
    expect(long.data.error).toEqual({ code: 'invalid_request', message: 'body.text must NOT have more than 280 characters', fields: [{ in: 'body', field: 'text', message: 'must NOT have more than 280 characters' }] });
    expect((await h.crm.post(accountPath('/direct-messages'), { recipientId: '123', text: '   ' })).data.error.message).toContain('body.text must match pattern');
    expect((await h.crm.post(accountPath('/direct-messages'), { recipientId: 'ana', text: 'hi' })).data.error.message).toContain('body.recipientId must match pattern');
    expect((await h.crm.put(accountPath('/posts/12ab/like'))).data.error.message).toContain('path.postId must match pattern');
    expect((await h.crm.get('/v1/accounts/not-digits/profile')).data.error.message).toContain('path.accountId must match pattern');
    // A literal path is its own route: another method on it is not taken for an id.
    const literal = await h.crm.get(accountPath('/direct-messages/read'));
    expect({ status: literal.status, allow: literal.headers.allow }).toEqual({ status: 405, allow: 'POST' });
    expect((await h.platformRequests('/2/tweets')).length).toBe(before);
  });

  it('does not send a write twice for the same Idempotency-Key', async () => {
    const key = `key-${randomUUID()}`;
    const first = await ok(h.crm.post(accountPath('/posts'), { text: 'exactly once' }, { headers: { 'idempotency-key': key } }));
    const second = await ok(h.crm.post(accountPath('/posts'), { text: 'exactly once' }, { headers: { 'idempotency-key': key } }));
    expect(second).toEqual({ ...first, replayed: true });
    const sends = (await h.platformRequests('/2/tweets')).filter((r) => (r.json as { text?: string }).text === 'exactly once');
    expect(sends).toHaveLength(1);
    const reused = await h.crm.post(accountPath('/posts'), { text: 'something else' }, { headers: { 'idempotency-key': key } });
    expect(reused.status).toBe(409);
    expect(reused.data.error.code).toBe('idempotency_key_reused');
  });

  it('sends one post for ten identical requests sent at once with one key', async () => {
    const key = `burst-${randomUUID()}`;
    const text = `once of ten ${key}`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => h.crm.post(accountPath('/posts'), { text }, { headers: { 'idempotency-key': key } })));
    const sends = (await h.platformRequests('/2/tweets', 'POST')).filter((r) => (r.json as { text?: string }).text === text);
    expect(sends).toHaveLength(1);
    const succeeded = answers.filter((answer) => answer.status === 200);
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    expect(new Set(succeeded.map((answer) => answer.data.platformId)).size).toBe(1);
    // The others came while the first was being sent.
    for (const answer of answers.filter((a) => a.status !== 200)) expect({ status: answer.status, code: answer.data.error.code }).toEqual({ status: 409, code: 'command_in_progress' });
    const after = await ok(h.crm.post(accountPath('/posts'), { text }, { headers: { 'idempotency-key': key } }));
    expect(after).toMatchObject({ platformId: succeeded[0]!.data.platformId, replayed: true });
  });

  it("keeps a key to its credential (sessions included) and account: another tenant's same key is another request", async () => {
    const other = await h.connect('@acme_tenant_b');
    const credential = async (...options: string[]) => {
      const out: string[] = [];
      await runCli(['credentials', 'create', '--name', 'tenant', ...options], h.config, testLogger(), { out: (line) => out.push(line), err: () => undefined });
      return (JSON.parse(out.join('\n')) as { token: string }).token;
    };
    const client = (token: string) => axios.create({ baseURL: h.authUrl, validateStatus: () => true, headers: { authorization: `Bearer ${token}`, 'idempotency-key': key } });
    const key = `shared-${randomUUID()}`;
    const tenantA = await credential('--scopes', 'tickets:read,tickets:write', '--accounts', accountId);
    const tenantB = await credential('--scopes', 'tickets:read,tickets:write', '--accounts', other);
    const sent = (text: string) => h.platformRequests('/2/tweets', 'POST').then((requests) => requests.filter((r) => (r.json as { text?: string }).text === text).length);

    const a = await ok(client(tenantA).post(accountPath('/posts'), { text: `from a ${key}` }));
    const b = await ok(client(tenantB).post(`/v1/accounts/${other}/posts`, { text: `from b ${key}` }));
    expect({ a: a.commandId, b: b.commandId }).toEqual({ a: expect.stringMatching(/^http:[a-z0-9]{16}:[0-9]+:shared-/), b: expect.stringMatching(/^http:[a-z0-9]{16}:[0-9]+:shared-/) });
    expect(a.commandId).not.toBe(b.commandId);
    expect(b).toMatchObject({ replayed: false });
    // The bootstrap token is another principal: its same key on the same account is its own request (not idempotency_key_reused).
    expect(await ok(h.crm.post(accountPath('/posts'), { text: `from the bootstrap token ${key}` }, { headers: { 'idempotency-key': key } }))).toMatchObject({ replayed: false });
    expect({ a: await sent(`from a ${key}`), b: await sent(`from b ${key}`), bootstrap: await sent(`from the bootstrap token ${key}`) }).toEqual({ a: 1, b: 1, bootstrap: 1 });

    // A session of tenant A's credential is tenant A: its retry is the same request.
    const console = await credential('--scopes', 'sessions:issue');
    const session = (await client(console).post('/v1/sessions', { subjectToken: tenantA, clientAddress: '203.0.113.5' })).data.token as string;
    expect(await ok(client(session).post(accountPath('/posts'), { text: `from a ${key}` }))).toEqual({ ...a, replayed: true });
    expect(await sent(`from a ${key}`)).toBe(1);
  });
});

describe('actions as commands on social.commands, results on social.command-results', () => {
  const send = (payload: SocialCommandPayload) => publisher.publish(Exchanges.socialCommands, payload.action, makeEnvelope(SocialCommand, 'ticketing', payload));

  it('sends a DM reply for a ticket and publishes the result with the DM event id, context echoed', async () => {
    const ana = await customer('cmd_ana');
    const commandId = `reply-${randomUUID()}`;
    await send({ commandId, action: 'send_dm', accountId, input: { recipientId: ana, text: 'We refunded you.' }, context: { ticketId: 't-1', activityId: 'a-1' } });
    const result = await h.waitForPublished('send_dm.succeeded', (p) => p.commandId === commandId);
    expect(result.exchange).toBe(Exchanges.socialCommandResults);
    expect(result.envelope.payload).toMatchObject({ outcome: 'succeeded', accountId, platformId: expect.stringMatching(/^[0-9]+$/), error: null, context: { ticketId: 't-1', activityId: 'a-1' } });
    expect(result.envelope.id).toBe(`result-${commandId}`);
    const request = await received(`/2/dm_conversations/with/${ana}/messages`, 'POST');
    expect(request).toMatchObject({ json: { text: 'We refunded you.' }, caller: user() });
    // The DM event id the result carries is the one the platform keeps (and its echo delivery carries).
    const listed = (await ok(h.crm.get(accountPath('/direct-messages'), { params: { count: 5 } }))).data as { events: { id: string; message_create: { message_data: { text: string } } }[] };
    expect(listed.events.find((e) => e.id === result.envelope.payload.platformId)?.message_create.message_data.text).toBe('We refunded you.');
  });

  it('sends a public reply to a post as a command', async () => {
    const post = (await h.sim.post('/control/platform/posts', { author: '@cmd_pam', text: '@acme_actions where is my order?' })).data.id_str as string;
    const commandId = `reply-${randomUUID()}`;
    await send({ commandId, action: 'reply', accountId, input: { inReplyToPostId: post, text: '@cmd_pam it ships today' } });
    const result = await h.waitForPublished('reply.succeeded', (p) => p.commandId === commandId);
    expect(result.envelope.payload.platformId).toMatch(/^[0-9]+$/);
    expect(await received('/2/tweets', 'POST')).toMatchObject({ json: { text: '@cmd_pam it ships today', reply: { in_reply_to_tweet_id: post } }, caller: user() });
  });

  it('never sends a redelivered command twice: the stored result is published again', async () => {
    const ana = await customer('cmd_twice');
    const commandId = `twice-${randomUUID()}`;
    const command: SocialCommandPayload = { commandId, action: 'send_dm', accountId, input: { recipientId: ana, text: 'only once please' } };
    await send(command);
    await h.waitForPublished('send_dm.succeeded', (p) => p.commandId === commandId);
    await send(command);
    await waitFor(() => h.published.filter((p) => p.envelope.payload.commandId === commandId).length === 2, { what: 'the second result' });
    const results = h.published.filter((p) => p.envelope.payload.commandId === commandId).map((p) => p.envelope.payload);
    expect(results[1]).toEqual(results[0]);
    const sends = (await h.platformRequests(`/2/dm_conversations/with/${ana}/messages`)).filter((r) => JSON.stringify(r.json).includes('only once please'));
    expect(sends).toHaveLength(1);
  });

  it('answers reads too, with what was read', async () => {
    const commandId = `read-${randomUUID()}`;
    await send({ commandId, action: 'read_profile', accountId, input: {} });
    const result = await h.waitForPublished('read_profile.succeeded', (p) => p.commandId === commandId);
    expect(result.envelope.payload.data).toMatchObject({ id_str: accountId });
  });

  it('refuses to publish a command whose input breaks its contract', async () => {
    await expect(send({ commandId: `bad-${randomUUID()}`, action: 'send_dm', accountId, input: { recipientId: '1', text: '' } })).rejects.toThrow(/input\/text/);
  });
});

describe("the routes an OAuth 1.0a account's reads went through", () => {
  it('reads through v2 wherever the platform has the route; only what v2 lacks (settings, collections) through v1.1', async () => {
    expect((await ok(h.crm.get(accountPath('/search'), { params: { query: 'parcel' } }))).data).toMatchObject({ statuses: expect.any(Array) });
    expect(await received('/2/tweets/search/recent', 'GET')).toMatchObject({ query: { query: 'parcel', max_results: '15' }, caller: user(), status: 200 });
    await ok(h.crm.get(accountPath('/settings')));
    expect(await received('/1.1/account/settings.json', 'GET')).toMatchObject({ caller: user(), status: 200 });

    // Every read this file made as the account, over HTTP and as commands, by the route it took.
    const reads = (await h.platformRequests('', 'GET')).filter((entry) => entry.caller.userId === accountId && entry.at >= actionsSince);
    const routes = new Set(reads.map((entry) => routeOf({ method: 'GET', path: entry.path })));
    expect([...routes].filter((route) => !route.startsWith('GET /2/')).sort()).toEqual(['GET /1.1/account/settings.json', 'GET /1.1/collections/entries.json', 'GET /1.1/collections/list.json']);
    expect([...routes].filter((route) => route.startsWith('GET /2/')).sort()).toEqual(
      [
        'GET /2/users/me',
        'GET /2/users/:id',
        'GET /2/users/by/username/:username',
        'GET /2/users/:id/tweets',
        'GET /2/users/:id/timelines/reverse_chronological',
        'GET /2/users/:id/following',
        'GET /2/users/:id/owned_lists',
        'GET /2/users/:id/followed_lists',
        'GET /2/lists/:id/tweets',
        'GET /2/dm_events',
        'GET /2/dm_events/:id',
        'GET /2/tweets/search/recent',
      ].sort(),
    );
  });
});
