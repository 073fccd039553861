/**
 * Connecting and removing accounts: every way an OAuth callback can go wrong stores
 * nothing; imported token pairs are checked first; credentials are sealed at rest, never
 * shown in full, and re-sealed by a key rotation; the CRM's routes need its bearer token.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import express from 'express';
import { withTransaction, type PoolClient } from '@crm/db';
import { closeServer, listen, portOf } from '@crm/http';
import { SecretBox } from '@crm/secrets';
import { browserSession, testLogger } from '@crm/testing';
import { AccountStore } from './adapters/accounts';
import type { AuthEvents } from './adapters/events';
import { Keyring } from './adapters/keyring';
import { PlatformClient } from './adapters/platform/client';
import { runCli } from './cli-commands';
import { readConfig } from './config';
import { AccountService, ConnectionFailed } from './operations/accounts';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
let browser = browserSession();

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_accounts' });
});

afterAll(async () => {
  await h?.stop();
});

const accountCount = async () => (await h.auth.pool.query('SELECT count(*)::int AS n FROM accounts')).rows[0].n as number;

/** Starts a connection as the CRM; returns the one-time start link it gets for the agent's browser. */
async function startConnection(): Promise<string> {
  const started = await h.crm.post('/v1/connections');
  expect(started.status).toBe(201);
  expect(started.data).toEqual({ authorizeUrl: expect.stringMatching(/\/v1\/oauth\/start\?link=/), expiresAt: expect.any(String) });
  return started.data.authorizeUrl as string;
}

/** Opens a start link in `browser`; returns the platform's authorize page it was sent to. */
async function openStartLink(link: string): Promise<URL> {
  const opened = await browser.get(link);
  expect(opened.status).toBe(303);
  expect(opened.headers['set-cookie']?.[0]).toMatch(/^oauth_binding_[0-9a-f]{16}=.+; Max-Age=900; Path=\/v1\/oauth; HttpOnly; SameSite=Lax$/);
  return new URL(String(opened.headers.location));
}

