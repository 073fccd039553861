/**
 * How the platform's errors are mapped, over HTTP and for commands, from v1.1 answers
 * (`{errors: [{code, message}]}`) and v2 problem details (`{title, detail, type, status}`)
 * alike: 429 (wait for x-rate-limit-reset; the DM quota too), 401 code 89 or a v2 401
 * (reconnect needed), other 4xx (failed with the platform's code, if any, and message), a send
 * that times out (unknown, never sent again), the app token (fetched again on 401 code 89;
 * 403 code 99 is a configuration error).
 */
import { randomUUID } from 'node:crypto';
import amqplib from 'amqplib';
import { Exchanges, SocialCommand, SYSTEM_TOPOLOGY, type SocialCommandPayload } from '@crm/contracts';
import { Broker, makeEnvelope, Publisher } from '@crm/messaging';
import { testLogger, waitFor } from '@crm/testing';
import { PlatformClient } from './adapters/platform/client';
import { ConfigurationError, PlatformNotReached } from './domain/platform-errors';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
let accountId: string;
let broker: Broker;
let publisher: Publisher;

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_errors', env: { SOCIAL_HTTP_TIMEOUT_MS: '1000' }, simulatorEnv: { DM_WRITE_LIMIT_PER_15_MINUTES: '2' } });
  accountId = await h.connectAndSubscribe('@acme_errors');
  broker = new Broker({ url: h.vhost.url, name: 'errors-test', logger: testLogger('errors-test') });
  publisher = new Publisher(broker, SYSTEM_TOPOLOGY);
});

afterAll(async () => {
  await publisher?.close();
  await broker?.close();
  await h?.stop();
});

const accountPath = (path: string) => `/v1/accounts/${accountId}${path}`;
/** A v2 route that names the acting user: `/2/users/<account>/...`. */
const mine = (path: string) => `/2/users/${accountId}${path}`;
const fault = (body: Record<string, unknown>) => h.sim.post('/control/platform/faults', body);
const send = (payload: SocialCommandPayload) => publisher.publish(Exchanges.socialCommands, payload.action, makeEnvelope(SocialCommand, 'ticketing', payload));
const requestsTo = async (path: string) => (await h.platformRequests(path)).length;

/** Publishes a command as if the consumer had already tried it `attempts` times (its last chance is next). */
async function sendAsRetried(payload: SocialCommandPayload, attempts: number): Promise<void> {
  const connection = await amqplib.connect(h.vhost.url);
  const channel = await connection.createConfirmChannel();
  const envelope = makeEnvelope(SocialCommand, 'ticketing', payload);
  channel.publish(Exchanges.socialCommands, payload.action, Buffer.from(JSON.stringify(envelope)), { persistent: true, messageId: envelope.id, headers: { 'x-attempts': attempts } });
  await channel.waitForConfirms();
  await connection.close();
}

