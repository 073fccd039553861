import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import axios from 'axios';
import { LOCAL_DEV } from '@crm/config';
import { closeServer, listen, portOf } from '@crm/http';
import { testLogger } from '@crm/testing';
import { createSimulatorApp } from '../app';
import { loadSimulatorConfig } from '../config';
import { hmacSha1, percentEncode, signatureBaseString } from './oauth1';

const KEY = 'sim-consumer-key';
const SECRET = 'sim-consumer-secret';
const http = axios.create({ validateStatus: () => true });
let server: Server;
let base: string;

beforeAll(async () => {
  const config = loadSimulatorConfig({ SOCIAL_CONSUMER_KEY: KEY, SOCIAL_CONSUMER_SECRET: SECRET, SOCIAL_ENV_NAME: 'test', WEBHOOK_URL: 'http://127.0.0.1:9/none' });
  server = await listen(createSimulatorApp({ config, logger: testLogger('sim') }), 0, '127.0.0.1');
  base = `http://127.0.0.1:${portOf(server)}`;
});

afterAll(async () => {
  await closeServer(server);
});

interface Signing {
  token?: { key: string; secret: string };
  timestamp?: number;
  nonce?: string;
  consumerSecret?: string;
}

/** An OAuth header made with the simulator's own primitives (checked against the published example below). */
function oauthHeader(method: string, url: string, params: [string, string][], signing: Signing = {}): string {
  const oauth: Record<string, string> = {
    oauth_consumer_key: KEY,
    oauth_nonce: signing.nonce ?? randomBytes(12).toString('hex'),
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: String(signing.timestamp ?? Math.floor(Date.now() / 1000)),
    oauth_version: '1.0',
    ...(signing.token ? { oauth_token: signing.token.key } : {}),
  };
  const target = new URL(url);
  const all: [string, string][] = [...Object.entries(oauth), ...target.searchParams, ...params];
  const signature = hmacSha1(signatureBaseString(method, `${target.origin}${target.pathname}`, all), signing.consumerSecret ?? SECRET, signing.token?.secret ?? '');
  return `OAuth ${Object.entries({ ...oauth, oauth_signature: signature })
    .map(([k, v]) => `${k}="${percentEncode(v)}"`)
    .join(', ')}`;
}

async function userToken(user: string) {
  const res = await http.post(`${base}/control/platform/tokens`, { user });
  return { key: res.data.oauthToken as string, secret: res.data.oauthTokenSecret as string };
}

async function lastRejection(path: string): Promise<string | undefined> {
  const res = await http.get(`${base}/control/platform/requests`, { params: { path } });
  return res.data.items[0]?.rejection;
}

