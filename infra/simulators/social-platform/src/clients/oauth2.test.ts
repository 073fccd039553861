/**
 * OAuth 2.0 with PKCE and the v2 action routes, driven by twitter-api-v2 unchanged (see
 * tls-simulator.ts): the consent page on the platform's web host, the code exchange, rotating
 * refresh tokens, scopes, the per-user DM write quota, and the same deliveries as v1.1 actions.
 */
import axios from 'axios';
import { TwitterApi } from 'twitter-api-v2';
import { startTlsSimulator, type TlsSimulator } from './tls-simulator';

const CLIENT_ID = 'oauth2-client-id';
const CLIENT_SECRET = 'oauth2-client-secret';
const REDIRECT = 'http://127.0.0.1:9/connected';
const SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'dm.read', 'dm.write', 'like.write', 'follows.write', 'block.write', 'mute.write', 'offline.access'];
let simulator: TlsSimulator;
let browser: ReturnType<typeof axios.create>;
let app: TwitterApi;

beforeAll(async () => {
  simulator = await startTlsSimulator({ SOCIAL_OAUTH2_CLIENT_ID: CLIENT_ID, SOCIAL_OAUTH2_CLIENT_SECRET: CLIENT_SECRET, DM_WRITE_LIMIT_PER_15_MINUTES: '3' });
  browser = axios.create({ httpsAgent: simulator.agent, maxRedirects: 0, validateStatus: () => true });
  app = new TwitterApi({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, { httpAgent: simulator.agent });
});

afterAll(async () => {
  await simulator.close();
});

/** What a person does on the consent page: approve as `user`; the code comes back on the redirect. */
async function consent(url: string, user: string, decision = 'approve'): Promise<URL> {
  const page = await browser.get(url);
  expect(page.status).toBe(200);
  const form = new URLSearchParams({ ...Object.fromEntries(new URL(url).searchParams), user, decision });
  const answer = await browser.post('https://x.com/i/oauth2/authorize', form);
  expect(answer.status).toBe(302);
  return new URL(answer.headers.location as string);
}

async function connect(user: string, scope = SCOPES) {
  const link = app.generateOAuth2AuthLink(REDIRECT, { scope });
  const back = await consent(link.url, user);
  expect(back.searchParams.get('state')).toBe(link.state);
  return app.loginWithOAuth2({ code: back.searchParams.get('code')!, codeVerifier: link.codeVerifier, redirectUri: REDIRECT });
}

describe('OAuth 2.0 with PKCE', () => {
  it('connects a user, who reads who they are; the token lasts two hours and carries a refresh token', async () => {
    const { client, expiresIn, refreshToken, scope } = await connect('@pkce_acme');
    expect(expiresIn).toBe(7200);
    expect(refreshToken).toEqual(expect.any(String));
    expect(scope).toEqual(SCOPES);
    expect((await client.v2.me()).data.username).toBe('pkce_acme');
  });

  it('refuses a code exchanged more than 30 seconds after the consent, as the platform documents', async () => {
    const link = app.generateOAuth2AuthLink(REDIRECT, { scope: ['tweet.read', 'users.read'] });
    const code = (await consent(link.url, '@pkce_slow')).searchParams.get('code')!;
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 31_000);
    try {
      await expect(app.loginWithOAuth2({ code, codeVerifier: link.codeVerifier, redirectUri: REDIRECT })).rejects.toMatchObject({ code: 400, data: { error: 'invalid_grant' } });
    } finally {
      clock.mockRestore();
    }
  });

  it('refuses a code with the wrong verifier, a code used twice, and a cancelled consent', async () => {
    const link = app.generateOAuth2AuthLink(REDIRECT, { scope: SCOPES });
    const code = (await consent(link.url, '@pkce_other')).searchParams.get('code')!;
    await expect(app.loginWithOAuth2({ code, codeVerifier: `${link.codeVerifier}x`, redirectUri: REDIRECT })).rejects.toMatchObject({ code: 400, data: { error: 'invalid_grant' } });
    await expect(app.loginWithOAuth2({ code, codeVerifier: link.codeVerifier, redirectUri: REDIRECT })).rejects.toMatchObject({ code: 400 });
    const denied = await consent(app.generateOAuth2AuthLink(REDIRECT, { scope: SCOPES }).url, '@pkce_other', 'deny');
    expect(denied.searchParams.get('error')).toBe('access_denied');
  });

  it('rotates refresh tokens: the new pair works, the used refresh token is refused', async () => {
    const first = await connect('@pkce_rotate');
    const second = await app.refreshOAuth2Token(first.refreshToken!);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect((await second.client.v2.me()).data.username).toBe('pkce_rotate');
    await expect(app.refreshOAuth2Token(first.refreshToken!)).rejects.toMatchObject({ code: 400 });
    await app.revokeOAuth2Token(second.accessToken);
    await expect(second.client.v2.me()).rejects.toMatchObject({ code: 401 });
  });
});