describe('429: wait until x-rate-limit-reset', () => {
  it('answers HTTP 429 with Retry-After, and does not call the platform again before the reset', async () => {
    await fault({ path: '/1.1/account/update_profile.json', status: 429, resetInSeconds: 120 });
    const before = await requestsTo('/1.1/account/update_profile.json');
    const limited = await h.crm.patch(accountPath('/profile'), { location: 'Berlin' });
    expect(limited.status).toBe(429);
    expect(limited.data.error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(100);
    const again = await h.crm.patch(accountPath('/profile'), { location: 'Berlin' });
    expect(again.status).toBe(429);
    expect(await requestsTo('/1.1/account/update_profile.json')).toBe(before + 1);
  });

  it('retries a command later through the consumer, after the reset, and it succeeds', async () => {
    const post = (await h.sim.post('/control/platform/posts', { author: '@limit_lou', text: 'like me' })).data.id_str as string;
    await fault({ path: mine('/likes'), status: 429, resetInSeconds: 1 });
    const commandId = `like-${randomUUID()}`;
    await send({ commandId, action: 'like', accountId, input: { postId: post } });
    const result = await h.waitForPublished('like.succeeded', (p) => p.commandId === commandId);
    expect(result.envelope.payload.outcome).toBe('succeeded');
    const calls = (await h.platformRequests(mine('/likes'))).map((r) => r.status);
    expect(calls).toEqual([200, 429]);
  });

  it('gives a failed result (rate_limited) when the last attempt is still limited', async () => {
    await fault({ path: mine('/following'), status: 429, resetInSeconds: 600 });
    const commandId = `follow-${randomUUID()}`;
    await sendAsRetried({ commandId, action: 'follow', accountId, input: { screenName: 'limit_lou' } }, 7);
    const result = await h.waitForPublished('follow.failed', (p) => p.commandId === commandId);
    expect(result.envelope.payload).toMatchObject({ outcome: 'failed', error: { code: 'rate_limited' } });
  });

  it("maps the DM quota's 429 to rate_limited with its reset, and sends nothing more before it", async () => {
    const ana = (await h.sim.post('/control/platform/users', { screenName: 'quota_ana' })).data.id_str as string;
    const route = `/2/dm_conversations/with/${ana}/messages`;
    for (const text of ['one', 'two']) expect((await h.crm.post(accountPath('/direct-messages'), { recipientId: ana, text })).status).toBe(200);
    const limited = await h.crm.post(accountPath('/direct-messages'), { recipientId: ana, text: 'three' });
    expect(limited.status).toBe(429);
    expect(limited.data.error.code).toBe('rate_limited');
    // The quota's window is 15 minutes from the first DM.
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800);
    expect((await h.platformRequests(route)).map((r) => r.status)).toEqual([429, 201, 201]);
    const commandId = `dm-${randomUUID()}`;
    await sendAsRetried({ commandId, action: 'send_dm', accountId, input: { recipientId: ana, text: 'four' } }, 7);
    const result = await h.waitForPublished('send_dm.failed', (p) => p.commandId === commandId);
    expect(result.envelope.payload).toMatchObject({ outcome: 'failed', platformId: null, error: { code: 'rate_limited' } });
    expect(await h.platformRequests(route)).toHaveLength(3);
  });

  it('keeps to the route the platform limited, whichever action calls it: a reply waits for the window a post met', async () => {
    const limitedId = await h.connect('@limit_route_rui');
    const tweets = async () => (await h.platformRequests('/2/tweets', 'POST')).filter((entry) => entry.caller.userId === limitedId).length;
    await fault({ path: '/2/tweets', method: 'POST', status: 429, resetInSeconds: 120 });
    expect((await h.crm.post(`/v1/accounts/${limitedId}/posts`, { text: 'met the limit' })).status).toBe(429);
    expect(await tweets()).toBe(1);
    const theirs = (await h.sim.post('/control/platform/posts', { author: '@limit_lou', text: 'reply to me' })).data.id_str as string;
    const reply = await h.crm.post(`/v1/accounts/${limitedId}/posts/${theirs}/replies`, { text: 'waits' });
    expect(reply.status).toBe(429);
    expect(Number(reply.headers['retry-after'])).toBeGreaterThan(100);
    expect(await tweets()).toBe(1);
    // Another route of the same account is not held back.
    expect((await h.crm.get(`/v1/accounts/${limitedId}/profile`)).status).toBe(200);
  });

  it('leaves a write unsent when looking up the screen name it names is rate limited', async () => {
    await fault({ path: '/2/users/by/username/lookup_lou', status: 429, resetInSeconds: 300 });
    const before = await requestsTo(mine('/blocking'));
    const limited = await h.crm.put(accountPath('/blocks/@lookup_lou'));
    expect(limited.status).toBe(429);
    expect(limited.data.error.code).toBe('rate_limited');
    expect(await requestsTo(mine('/blocking'))).toBe(before);
    // Not a send that may have happened: the same request goes out once the window opens.
    expect((await h.platformRequests('/2/users/by/username/lookup_lou')).map((r) => r.status)).toEqual([429]);
  });
});

describe('other 4xx: a failed result with the platform code and message', () => {
  it('over HTTP: the platform status and message (v2 problems carry no code)', async () => {
    await h.crm.post(accountPath('/posts'), { text: 'said once' });
    const duplicate = await h.crm.post(accountPath('/posts'), { text: 'said once' });
    expect(duplicate.status).toBe(403);
    expect(duplicate.data.error).toEqual({ code: 'platform_rejected', message: 'You are not allowed to create a Tweet with duplicate content.' });
    const missing = await h.crm.delete(accountPath('/posts/1234567'));
    expect(missing.status).toBe(404);
    expect(missing.data.error).toEqual({ code: 'platform_rejected', message: 'Could not find tweet.' });
  });

  it('over HTTP, from v1.1: the platform status, code and message', async () => {
    await fault({ path: '/1.1/account/settings.json', method: 'POST', status: 403, code: 120, message: 'Account update failed: value is too long.' });
    const refused = await h.crm.patch(accountPath('/settings'), { timeZone: 'Europe/Berlin' });
    expect(refused.status).toBe(403);
    expect(refused.data.error).toEqual({ code: 'platform_rejected', message: 'Account update failed: value is too long. (platform code 120)' });
  });

  it('as a command: post.failed with the message and platformStatus', async () => {
    await fault({ path: '/2/tweets', status: 403, message: 'You are not permitted to perform this action.' });
    const commandId = `post-${randomUUID()}`;
    await send({ commandId, action: 'post', accountId, input: { text: 'refused' } });
    const result = await h.waitForPublished('post.failed', (p) => p.commandId === commandId);
    expect(result.envelope.payload).toMatchObject({
      outcome: 'failed',
      platformId: null,
      error: { code: 'platform_rejected', message: 'You are not permitted to perform this action.', platformCode: null, platformStatus: 403 },
    });
  });
});