/** Starts a connection, opens its link and submits the authorize page; returns where the platform sends the browser. */
async function authorize(decision: 'approve' | 'deny', user = '@callback_cat'): Promise<string> {
  const token = (await openStartLink(await startConnection())).searchParams.get('oauth_token')!;
  const answer = await browser.post(`${h.simulatorUrl}/oauth/authorize`, new URLSearchParams({ oauth_token: token, user, decision }).toString(), {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(answer.status).toBe(302);
  return String(answer.headers.location);
}

describe('the OAuth callback', () => {
  it('shows a clear page and stores nothing when the user cancels; the cancelled request cannot be used afterwards', async () => {
    const callback = await authorize('deny');
    const denied = new URL(callback).searchParams.get('denied');
    expect(denied).toBeTruthy();
    const res = await browser.get(callback);
    expect(res.status).toBe(403);
    expect(res.data).toContain('Connection cancelled');
    const reused = await browser.get(`${h.authUrl}/v1/oauth/callback`, { params: { oauth_token: denied, oauth_verifier: 'guessed' } });
    expect(reused.status).toBe(409);
    expect(await accountCount()).toBe(0);
  });

  it('refuses an unknown token and a link without its parameters', async () => {
    const unknown = await browser.get(`${h.authUrl}/v1/oauth/callback`, { params: { oauth_token: 'made-up', oauth_verifier: 'x' } });
    expect(unknown.status).toBe(400);
    expect(unknown.data).toContain('Unknown connection link');
    const bare = await browser.get(`${h.authUrl}/v1/oauth/callback`);
    expect(bare.status).toBe(400);
    expect(bare.data).toContain('Incomplete connection link');
    expect(await accountCount()).toBe(0);
  });

  it('refuses an expired request', async () => {
    const callback = await authorize('approve');
    await h.auth.pool.query(`UPDATE connection_requests SET expires_at = now() - interval '1 second'`);
    const res = await browser.get(callback);
    expect(res.status).toBe(410);
    expect(res.data).toContain('Connection link expired');
    expect(res.data).toContain('15 minutes');
    expect(await accountCount()).toBe(0);
  });

  it('connects once, redirects to the CRM, and refuses the same link again (replay)', async () => {
    const callback = await authorize('approve', '@replay_rob');
    const first = await browser.get(callback);
    expect(first.status).toBe(303);
    const done = new URL(String(first.headers.location));
    expect(done.pathname).toBe('/v1/oauth/connected');
    expect(done.searchParams.get('screenName')).toBe('replay_rob');
    expect((await browser.get(done.toString())).data).toContain('@replay_rob is connected');
    expect(await accountCount()).toBe(1);

    const replay = await browser.get(callback);
    expect(replay.status).toBe(409);
    expect(replay.data).toContain('already used');
    expect(await accountCount()).toBe(1);
    // Announced after the commit, by the outbox relay.
    await h.waitForPublished('account.connected');
    expect(h.published.filter((p) => p.routingKey === 'account.connected')).toHaveLength(1);
  });

  it('stores nothing when the platform refuses the exchange', async () => {
    const before = await accountCount();
    const callback = await authorize('approve', '@refused_ray');
    await h.sim.post('/control/platform/faults', { path: '/oauth/access_token', status: 401, code: 32, message: 'Could not authenticate you.' });
    const res = await browser.get(callback);
    expect(res.status).toBe(502);
    expect(res.data).toContain('Connection failed');
    expect(await accountCount()).toBe(before);
  });

  it('insists that the platform confirmed the callback (oauth_callback_confirmed=true)', async () => {
    const fake = express();
    fake.post('/oauth/request_token', (_req, res) => {
      res.type('application/x-www-form-urlencoded').send('oauth_token=t&oauth_token_secret=s&oauth_callback_confirmed=false');
    });
    const server: Server = await listen(fake, 0, '127.0.0.1');
    try {
      const platform = new PlatformClient({ baseUrl: `http://127.0.0.1:${portOf(server)}`, consumerKey: 'k', consumerSecret: 's', timeoutMs: 1000, logger: testLogger() });
      const service = new AccountService({ accounts: null!, requests: null!, platform, tokens: null!, events: null!, logger: testLogger(), unsubscribe: async () => false }, {
        envName: 'test',
        consumerKey: 'k',
        authorizeUrl: 'http://x/oauth/authorize',
        oauth2AuthorizeUrl: 'http://x/i/oauth2/authorize',
        oauth2ClientId: 'c',
        callbackUrl: () => 'http://auth/v1/oauth/callback',
        startUrl: () => 'http://auth/v1/oauth/start',
        connectionTtlSeconds: 900,
      });
      await expect(service.startConnection()).rejects.toThrow(ConnectionFailed);
    } finally {
      await closeServer(server);
    }
  });
});

describe('binding a connection to the browser that started it', () => {
  beforeEach(() => {
    browser = browserSession();
  });

  it('refuses a callback from another browser without using the request up; the starting browser still connects', async () => {
    const callback = await authorize('approve', '@bound_bea');
    const before = await accountCount();
    const stranger = browserSession();
    const hijack = await stranger.get(callback);
    expect(hijack.status).toBe(403);
    expect(hijack.data).toContain('Connection started elsewhere');
    expect(await accountCount()).toBe(before);
    const own = await browser.get(callback);
    expect(own.status).toBe(303);
    expect(new URL(String(own.headers.location)).searchParams.get('screenName')).toBe('bound_bea');
  });

  it('lets no one but the starting browser cancel the request', async () => {
    const link = await startConnection();
    const token = (await openStartLink(link)).searchParams.get('oauth_token')!;
    const cancel = await browserSession().get(`${h.authUrl}/v1/oauth/callback`, { params: { denied: token } });
    expect(cancel.status).toBe(403);
    const approved = await browser.post(`${h.simulatorUrl}/oauth/authorize`, new URLSearchParams({ oauth_token: token, user: '@kept_kim', decision: 'approve' }).toString(), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect((await browser.get(String(approved.headers.location))).status).toBe(303);
  });

  it('opens a start link once: a second browser (or a second look) gets nothing to bind', async () => {
    const link = await startConnection();
    await openStartLink(link);
    const again = await browserSession().get(link);
    expect(again.status).toBe(409);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.data).toContain('already opened');
    const unknown = await browserSession().get(`${h.authUrl}/v1/oauth/start`, { params: { link: 'made-up' } });
    expect(unknown.status).toBe(400);
    // A person, not a program, opens it: a link cut short gets the page too, not a JSON error.
    const bare = await browserSession().get(`${h.authUrl}/v1/oauth/start`);
    expect({ status: bare.status, page: String(bare.data).includes('Unknown connection link') }).toEqual({ status: 400, page: true });
  });

  it('lets a request token alone complete nothing (the platform page was reached without the start link)', async () => {
    const link = await startConnection();
    const token = (await openStartLink(link)).searchParams.get('oauth_token')!;
    const elsewhere = browserSession();
    const approved = await elsewhere.post(`${h.simulatorUrl}/oauth/authorize`, new URLSearchParams({ oauth_token: token, user: '@mallory', decision: 'approve' }).toString(), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect((await elsewhere.get(String(approved.headers.location))).status).toBe(403);
    expect((await h.crm.get('/v1/accounts')).data.items.map((a: { screenName: string }) => a.screenName)).not.toContain('mallory');
  });
});

describe('the CRM API', () => {
  it('needs the CRM bearer token on /v1 (but not on the OAuth callback)', async () => {
    expect((await browser.get(`${h.authUrl}/v1/accounts`)).status).toBe(401);
    const wrong = await browser.get(`${h.authUrl}/v1/accounts`, { headers: { authorization: 'Bearer not-it' } });
    expect(wrong.status).toBe(401);
    expect(wrong.data.error.code).toBe('unauthorized');
    expect((await browser.get(`${h.authUrl}/v1/oauth/callback`)).status).toBe(400);
  });
});

describe('imported credentials', () => {
  it('checks a token pair with /2/users/me before storing it, and says so', async () => {
    const issued = (await h.sim.post('/control/platform/tokens', { user: '@imported_ida' })).data;
    const res = await h.crm.put(`/v1/accounts/${issued.userId}/credentials`, { accessToken: issued.oauthToken, accessTokenSecret: issued.oauthTokenSecret });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ accountId: issued.userId, screenName: 'imported_ida', via: 'import', status: 'connected', accessTokenMasked: `${issued.oauthToken.slice(0, 4)}…${issued.oauthToken.slice(-4)}` });
    expect(JSON.stringify(res.data)).not.toContain(issued.oauthTokenSecret);
    expect(res.data.consumerKey).toBe(`${h.secrets.consumerKey.slice(0, 4)}…${h.secrets.consumerKey.slice(-4)}`);
    expect((await h.platformRequests('/2/users/me', 'GET')).find((entry) => entry.caller.userId === issued.userId)).toMatchObject({ caller: { kind: 'user', userId: issued.userId }, status: 200 });
    const event = await h.waitForPublished('account.connected', (p) => p.accountId === issued.userId);
    expect(event.envelope.payload).toMatchObject({ via: 'import', accessTokenMasked: res.data.accessTokenMasked, consumerKey: h.secrets.consumerKey });
    expect(JSON.stringify(event.envelope)).not.toContain(issued.oauthToken);
  });

  it('refuses a pair the platform does not accept, or that belongs to another account, storing nothing', async () => {
    const before = await accountCount();
    const issued = (await h.sim.post('/control/platform/tokens', { user: '@imported_ivo' })).data;
    const wrongSecret = await h.crm.put(`/v1/accounts/${issued.userId}/credentials`, { accessToken: issued.oauthToken, accessTokenSecret: 'wrong-secret' });
    expect(wrongSecret.status).toBe(422);
    expect(wrongSecret.data.error.code).toBe('invalid_credentials');
    const mismatch = await h.crm.put('/v1/accounts/12345/credentials', { accessToken: issued.oauthToken, accessTokenSecret: issued.oauthTokenSecret });
    expect(mismatch.status).toBe(422);
    expect(mismatch.data.error.code).toBe('account_mismatch');
    expect((await h.crm.put(`/v1/accounts/${issued.userId}/credentials`, { accessToken: issued.oauthToken })).status).toBe(400);
    expect(await accountCount()).toBe(before);
  });
});

describe('credentials at rest', () => {
  it('are sealed with CREDENTIALS_KEY and never returned in full', async () => {
    const issued = (await h.sim.post('/control/platform/tokens', { user: '@sealed_sue' })).data;
    await h.crm.put(`/v1/accounts/${issued.userId}/credentials`, { accessToken: issued.oauthToken, accessTokenSecret: issued.oauthTokenSecret });
    const { rows } = await h.auth.pool.query('SELECT * FROM accounts WHERE account_id = $1', [issued.userId]);
    const row = JSON.stringify(rows[0]);
    expect(row).not.toContain(issued.oauthToken);
    expect(row).not.toContain(issued.oauthTokenSecret);
    expect(rows[0].access_token_sealed).toMatch(/^v1:/);
    const listed = JSON.stringify((await h.crm.get('/v1/accounts')).data);
    expect(listed).not.toContain(issued.oauthToken);
    expect(listed).not.toContain(issued.oauthTokenSecret);
  });

  it('are re-sealed with a new key by `rotate-key`, readable with the new key alone afterwards', async () => {
    const newKey = randomBytes(32).toString('base64');
    const config = readConfig({ ...stringEnv(h), NODE_ENV: 'production', CREDENTIALS_KEY: newKey, CREDENTIALS_KEY_PREVIOUS: h.secrets.credentialsKey });
    const out: string[] = [];
    const code = await runCli(['rotate-key'], config, testLogger(), { out: (l) => out.push(l), err: (l) => out.push(l) });
    expect(code).toBe(0);
    const resealed = JSON.parse(out.join('\n')).resealed as Record<string, number>;
    expect(resealed['accounts.access_token_sealed']).toBe(await accountCount());
    expect(resealed['app_credentials.consumer_secret_sealed']).toBe(1);

    const newBox = new SecretBox(newKey);
    const { rows } = await h.auth.pool.query('SELECT account_id, access_token_sealed, access_token_secret_sealed FROM accounts');
    for (const row of rows) {
      expect(newBox.sealedWithThisKey(row.access_token_sealed)).toBe(true);
      expect(newBox.sealedWithThisKey(row.access_token_secret_sealed)).toBe(true);
    }
    const withNewKeyOnly = new AccountStore(h.auth.pool, new Keyring(newKey));
    const reopened = await withNewKeyOnly.credentials(rows[0].account_id);
    expect(reopened?.protocol === 'oauth1' && reopened.token.key).toBeTruthy();
    await expect(new AccountStore(h.auth.pool, new Keyring(h.secrets.credentialsKey)).credentials(rows[0].account_id)).rejects.toThrow('sealed with another key');

    // Running it again finds nothing left to do.
    out.length = 0;
    expect(await runCli(['rotate-key'], config, testLogger(), { out: (l) => out.push(l), err: (l) => out.push(l) })).toBe(0);
    expect(Object.values(JSON.parse(out.join('\n')).resealed as Record<string, number>).every((n) => n === 0)).toBe(true);

    // Put the old key back, so the running auth of this file can read again.
    const back = readConfig({ ...stringEnv(h), NODE_ENV: 'production', CREDENTIALS_KEY: h.secrets.credentialsKey, CREDENTIALS_KEY_PREVIOUS: newKey });
    expect(await runCli(['rotate-key'], back, testLogger(), { out: () => undefined, err: () => undefined })).toBe(0);
  });
});

describe('removing an account', () => {
  it('unsubscribes it, forgets its credentials and publishes account.disconnected', async () => {
    const accountId = await h.connectAndSubscribe('@leaving_lea');
    const masked = (await h.crm.get(`/v1/accounts/${accountId}`)).data.accessTokenMasked as string;
    const res = await h.crm.delete(`/v1/accounts/${accountId}`);
    expect(res.status).toBe(204);
    const webhookId = ((await h.crm.get('/v1/webhooks')).data.items as { id: string }[])[0]!.id;
    const removal = `/2/account_activity/webhooks/${webhookId}/subscriptions/${accountId}/all`;
    expect((await h.platformRequests(removal, 'DELETE'))[0]).toMatchObject({ caller: { kind: 'app' }, status: 200 });
    expect((await h.crm.get(`/v1/accounts/${accountId}`)).status).toBe(404);
    expect((await h.auth.pool.query('SELECT 1 FROM accounts WHERE account_id = $1', [accountId])).rowCount).toBe(0);
    const event = await h.waitForPublished('account.disconnected', (p) => p.accountId === accountId);
    expect(event.envelope.payload).toMatchObject({ reason: 'removed', accessTokenMasked: masked, consumerKey: h.secrets.consumerKey, screenName: 'leaving_lea' });
    expect((await h.crm.delete(`/v1/accounts/${accountId}`)).status).toBe(404);
  });

  it('answers one of two concurrent DELETEs with 204 and the other with 404, publishing account.disconnected once', async () => {
    const accountId = await h.connectAndSubscribe('@racing_rae');
    const statuses = (await Promise.all([h.crm.delete(`/v1/accounts/${accountId}`), h.crm.delete(`/v1/accounts/${accountId}`)])).map((r) => r.status);
    expect(statuses.sort()).toEqual([204, 404]);
    // auth publishes on one channel, so once a later event arrived every earlier one has.
    const marker = await h.connectAndSubscribe('@marker_mo');
    expect((await h.crm.delete(`/v1/accounts/${marker}`)).status).toBe(204);
    await h.waitForPublished('account.disconnected', (p) => p.accountId === marker);
    expect(h.published.filter((p) => p.routingKey === 'account.disconnected' && p.envelope.payload.accountId === accountId)).toHaveLength(1);
  });

  it('announces a removal only from the caller whose delete removed the row, when both found the account', async () => {
    const accountId = await h.connect('@twice_tam');
    // Both removals pass the lookup and the unsubscribe before either deletes: the race the transaction must settle.
    let release!: () => void;
    const bothUnsubscribing = new Promise<void>((resolve) => (release = resolve));
    let unsubscribing = 0;
    const announced: string[] = [];
    const service = new AccountService(
      {
        accounts: new AccountStore(h.auth.pool, new Keyring(h.secrets.credentialsKey)),
        requests: null!,
        platform: null!,
        tokens: null!,
        events: {
          storeAndAnnounce: (work: (client: PoolClient) => Promise<boolean>) => withTransaction(h.auth.pool, work),
          accountDisconnected: async (_client: PoolClient, payload: { accountId: string }) => void announced.push(payload.accountId),
        } as unknown as AuthEvents,
        logger: testLogger(),
        unsubscribe: async () => {
          if (++unsubscribing === 2) release();
          await bothUnsubscribing;
          return true;
        },
      },
      { envName: 'test', consumerKey: h.secrets.consumerKey, authorizeUrl: 'http://x/oauth/authorize', oauth2AuthorizeUrl: 'http://x/i/oauth2/authorize', oauth2ClientId: 'c', callbackUrl: () => 'http://auth/v1/oauth/callback', startUrl: () => 'http://auth/v1/oauth/start', connectionTtlSeconds: 900 },
    );
    const removed = await Promise.all([service.remove(accountId), service.remove(accountId)]);
    expect(removed.sort()).toEqual([false, true]);
    expect(announced).toEqual([accountId]);
  });
});

describe('the CLI', () => {
  it('lists webhooks and counts subscriptions; says how to use it', async () => {
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    const config = readConfig({ ...stringEnv(h), NODE_ENV: 'production' });
    expect(await runCli(['webhook', 'list'], config, testLogger(), io)).toBe(0);
    expect(JSON.parse(out.join('\n'))).toMatchObject({ envName: 'test', items: [expect.objectContaining({ url: h.webhook!.url, valid: true })] });
    out.length = 0;
    expect(await runCli(['subscription', 'count'], config, testLogger(), io)).toBe(0);
    expect(JSON.parse(out.join('\n'))).toEqual({ all: 0, directMessages: 0 });
    out.length = 0;
    expect(await runCli(['subscription', 'check', 'abc'], config, testLogger(), io)).toBe(2);
    expect(out.join('\n')).toContain('usage:');
  });
});

/** The harness's auth settings as env strings (what the CLI reads). */
function stringEnv(harness: Harness): Record<string, string> {
  return {
    AMQP_URL: harness.vhost.url,
    DATABASE_URL: harness.db.url,
    SOCIAL_API_URL: harness.simulatorUrl,
    SOCIAL_CONSUMER_KEY: harness.secrets.consumerKey,
    SOCIAL_CONSUMER_SECRET: harness.secrets.consumerSecret,
    SOCIAL_OAUTH2_CLIENT_ID: harness.secrets.oauth2ClientId,
    SOCIAL_OAUTH2_CLIENT_SECRET: harness.secrets.oauth2ClientSecret,
    SOCIAL_ENV_NAME: 'test',
    PUBLIC_WEBHOOK_URL: harness.config.PUBLIC_WEBHOOK_URL,
    CREDENTIALS_KEY: harness.secrets.credentialsKey,
    CRM_API_TOKENS: harness.secrets.crmToken,
  };
}