describe('the v2 actions', () => {
  it('posts, replies, deletes, likes, reposts, follows, blocks and mutes, and undoes each', async () => {
    const { client } = await connect('@v2_agent');
    const { client: other } = await connect('@v2_customer');
    const me = (await client.v2.me()).data;
    const customer = (await other.v2.me()).data;
    const theirs = (await other.v2.tweet('my parcel is late')).data;
    const reply = (await client.v2.reply('sorry, looking into it', theirs.id)).data;
    expect((await client.v2.deleteTweet(reply.id)).data.deleted).toBe(true);
    expect((await client.v2.like(me.id, theirs.id)).data.liked).toBe(true);
    expect((await client.v2.unlike(me.id, theirs.id)).data.liked).toBe(false);
    expect((await client.v2.retweet(me.id, theirs.id)).data.retweeted).toBe(true);
    expect((await client.v2.unretweet(me.id, theirs.id)).data.retweeted).toBe(false);
    expect((await client.v2.follow(me.id, customer.id)).data.following).toBe(true);
    expect((await client.v2.unfollow(me.id, customer.id)).data.following).toBe(false);
    expect((await client.v2.mute(me.id, customer.id)).data.muting).toBe(true);
    expect((await client.v2.unmute(me.id, customer.id)).data.muting).toBe(false);
    expect((await client.v2.block(me.id, customer.id)).data.blocking).toBe(true);
    expect((await client.v2.unblock(me.id, customer.id)).data.blocking).toBe(false);
    await expect(client.v2.like(customer.id, theirs.id)).rejects.toMatchObject({ code: 403 });
  });

  it('sends DMs within the per-user quota, then answers 429 with the reset time', async () => {
    const { client } = await connect('@v2_dms');
    const customer = (await (await connect('@v2_dm_customer')).client.v2.me()).data;
    // The platform wraps the answer in `data` (the client's type declares it unwrapped).
    const send = async (text: string) => ((await client.v2.sendDmToParticipant(customer.id, { text })) as unknown as { data: { dm_event_id: string } }).data;
    for (let i = 0; i < 3; i += 1) expect((await send(`message ${i}`)).dm_event_id).toEqual(expect.any(String));
    const limited = await send('one too many').catch((error: { code: number; rateLimit?: { reset: number } }) => error);
    expect(limited).toMatchObject({ code: 429, rateLimit: { remaining: 0 } });
    expect((await client.v2.listDmEvents()).events.map((e) => (e as { text?: string }).text)).toEqual(expect.arrayContaining(['message 0', 'message 2']));
  });

  it('refuses an action the token has no scope for', async () => {
    const { client } = await connect('@v2_reader', ['tweet.read', 'users.read']);
    await expect(client.v2.tweet('not allowed')).rejects.toMatchObject({ code: 403 });
  });

  it('refuses the token on v1.1 routes, which take OAuth 1.0a user context only', async () => {
    const { client } = await connect('@v2_legacy');
    const me = await client.v2.me();
    await expect(client.v1.verifyCredentials()).rejects.toMatchObject({ code: 403, errors: [expect.objectContaining({ code: 220 })] });
    await expect(client.v1.tweet('through v1.1')).rejects.toMatchObject({ code: 403 });
    expect((await client.v2.user(me.data.id)).data.username).toBe('v2_legacy');
  });
});