describe('a send that times out: outcome unknown, never sent again', () => {
  it('reports a command as unknown and does not resend it when it is delivered again', async () => {
    await fault({ path: '/2/tweets', delayMs: 2500 });
    const commandId = `slow-${randomUUID()}`;
    const command: SocialCommandPayload = { commandId, action: 'post', accountId, input: { text: 'slow post' } };
    await send(command);
    const result = await h.waitForPublished('post.failed', (p) => p.commandId === commandId);
    expect(result.envelope.payload).toMatchObject({ outcome: 'unknown', error: { code: 'outcome_unknown' } });

    await send(command);
    await waitFor(() => h.published.filter((p) => p.envelope.payload.commandId === commandId).length === 2, { what: 'the repeated result' });
    // The platform did post it, only answered late: that is why it must not go out again.
    const slowSends = async () => (await h.platformRequests('/2/tweets')).filter((r) => (r.json as { text?: string }).text === 'slow post');
    const sends = await waitFor(async () => {
      const found = await slowSends();
      return found.length > 0 && found;
    });
    expect(sends).toEqual([expect.objectContaining({ status: null })]); // auth stopped waiting before the answer
    const timeline = await h.crm.get(accountPath(`/users/${accountId}/timeline`));
    expect((timeline.data.data as { text: string }[]).map((p) => p.text)).toContain('slow post');
  });

  it('answers HTTP 504 outcome_unknown for a send that timed out', async () => {
    await fault({ path: mine('/likes'), delayMs: 2500 });
    const post = (await h.sim.post('/control/platform/posts', { author: '@slow_sam', text: 'like me slowly' })).data.id_str as string;
    const res = await h.crm.put(accountPath(`/posts/${post}/like`));
    expect(res.status).toBe(504);
    expect(res.data.error.code).toBe('outcome_unknown');
  });

  it('reports a command whose earlier attempt died mid-send as unknown, without calling out', async () => {
    const commandId = `crashed-${randomUUID()}`;
    const input = { text: 'sent before a crash' };
    const before = await requestsTo('/2/tweets');
    // What a worker that crashed during the call leaves behind.
    const { createHash } = await import('node:crypto');
    const digest = createHash('sha256').update(JSON.stringify(['post', accountId, input])).digest('hex');
    await h.auth.pool.query(
      `INSERT INTO commands (command_id, source, action, account_id, input_sha256, state, attempts, sending_since) VALUES ($1, 'broker', 'post', $2, $3, 'sending', 1, now() - interval '1 hour')`,
      [commandId, accountId, digest],
    );
    await send({ commandId, action: 'post', accountId, input });
    const result = await h.waitForPublished('post.failed', (p) => p.commandId === commandId);
    expect(result.envelope.payload).toMatchObject({ outcome: 'unknown', error: { code: 'outcome_unknown' } });
    expect(await requestsTo('/2/tweets')).toBe(before);
  });

  it('retries a read that fails on the platform side (5xx) instead of giving up', async () => {
    await fault({ path: '/1.1/account/settings.json', method: 'GET', status: 503, code: 130, message: 'Over capacity' });
    const res = await h.crm.get(accountPath('/settings'));
    expect(res.status).toBe(503);
    expect(res.data.error.code).toBe('platform_unavailable');
    const commandId = `settings-${randomUUID()}`;
    await fault({ path: '/1.1/account/settings.json', method: 'GET', status: 503, code: 130, message: 'Over capacity' });
    await send({ commandId, action: 'read_settings', accountId, input: {} });
    const result = await h.waitForPublished('read_settings.succeeded', (p) => p.commandId === commandId);
    expect(result.envelope.payload.data).toMatchObject({ screen_name: 'acme_errors' });
  });
});