describe('the simulated platform checks OAuth 1.0a signatures itself', () => {
  it.each([
    ['https://api.x.com/1.1/statuses/update.json', 'Ls93hJiZbQ3akF3HF3x1Bz8/zU4='],
    ['https://api.twitter.com/1.1/statuses/update.json', 'hCtSmYh+iHYCEqBWrE7C7hYmtUk='],
  ])('computes the published worked example at %s', (url, expected) => {
    const params: [string, string][] = [
      ['include_entities', 'true'],
      ['status', 'Hello Ladies + Gentlemen, a signed OAuth request!'],
      ['oauth_consumer_key', 'xvz1evFS4wEEPTGEFPHBog'],
      ['oauth_nonce', 'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg'],
      ['oauth_signature_method', 'HMAC-SHA1'],
      ['oauth_timestamp', '1318622958'],
      ['oauth_token', '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb'],
      ['oauth_version', '1.0'],
    ];
    const baseString = signatureBaseString('POST', url, params);
    expect(baseString).toContain('include_entities%3Dtrue%26oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog');
    expect(baseString).toContain('status%3DHello%2520Ladies%2520%252B%2520Gentlemen%252C%2520a%2520signed%2520OAuth%2520request%2521');
    expect(hmacSha1(baseString, 'kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw', 'LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE')).toBe(expected);
  });

  it('answers a correctly signed user-context call', async () => {
    const token = await userToken('@signer_ok');
    const url = `${base}/1.1/account/verify_credentials.json`;
    const res = await http.get(url, { headers: { authorization: oauthHeader('GET', url, [], { token }) } });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ screen_name: 'signer_ok', id_str: expect.stringMatching(/^[0-9]+$/) });
  });

  it('signs query and form parameters: a request altered after signing is refused (401, code 32)', async () => {
    const token = await userToken('@signer_tamper');
    const url = `${base}/1.1/statuses/update.json`;
    const header = oauthHeader('POST', url, [['status', 'signed text']], { token });
    const res = await http.post(url, 'status=other%20text', { headers: { authorization: header, 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(401);
    expect(res.data).toEqual({ errors: [{ code: 32, message: 'Could not authenticate you.' }] });
    expect(await lastRejection('/1.1/statuses/update.json')).toBe('signature does not match the request');
  });

  it('refuses a signature made with the wrong consumer secret', async () => {
    const token = await userToken('@signer_wrong');
    const url = `${base}/1.1/account/verify_credentials.json`;
    const res = await http.get(url, { headers: { authorization: oauthHeader('GET', url, [], { token, consumerSecret: 'not-the-secret' }) } });
    expect(res.status).toBe(401);
    expect(res.data.errors[0].code).toBe(32);
  });

  it('refuses a stale timestamp (401, code 135)', async () => {
    const token = await userToken('@signer_stale');
    const url = `${base}/1.1/account/verify_credentials.json`;
    const res = await http.get(url, { headers: { authorization: oauthHeader('GET', url, [], { token, timestamp: Math.floor(Date.now() / 1000) - 3600 }) } });
    expect(res.status).toBe(401);
    expect(res.data).toEqual({ errors: [{ code: 135, message: 'Timestamp out of bounds.' }] });
  });

  it('refuses a reused nonce: the same signed request twice', async () => {
    const token = await userToken('@signer_replay');
    const url = `${base}/1.1/account/verify_credentials.json`;
    const header = oauthHeader('GET', url, [], { token });
    expect((await http.get(url, { headers: { authorization: header } })).status).toBe(200);
    const replay = await http.get(url, { headers: { authorization: header } });
    expect(replay.status).toBe(401);
    expect(replay.data.errors[0].code).toBe(32);
    expect(await lastRejection('/1.1/account/verify_credentials.json')).toBe('nonce already used');
  });

  it('answers 401 code 89 for an unknown or revoked token', async () => {
    const token = await userToken('@signer_revoked');
    await http.post(`${base}/control/platform/tokens/revoke`, { user: '@signer_revoked' });
    const url = `${base}/1.1/account/verify_credentials.json`;
    const res = await http.get(url, { headers: { authorization: oauthHeader('GET', url, [], { token }) } });
    expect(res.status).toBe(401);
    expect(res.data).toEqual({ errors: [{ code: 89, message: 'Invalid or expired token.' }] });
  });

  it('insists on the credential kind each route needs (user context vs bearer)', async () => {
    const token = await userToken('@signer_kind');
    const list = `${base}/2/webhooks`;
    const asUser = await http.get(list, { headers: { authorization: oauthHeader('GET', list, [], { token }) } });
    expect(asUser.status).toBe(403);
    expect(asUser.data).toMatchObject({ title: 'Forbidden', status: 403 });

    const basic = `Basic ${Buffer.from(`${KEY}:${SECRET}`).toString('base64')}`;
    const issued = await http.post(`${base}/oauth2/token`, 'grant_type=client_credentials', { headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' } });
    expect(issued.data).toMatchObject({ token_type: 'bearer', access_token: expect.any(String) });
    const asApp = await http.get(`${base}/1.1/account/verify_credentials.json`, { headers: { authorization: `Bearer ${issued.data.access_token}` } });
    expect(asApp.status).toBe(403);
    expect(asApp.data.errors[0].code).toBe(220);
    expect((await http.get(list, { headers: { authorization: `Bearer ${issued.data.access_token}` } })).status).toBe(200);
  });

  it("takes only the platform's webhook URLs by default: HTTPS without a port", async () => {
    const basic = `Basic ${Buffer.from(`${KEY}:${SECRET}`).toString('base64')}`;
    const token = (await http.post(`${base}/oauth2/token`, 'grant_type=client_credentials', { headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' } })).data.access_token as string;
    for (const url of ['http://hooks.example.com/webhooks', 'https://hooks.example.com:8443/webhooks']) {
      const refused = await http.post(`${base}/2/webhooks`, { url }, { headers: { authorization: `Bearer ${token}` } });
      expect(refused.status).toBe(400);
      expect(refused.data).toMatchObject({ type: 'https://api.x.com/2/problems/invalid-request', detail: 'url must be an HTTPS URL without a port' });
    }
  });

  it('refuses the app token for wrong app credentials (403, code 99) and unsigned calls (400, code 215)', async () => {
    const basic = `Basic ${Buffer.from(`${KEY}:wrong`).toString('base64')}`;
    const res = await http.post(`${base}/oauth2/token`, 'grant_type=client_credentials', { headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(403);
    expect(res.data.errors[0].code).toBe(99);
    expect((await http.get(`${base}/1.1/account/verify_credentials.json`)).data.errors[0].code).toBe(215);
  });

  it('answers 429 with x-rate-limit-reset when a fault asks for it', async () => {
    const token = await userToken('@signer_limited');
    await http.post(`${base}/control/platform/faults`, { path: '/1.1/account/settings.json', status: 429, resetInSeconds: 120 });
    const url = `${base}/1.1/account/settings.json`;
    const res = await http.get(url, { headers: { authorization: oauthHeader('GET', url, [], { token }) } });
    expect(res.status).toBe(429);
    expect(res.data.errors[0].code).toBe(88);
    expect(Number(res.headers['x-rate-limit-reset'])).toBeGreaterThan(Date.now() / 1000 + 60);
    const again = await http.get(url, { headers: { authorization: oauthHeader('GET', url, [], { token }) } });
    expect(again.status).toBe(200);
  });

  it('shows a clear page for an authorize link whose request token is unknown', async () => {
    const res = await http.get(`${base}/oauth/authorize`, { params: { oauth_token: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.data).toContain('This page is no longer valid');
  });

  it("sends a browser back to the app's callback with a page, never a cross-origin redirect its consent page's form-action would stop", async () => {
    const callback = 'http://127.0.0.1:9/v1/oauth2/callback';
    const query = { response_type: 'code', client_id: LOCAL_DEV.oauth2ClientId, redirect_uri: callback, scope: 'users.read', state: 's1', code_challenge: 'c'.repeat(43), code_challenge_method: 'plain' };
    const consent = await http.get(`${base}/i/oauth2/authorize`, { params: query });
    expect(consent.status).toBe(200);
    expect(consent.headers['content-security-policy']).toMatch(/form-action 'self'(;|$)/);
    const form = new URLSearchParams({ ...query, user: '@page_pat', decision: 'approve' }).toString();
    const asBrowser = await http.post(`${base}/i/oauth2/authorize`, form, { maxRedirects: 0, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(asBrowser.status).toBe(200);
    expect(asBrowser.headers['content-security-policy']).toMatch(/form-action 'self'(;|$)/);
    const refresh = /<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(asBrowser.data as string);
    const back = new URL(refresh![1]!.replace(/&#38;/g, '&'));
    expect(`${back.origin}${back.pathname}`).toBe(callback);
    expect(back.searchParams.get('state')).toBe('s1');
    expect(back.searchParams.get('code')).toEqual(expect.any(String));
    const asClient = await http.post(`${base}/i/oauth2/authorize`, form, { maxRedirects: 0, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: '*/*' } });
    expect(asClient.status).toBe(302);
    expect(asClient.headers.location).toMatch(/^http:\/\/127\.0\.0\.1:9\/v1\/oauth2\/callback\?state=s1&code=/);
  });
});

describe('the v2 routes auth acts through (OAuth 1.0a user context, JSON bodies)', () => {
  /** A signed v2 call: OAuth 1.0a signs the URL and query only, never a JSON body. */
  async function v2(token: { key: string; secret: string }, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) {
    const url = `${base}${path}`;
    return http.request({ method, url, data: body, headers: { authorization: oauthHeader(method, url, [], { token }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) } });
  }
  async function v1Lists(token: { key: string; secret: string }) {
    const url = `${base}/1.1/lists/list.json`;
    return (await http.get(url, { headers: { authorization: oauthHeader('GET', url, [], { token }) } })).data as { id_str: string; name: string; mode: string; description: string; member_count: number }[];
  }

  it('looks users up by username; one no account can have is refused as the document says (400)', async () => {
    const token = await userToken('@v2_lookup');
    const known = (await http.post(`${base}/control/platform/users`, { screenName: 'v2_known', name: 'Known K' })).data.id_str as string;
    const found = await v2(token, 'GET', '/2/users/by/username/v2_known');
    expect(found.status).toBe(200);
    expect(found.data).toEqual({ data: { id: known, name: 'Known K', username: 'v2_known' } });
    const malformed = await v2(token, 'GET', '/2/users/by/username/not-a-name');
    expect(malformed.status).toBe(400);
    expect(malformed.data).toMatchObject({ type: 'https://api.x.com/2/problems/invalid-request', detail: 'The `username` query parameter value [not-a-name] does not match ^[A-Za-z0-9_]{1,15}$' });
  });

  it('creates, updates, fills and deletes lists with the same state as the v1.1 routes', async () => {
    const token = await userToken('@v2_lister');
    const member = (await http.post(`${base}/control/platform/users`, { screenName: 'v2_member' })).data.id_str as string;
    const created = await v2(token, 'POST', '/2/lists', { name: 'VIPs', description: 'first', private: true });
    expect(created.status).toBe(201);
    const id = created.data.data.id as string;
    expect(created.data).toEqual({ data: { id: expect.stringMatching(/^[0-9]+$/), name: 'VIPs' } });
    expect(await v1Lists(token)).toEqual([expect.objectContaining({ id_str: id, name: 'VIPs', mode: 'private', description: 'first', member_count: 0 })]);

    expect((await v2(token, 'PUT', `/2/lists/${id}`, { name: 'Top', private: false })).data).toEqual({ data: { updated: true } });
    expect((await v2(token, 'POST', `/2/lists/${id}/members`, { user_id: member })).data).toEqual({ data: { is_member: true } });
    expect(await v1Lists(token)).toEqual([expect.objectContaining({ id_str: id, name: 'Top', mode: 'public', description: 'first', member_count: 1 })]);
    expect((await v2(token, 'DELETE', `/2/lists/${id}/members/${member}`)).data).toEqual({ data: { is_member: false } });
    expect(await v1Lists(token)).toEqual([expect.objectContaining({ member_count: 0 })]);

    const other = await userToken('@v2_not_owner');
    const refused = await v2(other, 'PUT', `/2/lists/${id}`, { name: 'Mine now' });
    expect(refused.status).toBe(403);
    expect(refused.data).toMatchObject({ title: 'Forbidden', type: 'about:blank', status: 403 });

    expect((await v2(token, 'DELETE', `/2/lists/${id}`)).data).toEqual({ data: { deleted: true } });
    expect(await v1Lists(token)).toEqual([]);
    const gone = await v2(token, 'DELETE', `/2/lists/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.data).toMatchObject({ title: 'Not Found Error', status: 404 });
    const bad = await v2(token, 'POST', '/2/lists', { name: '' });
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({ title: 'Invalid Request', type: 'https://api.x.com/2/problems/invalid-request', detail: 'name must be 1 to 25 characters' });
  });

  it("answers errors as problem details in v2's words: duplicates, another user's post, a refused token", async () => {
    const token = await userToken('@v2_poster');
    const first = await v2(token, 'POST', '/2/tweets', { text: 'only once' });
    expect(first.status).toBe(201);
    const duplicate = await v2(token, 'POST', '/2/tweets', { text: 'only once' });
    expect(duplicate.status).toBe(403);
    expect(duplicate.data).toEqual({ title: 'Forbidden', detail: 'You are not allowed to create a Tweet with duplicate content.', type: 'about:blank', status: 403 });

    const other = await userToken('@v2_other');
    const notYours = await v2(other, 'DELETE', `/2/tweets/${first.data.data.id}`);
    expect(notYours.status).toBe(403);
    expect(notYours.data.detail).toBe('You are not allowed to delete this Tweet.');

    const otherId = (await http.post(`${base}/control/platform/users`, { screenName: 'v2_other' })).data.id_str as string;
    const reposted = await v2(other, 'POST', `/2/users/${otherId}/retweets`, { tweet_id: first.data.data.id });
    // The repost's own id is in `rest_id`, as the platform's reference has it.
    expect(reposted.data).toEqual({ data: { rest_id: expect.stringMatching(/^[0-9]+$/), retweeted: true } });
    expect(reposted.data.data.rest_id).not.toBe(first.data.data.id);

    await http.post(`${base}/control/platform/tokens/revoke`, { user: '@v2_other' });
    const revoked = await v2(other, 'GET', '/2/users/me');
    expect(revoked.status).toBe(401);
    expect(revoked.data).toEqual({ title: 'Unauthorized', detail: 'Invalid or expired token.', type: 'about:blank', status: 401 });
  });
});

describe('the v2 read routes (the state the v1.1 routes show, in v2 shapes)', () => {
  type Token = { key: string; secret: string };
  /** A signed call; the query is in `path` (OAuth 1.0a signs it). */
  async function call(token: Token, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) {
    const url = `${base}${path}`;
    return http.request({ method, url, data: body, headers: { authorization: oauthHeader(method, url, [], { token }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) } });
  }
  const get = async (token: Token, path: string) => (await call(token, 'GET', path)).data;
  async function account(screenName: string, fields: Record<string, unknown> = {}) {
    const id = (await http.post(`${base}/control/platform/users`, { screenName, ...fields })).data.id_str as string;
    return { id, token: await userToken(`@${screenName}`) };
  }
  const postAs = async (token: Token, text: string, inReplyTo?: string) =>
    (await call(token, 'POST', '/2/tweets', { text, ...(inReplyTo ? { reply: { in_reply_to_tweet_id: inReplyTo } } : {}) })).data.data.id as string;
  const USER_FIELDS = 'user.fields=created_at,description,location,profile_image_url,protected,public_metrics,url,verified';

  it('answers users with the fields asked for, the same values the v1.1 user object has', async () => {
    const me = await account('v2r_me', { name: 'Me Myself' });
    expect(await get(me.token, '/2/users/me')).toEqual({ data: { id: me.id, name: 'Me Myself', username: 'v2r_me' } });
    const v1 = await get(me.token, '/1.1/users/show.json?screen_name=v2r_me');
    const expected = {
      id: me.id,
      name: 'Me Myself',
      username: 'v2r_me',
      created_at: new Date(Date.parse(v1.created_at)).toISOString(),
      description: '',
      protected: false,
      verified: v1.verified,
      url: '',
      profile_image_url: v1.profile_image_url_https,
      public_metrics: { followers_count: v1.followers_count, following_count: v1.friends_count, tweet_count: v1.statuses_count, listed_count: 0 },
    };
    expect(await get(me.token, `/2/users/me?${USER_FIELDS}`)).toEqual({ data: expected });
    expect(await get(me.token, `/2/users/${me.id}?${USER_FIELDS}`)).toEqual({ data: expected });
    expect(await get(me.token, `/2/users/by/username/v2r_me?user.fields=public_metrics`)).toEqual({ data: { id: me.id, name: 'Me Myself', username: 'v2r_me', public_metrics: expected.public_metrics } });
    expect((await call(me.token, 'GET', '/2/users/12x')).status).toBe(400);
  });

  it("pages a user's posts newest first with tweet.fields and expansions; a protected account not followed is an Authorization Error", async () => {
    const author = await account('v2r_author');
    const reader = await account('v2r_reader');
    const first = await postAs(reader.token, 'a question for @v2r_author');
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) ids.unshift(await postAs(author.token, `post ${i}`));
    const reply = await postAs(author.token, '@v2r_reader an answer', first);
    ids.unshift(reply);

    const page1 = await get(reader.token, `/2/users/${author.id}/tweets?max_results=5&tweet.fields=author_id,created_at,in_reply_to_user_id,referenced_tweets,public_metrics,entities&expansions=author_id,referenced_tweets.id,referenced_tweets.id.author_id,in_reply_to_user_id`);
    expect(page1.data.map((p: { id: string }) => p.id)).toEqual(ids.slice(0, 5));
    expect(page1.meta).toEqual({ result_count: 5, newest_id: ids[0], oldest_id: ids[4], next_token: expect.stringMatching(/^[0-9a-z]+$/) });
    expect(page1.data[0]).toEqual({
      id: reply,
      text: '@v2r_reader an answer',
      edit_history_tweet_ids: [reply],
      author_id: author.id,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/),
      in_reply_to_user_id: reader.id,
      referenced_tweets: [{ type: 'replied_to', id: first }],
      entities: { mentions: [{ start: 0, end: 11, username: 'v2r_reader', id: reader.id }] },
      public_metrics: { retweet_count: 0, reply_count: 0, like_count: 0, quote_count: 0, bookmark_count: 0, impression_count: 0 },
    });
    expect(page1.data[1]).toEqual({ id: ids[1], text: 'post 5', edit_history_tweet_ids: [ids[1]], author_id: author.id, created_at: expect.any(String), public_metrics: expect.any(Object) });
    expect(page1.includes.users.map((u: { username: string }) => u.username).sort()).toEqual(['v2r_author', 'v2r_reader']);
    expect(page1.includes.tweets).toEqual([expect.objectContaining({ id: first, text: 'a question for @v2r_author', author_id: reader.id })]);

    const page2 = await get(reader.token, `/2/users/${author.id}/tweets?max_results=5&pagination_token=${page1.meta.next_token}`);
    expect(page2.data.map((p: { id: string }) => p.id)).toEqual(ids.slice(5));
    expect(page2.meta).toEqual({ result_count: 2, newest_id: ids[5], oldest_id: ids[6] });
    expect(page2.data[0]).toEqual({ id: ids[5], text: 'post 1', edit_history_tweet_ids: [ids[5]] });
    const window = await get(reader.token, `/2/users/${author.id}/tweets?since_id=${ids[4]}&until_id=${ids[1]}`);
    expect(window.data.map((p: { id: string }) => p.id)).toEqual(ids.slice(2, 4));

    const tooFew = await call(reader.token, 'GET', `/2/users/${author.id}/tweets?max_results=3`);
    expect(tooFew.status).toBe(400);
    expect(tooFew.data).toMatchObject({ title: 'Invalid Request', detail: 'The `max_results` query parameter value [3] is not between 5 and 100' });

    const hidden = await account('v2r_hidden', { protected: true });
    await postAs(hidden.token, 'followers only');
    expect(await get(reader.token, `/2/users/${hidden.id}/tweets`)).toEqual({
      errors: [expect.objectContaining({ title: 'Authorization Error', resource_id: hidden.id, type: 'https://api.x.com/2/problems/not-authorized-for-resource' })],
    });
    expect((await get(hidden.token, `/2/users/${hidden.id}/tweets`)).meta.result_count).toBe(1);
    // No posts: `data` is left out.
    expect(await get(reader.token, `/2/users/${(await account('v2r_silent')).id}/tweets`)).toEqual({ meta: { result_count: 0 } });
  });

  it('answers the home timeline, followed accounts and reposts with the state the v1.1 routes share', async () => {
    const me = await account('v2r_home');
    const friend = await account('v2r_friend');
    const stranger = await account('v2r_stranger');
    for (const target of [friend, stranger]) await call(me.token, 'POST', `/2/users/${me.id}/following`, { target_user_id: target.id });
    const original = await postAs(friend.token, 'worth sharing');
    const repost = (await call(me.token, 'POST', `/2/users/${me.id}/retweets`, { tweet_id: original })).data.data.rest_id as string;
    await postAs((await account('v2r_unfollowed')).token, 'not on my timeline');

    const home = await get(me.token, `/2/users/${me.id}/timelines/reverse_chronological?tweet.fields=referenced_tweets,public_metrics&expansions=referenced_tweets.id.author_id`);
    expect(home.data).toEqual([
      { id: repost, text: 'RT @v2r_friend: worth sharing', edit_history_tweet_ids: [repost], referenced_tweets: [{ type: 'retweeted', id: original }], public_metrics: expect.any(Object) },
      expect.objectContaining({ id: original, public_metrics: { retweet_count: 1, reply_count: 0, like_count: 0, quote_count: 0, bookmark_count: 0, impression_count: 0 } }),
    ]);
    expect(home.includes).toEqual({ users: [{ id: friend.id, name: 'V2r_friend', username: 'v2r_friend' }] });
    const v1Home = await get(me.token, '/1.1/statuses/home_timeline.json');
    expect(v1Home.map((s: { id_str: string; text: string }) => [s.id_str, s.text])).toEqual(home.data.map((p: { id: string; text: string }) => [p.id, p.text]));
    expect((await call(friend.token, 'GET', `/2/users/${me.id}/timelines/reverse_chronological`)).status).toBe(403);

    const following = await get(me.token, `/2/users/${me.id}/following?max_results=1`);
    expect(following).toEqual({ data: [{ id: friend.id, name: 'V2r_friend', username: 'v2r_friend' }], meta: { result_count: 1, next_token: expect.any(String) } });
    const next = await get(me.token, `/2/users/${me.id}/following?max_results=1&pagination_token=${following.meta.next_token}`);
    expect(next).toEqual({ data: [{ id: stranger.id, name: 'V2r_stranger', username: 'v2r_stranger' }], meta: { result_count: 1 } });
    expect((await call(me.token, 'GET', `/2/users/${me.id}/following?pagination_token=NOT*VALID`)).status).toBe(400);
  });

  it("answers a user's owned lists and a list's posts; a private list of another user is not found", async () => {
    const owner = await account('v2r_lister');
    const member = await account('v2r_listed');
    const listId = (await call(owner.token, 'POST', '/2/lists', { name: 'Key Clients', description: 'the big ones', private: true })).data.data.id as string;
    await call(owner.token, 'POST', `/2/lists/${listId}/members`, { user_id: member.id });
    const posted = await postAs(member.token, 'listed post');

    const lists = await get(owner.token, `/2/users/${owner.id}/owned_lists?list.fields=created_at,description,follower_count,member_count,private,owner_id&expansions=owner_id`);
    expect(lists).toEqual({
      data: [{ id: listId, name: 'Key Clients', created_at: expect.any(String), description: 'the big ones', follower_count: 0, member_count: 1, private: true, owner_id: owner.id }],
      includes: { users: [{ id: owner.id, name: 'V2r_lister', username: 'v2r_lister' }] },
      meta: { result_count: 1 },
    });
    expect(await get(member.token, `/2/users/${owner.id}/owned_lists`)).toEqual({ meta: { result_count: 0 } });
    expect((await get(owner.token, `/2/lists/${listId}/tweets`)).data).toEqual([{ id: posted, text: 'listed post', edit_history_tweet_ids: [posted] }]);
    expect(await get(member.token, `/2/lists/${listId}/tweets`)).toEqual({ errors: [expect.objectContaining({ title: 'Not Found Error', resource_type: 'list', resource_id: listId })] });
  });

  it("follows and unfollows a list; a user's followed lists are v1.1's subscriptions", async () => {
    const owner = await account('v2r_curator');
    const follower = await account('v2r_follower');
    const listId = (await call(owner.token, 'POST', '/2/lists', { name: 'Shipping News' })).data.data.id as string;
    const hidden = (await call(owner.token, 'POST', '/2/lists', { name: 'Private One', private: true })).data.data.id as string;
    expect((await call(follower.token, 'POST', `/2/users/${follower.id}/followed_lists`, { list_id: listId })).data).toEqual({ data: { following: true } });
    expect((await call(follower.token, 'POST', `/2/users/${follower.id}/followed_lists`, { list_id: hidden })).status).toBe(404);
    expect((await call(follower.token, 'POST', `/2/users/${owner.id}/followed_lists`, { list_id: listId })).status).toBe(403);
    expect(await get(follower.token, `/2/users/${follower.id}/followed_lists`)).toEqual({ data: [{ id: listId, name: 'Shipping News' }], meta: { result_count: 1 } });
    expect((await get(follower.token, '/1.1/lists/subscriptions.json')).lists.map((list: { id_str: string }) => list.id_str)).toEqual([listId]);
    expect((await call(follower.token, 'DELETE', `/2/users/${follower.id}/followed_lists/${listId}`)).data).toEqual({ data: { following: false } });
    expect(await get(follower.token, `/2/users/${follower.id}/followed_lists`)).toEqual({ meta: { result_count: 0 } });
  });

  it('answers DM events newest first, paged, with the fields asked for; one by id; one not visible is not found', async () => {
    const me = await account('v2r_dm_me');
    const other = await account('v2r_dm_other');
    const sent: string[] = [];
    for (const text of ['one', 'two', 'three']) sent.unshift((await call(me.token, 'POST', `/2/dm_conversations/with/${other.id}/messages`, { text })).data.data.dm_event_id);
    const conversation = BigInt(me.id) < BigInt(other.id) ? `${me.id}-${other.id}` : `${other.id}-${me.id}`;

    const page = await get(other.token, '/2/dm_events?max_results=2&event_types=MessageCreate&dm_event.fields=id,event_type,text,sender_id,dm_conversation_id,created_at&expansions=sender_id');
    expect(page).toEqual({
      data: [
        { id: sent[0], event_type: 'MessageCreate', text: 'three', sender_id: me.id, dm_conversation_id: conversation, created_at: expect.any(String) },
        expect.objectContaining({ id: sent[1], text: 'two' }),
      ],
      includes: { users: [{ id: me.id, name: 'V2r_dm_me', username: 'v2r_dm_me' }] },
      meta: { result_count: 2, next_token: expect.any(String) },
    });
    expect(await get(other.token, `/2/dm_events?max_results=2&pagination_token=${page.meta.next_token}`)).toEqual({ data: [{ id: sent[2], event_type: 'MessageCreate', text: 'one' }], meta: { result_count: 1 } });
    expect(await get(me.token, `/2/dm_events/${sent[1]}?dm_event.fields=sender_id`)).toEqual({ data: { id: sent[1], event_type: 'MessageCreate', text: 'two', sender_id: me.id } });
    const stranger = await account('v2r_dm_stranger');
    expect(await get(stranger.token, `/2/dm_events/${sent[1]}`)).toEqual({ errors: [expect.objectContaining({ title: 'Not Found Error', resource_type: 'dm_event', resource_id: sent[1] })] });
  });

  it('searches recent posts as the v1.1 standard search does, 10 to 100 a page', async () => {
    const author = await account('v2r_searched');
    const found = [await postAs(author.token, 'my zebraparcel is late'), await postAs(author.token, 'zebraparcel still late')].reverse();
    await postAs(author.token, 'nothing to see');
    const token = (await account('v2r_searcher')).token;
    const answer = await get(token, '/2/tweets/search/recent?query=zebraparcel%20late&max_results=10&tweet.fields=author_id&expansions=author_id');
    expect(answer.data).toEqual([expect.objectContaining({ id: found[0], author_id: author.id }), expect.objectContaining({ id: found[1] })]);
    expect(answer.includes.users).toEqual([{ id: author.id, name: 'V2r_searched', username: 'v2r_searched' }]);
    expect(answer.meta).toEqual({ result_count: 2, newest_id: found[0], oldest_id: found[1] });
    const v1 = await get(token, '/1.1/search/tweets.json?q=zebraparcel%20late');
    expect(v1.statuses.map((s: { id_str: string }) => s.id_str)).toEqual(found);
    expect((await get(token, `/2/tweets/search/recent?query=zebraparcel&since_id=${found[1]}`)).data.map((p: { id: string }) => p.id)).toEqual([found[0]]);
    expect((await call(token, 'GET', '/2/tweets/search/recent?query=zebraparcel&max_results=5')).status).toBe(400);
    expect((await call(token, 'GET', '/2/tweets/search/recent')).data).toMatchObject({ title: 'Invalid Request', detail: 'The `query` query parameter can not be empty' });
  });
});