describe('401 code 89: the account needs a reconnect', () => {
  let revokedId: string;

  beforeAll(async () => {
    revokedId = await h.connect('@acme_revoked');
    await h.sim.post('/control/platform/tokens/revoke', { user: revokedId });
  });

  it('marks the account, publishes account.needs-reconnect once, and fails the action', async () => {
    // A v1.1 route (settings have no v2 one) says why: code 89.
    const res = await h.crm.get(`/v1/accounts/${revokedId}/settings`);
    expect(res.status).toBe(409);
    expect(res.data.error.code).toBe('reconnect_needed');
    const event = await h.waitForPublished('account.needs-reconnect', (p) => p.accountId === revokedId);
    expect(event.envelope.payload).toMatchObject({ screenName: 'acme_revoked', consumerKey: h.secrets.consumerKey, reason: { platformCode: 89, message: 'Invalid or expired token.' } });
    expect((await h.crm.get(`/v1/accounts/${revokedId}`)).data).toMatchObject({ status: 'needs_reconnect', statusReason: 'Invalid or expired token.' });

    const commandId = `dm-${randomUUID()}`;
    const dmRoute = `/2/dm_conversations/with/${accountId}/messages`;
    const before = await requestsTo(dmRoute);
    await send({ commandId, action: 'send_dm', accountId: revokedId, input: { recipientId: accountId, text: 'hello?' } });
    const result = await h.waitForPublished('send_dm.failed', (p) => p.commandId === commandId);
    expect(result.envelope.payload).toMatchObject({ outcome: 'failed', error: { code: 'reconnect_needed' } });
    expect(await requestsTo(dmRoute)).toBe(before); // not even tried
    expect(h.published.filter((p) => p.routingKey === 'account.needs-reconnect' && p.envelope.payload.accountId === revokedId)).toHaveLength(1);
  });

  it('is connected again by a new OAuth connection', async () => {
    expect(await h.connect(`${revokedId}`)).toBe(revokedId);
    expect((await h.crm.get(`/v1/accounts/${revokedId}`)).data).toMatchObject({ status: 'connected', statusReason: null });
    expect((await h.crm.get(`/v1/accounts/${revokedId}/profile`)).status).toBe(200);
  });

  it('comes from a v2 route too: its 401 problem (no code) is the token refused', async () => {
    const v2RevokedId = await h.connect('@acme_v2_revoked');
    await h.sim.post('/control/platform/tokens/revoke', { user: v2RevokedId });
    const commandId = `post-${randomUUID()}`;
    await send({ commandId, action: 'post', accountId: v2RevokedId, input: { text: 'anyone there?' } });
    const result = await h.waitForPublished('post.failed', (p) => p.commandId === commandId);
    expect(result.envelope.payload).toMatchObject({ outcome: 'failed', error: { code: 'reconnect_needed', platformCode: null, platformStatus: 401 } });
    const event = await h.waitForPublished('account.needs-reconnect', (p) => p.accountId === v2RevokedId);
    expect(event.envelope.payload).toMatchObject({ reason: { platformCode: null, message: 'Invalid or expired token.' } });
    expect((await h.crm.get(`/v1/accounts/${v2RevokedId}`)).data).toMatchObject({ status: 'needs_reconnect' });
    // Refused before the caller is known, so the log cannot say whose; no other post here meets a 401.
    expect((await h.platformRequests('/2/tweets')).filter((r) => r.status === 401)).toHaveLength(1);
  });
});

describe('the app-level bearer token', () => {
  it('is cached, and fetched again when the platform answers 401 code 89', async () => {
    expect((await h.crm.get('/v1/webhooks')).status).toBe(200);
    expect((await h.crm.get('/v1/subscriptions')).status).toBe(200);
    const fetched = await requestsTo('/oauth2/token');
    expect((await h.crm.get('/v1/subscriptions/count')).status).toBe(200);
    expect(await requestsTo('/oauth2/token')).toBe(fetched); // cached

    await h.sim.post('/control/platform/app-tokens/invalidate');
    const res = await h.crm.get('/v1/subscriptions/count');
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ all: 1, directMessages: 1 });
    expect(await requestsTo('/oauth2/token')).toBe(fetched + 1);
    expect((await h.platformRequests('/2/account_activity/subscriptions/count')).map((r) => r.status)).toEqual([200, 401, 200]);
  });

  it('reports 403 code 99 (refused app credentials) as a configuration error', async () => {
    const client = new PlatformClient({ baseUrl: h.simulatorUrl, consumerKey: h.secrets.consumerKey, consumerSecret: 'not-the-secret', timeoutMs: 1000, logger: h.logger });
    await expect(client.call({ method: 'GET', path: '/2/webhooks' }, { kind: 'app' })).rejects.toThrow(ConfigurationError);
    await expect(client.appToken()).rejects.toThrow('the platform refused the app credentials (403, code 99): check SOCIAL_CONSUMER_KEY and SOCIAL_CONSUMER_SECRET');
  });

  it('says when the platform cannot be reached at all (safe to try again)', async () => {
    const client = new PlatformClient({ baseUrl: 'http://127.0.0.1:9', consumerKey: 'k', consumerSecret: 's', timeoutMs: 1000, logger: h.logger });
    await expect(client.call({ method: 'GET', path: '/1.1/account/settings.json' }, { kind: 'user', token: { key: 'a', secret: 'b' } })).rejects.toThrow(PlatformNotReached);
  });
});
