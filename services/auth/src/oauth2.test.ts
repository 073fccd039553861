/**
 * OAuth 2.0 accounts against the simulated platform: connecting with PKCE through its consent
 * page, calls signed with the account's bearer token, refreshes before expiry (the refresh
 * token rotates), on demand when a call finds the token expired or refused, one refresh at a
 * time across two "replicas", a refused refresh marking the account for reconnection, a
 * network failure keeping the tokens, a CREDENTIALS_KEY rotation re-sealing them, every bad callback answered with a 4xx page, and reads
 * through v2 that answer an OAuth 2.0 and an OAuth 1.0a account alike, and as v1.1 answers.
 */
import { createHash, randomBytes } from 'node:crypto';
import axios from 'axios';
import type { Pool } from '@crm/db';
import { browserSession, testLogger, waitFor, testPool } from '@crm/testing';
import { AccountStore } from './adapters/accounts';
import { AuthEvents } from './adapters/events';
import { aadFor, rotateCredentialsKey } from './adapters/key-rotation';
import { Keyring } from './adapters/keyring';
import { PlatformClient } from './adapters/platform/client';
import type { TokenPair } from './adapters/platform/oauth1';
import { basicCredentials } from './adapters/platform/oauth1';
import { OAUTH2_SCOPES, OAuth2TokenEndpoint } from './adapters/platform/oauth2';
import { TokenRefresher } from './operations/token-refresh';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
const pools: Pool[] = [];

beforeAll(async () => {
  // Access tokens last 2 minutes on this platform, within the 10-minute refresh margin: every account is due at once.
  h = await startHarness({ prefix: 'auth_oauth2', simulatorEnv: { OAUTH2_ACCESS_TOKEN_TTL_SECONDS: '120' }, env: { OAUTH2_REFRESH_INTERVAL_MS: '0' } });
});

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await h?.stop();
});

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const keyring = () => new Keyring(h.secrets.credentialsKey);

async function accountRow(accountId: string) {
  return (await h.auth.pool.query('SELECT * FROM accounts WHERE account_id = $1', [accountId])).rows[0];
}

/** The account's OAuth 2.0 tokens, opened as auth would. */
async function tokensOf(accountId: string): Promise<{ accessToken: string; refreshToken: string }> {
  const row = await accountRow(accountId);
  const keys = keyring();
  return { accessToken: keys.open(row.access_token_sealed, aadFor.accessToken(accountId)), refreshToken: keys.open(row.refresh_token_sealed, aadFor.refreshToken(accountId)) };
}

/** What the platform's token endpoint received with `grant_type=refresh_token`, so far. */
const refreshRequests = async () => (await h.platformRequests('/2/oauth2/token', 'POST')).filter((entry) => entry.form.grant_type === 'refresh_token').length;

/** The app's OAuth 2.0 client at the platform's token endpoint, as a test calls it directly. */
const tokenEndpoint = (path: string, form: Record<string, string>) =>
  axios.post(`${h.simulatorUrl}${path}`, new URLSearchParams(form).toString(), {
    headers: { authorization: basicCredentials(h.secrets.oauth2ClientId, h.secrets.oauth2ClientSecret), 'content-type': 'application/x-www-form-urlencoded' },
    validateStatus: () => true,
  });

/** Posts for the account over auth's HTTP API; the platform's answer, as the CRM sees it. */
const post = (accountId: string, text: string) => h.crm.post(`/v1/accounts/${accountId}/posts`, { text });

/**
 * Another "replica": a refresher on its own pool, platform client and store, sharing only the
 * database. What it announces goes to the shared outbox, which auth's relay publishes.
 */
function replica(baseUrl = h.simulatorUrl, lockWaitMs = 5_000, marginMs = 600_000, keys = keyring()): TokenRefresher {
  const pool = testPool(h.db.url, { applicationName: 'auth-replica' });
  pools.push(pool);
  const platform = new PlatformClient({ baseUrl, consumerKey: h.secrets.consumerKey, consumerSecret: h.secrets.consumerSecret, timeoutMs: 2_000, logger: testLogger() });
  const tokens = new OAuth2TokenEndpoint(platform, { clientId: h.secrets.oauth2ClientId, clientSecret: h.secrets.oauth2ClientSecret });
  const events = new AuthEvents(pool, { kick: async () => undefined });
  return new TokenRefresher({ accounts: new AccountStore(pool, keys), tokens, events, logger: testLogger() }, { marginMs, lockWaitMs });
}

describe('connecting with OAuth 2.0 and PKCE', () => {
  it('sends the browser to the consent page with an S256 challenge, a state and the scopes auth needs; keeps the state hashed and the verifier sealed', async () => {
    const started = await h.crm.post('/v1/connections', undefined, { params: { protocol: 'oauth2' } });
    expect(started.status).toBe(201);
    expect(started.data.authorizeUrl).toMatch(/\/v1\/oauth\/start\?link=/);
    const opened = await browserSession().get(started.data.authorizeUrl as string);
    expect(opened.status).toBe(303);
    const consent = new URL(String(opened.headers.location));
    expect(`${consent.origin}${consent.pathname}`).toBe(`${h.simulatorUrl}/i/oauth2/authorize`);
    const params = Object.fromEntries(consent.searchParams);
    expect(params).toEqual({
      response_type: 'code',
      client_id: h.secrets.oauth2ClientId,
      redirect_uri: `${h.authUrl}/v1/oauth/callback`,
      scope: OAUTH2_SCOPES.join(' '),
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    expect(params.scope!.split(' ')).toEqual(expect.arrayContaining(['tweet.write', 'dm.write', 'users.read', 'offline.access']));
    const { rows } = await h.auth.pool.query('SELECT * FROM connection_requests WHERE token_sha256 = $1', [sha256(params.state!)]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ protocol: 'oauth2', token_secret_sealed: null, code_verifier_sealed: expect.any(String) });
    // Keyed by the state's hash; the code_verifier only sealed (its challenge is public, it is not).
    expect(rows[0].token_sha256).toBe(sha256(params.state!));
  });

  it('connects through the consent page: the code is exchanged, the user read with /2/users/me, the tokens stored sealed and the connection announced', async () => {
    const accountId = await h.connectOAuth2('@pkce_pat');
    const row = await accountRow(accountId);
    expect(row).toMatchObject({ protocol: 'oauth2', status: 'connected', connected_via: 'oauth', access_token_secret_sealed: null, screen_name: 'pkce_pat' });
    const { accessToken, refreshToken } = await tokensOf(accountId);
    expect(row.access_token_sealed).not.toContain(accessToken);
    expect(row.refresh_token_sealed).not.toContain(refreshToken);
    expect(row.scopes).toEqual([...OAUTH2_SCOPES]);

    const shown = await h.crm.get(`/v1/accounts/${accountId}`);
    expect(shown.status).toBe(200);
    expect(shown.data).toMatchObject({ accountId, protocol: 'oauth2', status: 'connected', scopes: [...OAUTH2_SCOPES], accessTokenExpiresAt: expect.any(String) });
    expect(JSON.stringify(shown.data)).not.toContain(accessToken);
    const expiresIn = new Date(shown.data.accessTokenExpiresAt as string).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(100_000);
    expect(expiresIn).toBeLessThanOrEqual(120_000);

    const exchange = (await h.platformRequests('/2/oauth2/token', 'POST')).find((entry) => entry.form.grant_type === 'authorization_code');
    expect(exchange).toMatchObject({ status: 200, form: { redirect_uri: `${h.authUrl}/v1/oauth/callback`, code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) } });
    const { rows: requests } = await h.auth.pool.query('SELECT * FROM connection_requests');
    expect(JSON.stringify(requests)).not.toContain(exchange!.form.code_verifier);
    expect(requests.find((request) => request.protocol === 'oauth2' && request.used_at !== null)).toBeTruthy();
    expect((await h.platformRequests('/2/users/me', 'GET'))[0]).toMatchObject({ status: 200, caller: { kind: 'user', userId: accountId } });
    const connected = await h.waitForPublished('account.connected', (payload) => payload.accountId === accountId);
    expect(connected.envelope.payload).toMatchObject({ screenName: 'pkce_pat', via: 'oauth' });
  });

  it('makes the account\'s calls with its bearer access token', async () => {
    const accountId = await h.connectOAuth2('@bearer_bea');
    const res = await post(accountId, 'sent with OAuth 2.0');
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ outcome: 'succeeded' });
    // The account has no OAuth 1.0a pair: the platform saw its user through the bearer token.
    const [sent] = await h.platformRequests('/2/tweets', 'POST');
    expect(sent).toMatchObject({ status: 201, caller: { kind: 'user', userId: accountId } });
  });

  it('refuses an action with only a v1.1 route (which takes OAuth 1.0a only) with 409, without calling the platform', async () => {
    const accountId = await h.connectOAuth2('@legacy_lou');
    const res = await h.crm.patch(`/v1/accounts/${accountId}/profile`, { name: 'Lou' });
    expect(res.status).toBe(409);
    expect(res.data.error).toMatchObject({ code: 'needs_oauth1' });
    expect(res.data.error.message).toContain('connect it with OAuth 1.0a');
    expect(await h.platformRequests('/1.1/account/update_profile.json', 'POST')).toEqual([]);
    // A read without a v2 route is refused the same way.
    const settings = await h.crm.get(`/v1/accounts/${accountId}/settings`);
    expect(settings.status).toBe(409);
    expect(settings.data.error).toMatchObject({ code: 'needs_oauth1' });
    expect(await h.platformRequests('/1.1/account/settings.json', 'GET')).toEqual([]);
  });

  it('answers every bad callback with a 4xx page and stores nothing: unknown, replayed, expired or foreign state, a missing code, a cancelled consent', async () => {
    const browser = browserSession();
    const before = (await h.auth.pool.query('SELECT count(*)::int AS n FROM accounts')).rows[0].n as number;
    const unknown = await browser.get(`${h.authUrl}/v1/oauth/callback`, { params: { state: 'made-up', code: 'x' } });
    expect(unknown.status).toBe(400);
    expect(unknown.data).toContain('Unknown connection link');
    const incomplete = await browser.get(`${h.authUrl}/v1/oauth/callback`, { params: { state: 'made-up' } });
    expect(incomplete.status).toBe(400);
    expect(incomplete.data).toContain('Incomplete connection link');

    /** Starts an OAuth 2.0 connection in `browser` and approves it; the callback URL the platform sends the browser to. */
    const approved = async (decision = 'approve') => {
      const started = await h.crm.post('/v1/connections', undefined, { params: { protocol: 'oauth2' } });
      const consent = new URL(String((await browser.get(started.data.authorizeUrl as string)).headers.location));
      const form = new URLSearchParams({ ...Object.fromEntries(consent.searchParams), user: '@bad_callback_bo', decision });
      const answer = await browser.post(`${h.simulatorUrl}/i/oauth2/authorize`, form.toString(), { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(answer.status).toBe(302);
      return String(answer.headers.location);
    };

    const elsewhere = await browserSession().get(await approved());
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.data).toContain('Connection started elsewhere');

    const callback = await approved();
    await h.auth.pool.query(`UPDATE connection_requests SET expires_at = now() - interval '1 second' WHERE token_sha256 = $1`, [sha256(new URL(callback).searchParams.get('state')!)]);
    const expired = await browser.get(callback);
    expect(expired.status).toBe(410);
    expect(expired.data).toContain('Connection link expired');
    const replayed = await browser.get(callback);
    expect(replayed.status).toBe(409);

    const cancelled = await browser.get(await approved('deny'));
    expect(cancelled.status).toBe(403);
    expect(cancelled.data).toContain('Connection cancelled');

    // A good state with a code the platform refuses: the platform did not complete it (nothing stored), and the state is spent.
    const good = new URL(await approved());
    good.searchParams.set('code', 'not-the-code');
    const refused = await browser.get(good.toString());
    expect(refused.status).toBe(502);
    expect(refused.data).toContain('invalid_grant');
    expect((await browser.get(good.toString())).status).toBe(409);

    expect((await h.auth.pool.query('SELECT count(*)::int AS n FROM accounts')).rows[0].n).toBe(before);
  });

  it('refuses an unknown protocol with 400; without one it starts an OAuth 1.0a connection as before', async () => {
    const wrong = await h.crm.post('/v1/connections', undefined, { params: { protocol: 'oauth3' } });
    expect(wrong.status).toBe(400);
    expect(wrong.data.error.code).toBe('invalid_request');
    const plain = await h.crm.post('/v1/connections');
    expect(plain.status).toBe(201);
    const consent = new URL(String((await browserSession().get(plain.data.authorizeUrl as string)).headers.location));
    expect(consent.pathname).toBe('/oauth/authorize');
  });
});

describe('refreshing access tokens', () => {
  it('refreshes a token that expires within the margin, stores the rotated refresh token, and the account keeps working', async () => {
    const accountId = await h.connectOAuth2('@refresh_rae');
    const before = await tokensOf(accountId);
    const expiredAt = (await accountRow(accountId)).access_token_expires_at as Date;
    const outcome = await h.auth.refresher.refreshDue();
    expect(outcome.refreshed).toBeGreaterThanOrEqual(1);
    expect(outcome.failed).toBe(0);

    const after = await tokensOf(accountId);
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    const row = await accountRow(accountId);
    expect((row.access_token_expires_at as Date).getTime()).toBeGreaterThan(expiredAt.getTime());
    expect(row.token_refreshed_at).not.toBeNull();
    // The platform rotated it: the refresh token used is spent.
    expect((await tokenEndpoint('/2/oauth2/token', { grant_type: 'refresh_token', refresh_token: before.refreshToken })).status).toBe(400);
    expect((await post(accountId, 'after a refresh')).data).toMatchObject({ outcome: 'succeeded' });
  });

  it('leaves a token alone that is not due yet', async () => {
    const accountId = await h.connectOAuth2('@not_due_ned');
    await h.auth.pool.query(`UPDATE accounts SET access_token_expires_at = now() + interval '1 hour' WHERE protocol = 'oauth2'`);
    const before = await tokensOf(accountId);
    const requests = await refreshRequests();
    expect(await h.auth.refresher.refreshDue()).toMatchObject({ refreshed: 0 });
    expect(await refreshRequests()).toBe(requests);
    expect(await tokensOf(accountId)).toEqual(before);
  });

  it('refreshes before a call whose token has expired, and once after the platform refuses a token (401), making the call again', async () => {
    const accountId = await h.connectOAuth2('@on_demand_odie');
    await h.auth.pool.query(`UPDATE accounts SET access_token_expires_at = now() - interval '1 minute' WHERE account_id = $1`, [accountId]);
    let requests = await refreshRequests();
    expect((await post(accountId, 'token expired')).data).toMatchObject({ outcome: 'succeeded' });
    expect(await refreshRequests()).toBe(requests + 1);
    expect(((await accountRow(accountId)).access_token_expires_at as Date).getTime()).toBeGreaterThan(Date.now());

    // Revoked on the platform, not yet expired here: the call is refused with 401, refreshed once and made again.
    const { accessToken } = await tokensOf(accountId);
    expect((await tokenEndpoint('/2/oauth2/revoke', { token: accessToken })).data).toEqual({ revoked: true });
    requests = await refreshRequests();
    const res = await post(accountId, 'token revoked');
    expect(res.data).toMatchObject({ outcome: 'succeeded' });
    expect(await refreshRequests()).toBe(requests + 1);
    expect((await tokensOf(accountId)).accessToken).not.toBe(accessToken);
    expect((await accountRow(accountId)).status).toBe('connected');
  });

  it('refreshes once when two replicas race on the same account, and the account still works', async () => {
    const accountId = await h.connectOAuth2('@race_rex');
    await h.auth.pool.query(`UPDATE accounts SET access_token_expires_at = now() + interval '1 hour' WHERE protocol = 'oauth2' AND account_id <> $1`, [accountId]);
    // A margin shorter than the platform's tokens last (120 s here), as in production (10 minutes of 2 hours): the token is due, the refreshed one is not.
    await h.auth.pool.query(`UPDATE accounts SET access_token_expires_at = now() + interval '30 seconds' WHERE account_id = $1`, [accountId]);
    const [a, b] = [replica(h.simulatorUrl, 5_000, 60_000), replica(h.simulatorUrl, 5_000, 60_000)];

    // The periodic rounds of two replicas at once.
    let requests = await refreshRequests();
    const rounds = await Promise.all([a.refreshDue(), b.refreshDue(), a.refreshDue(), b.refreshDue()]);
    expect(rounds.reduce((sum, round) => sum + round.refreshed, 0)).toBe(1);
    expect(rounds.reduce((sum, round) => sum + round.failed, 0)).toBe(0);
    expect(await refreshRequests()).toBe(requests + 1);
    expect((await post(accountId, 'after the race')).data).toMatchObject({ outcome: 'succeeded' });

    // Two calls that found the same token refused: one refreshes, the other waits and takes the new token.
    const stale = (await tokensOf(accountId)).accessToken;
    requests = await refreshRequests();
    const outcomes = await Promise.all([a.refreshForCall(accountId, stale), b.refreshForCall(accountId, stale)]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['current', 'refreshed']);
    const [first, second] = outcomes as { accessToken: string }[];
    expect(first!.accessToken).toBe(second!.accessToken);
    expect(await refreshRequests()).toBe(requests + 1);
    expect((await tokensOf(accountId)).accessToken).toBe(first!.accessToken);
    expect((await post(accountId, 'after the second race')).data).toMatchObject({ outcome: 'succeeded' });
  });

  it('gives up waiting for a refresh held elsewhere past the wait (busy: try later), and sends nothing', async () => {
    const accountId = await h.connectOAuth2('@held_hal');
    await h.auth.pool.query(`UPDATE accounts SET access_token_expires_at = now() + interval '1 hour' WHERE protocol = 'oauth2' AND account_id <> $1`, [accountId]);
    const { accessToken } = await tokensOf(accountId);
    const holder = await h.auth.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM accounts WHERE account_id = $1 FOR UPDATE', [accountId]);
      const requests = await refreshRequests();
      expect(await replica(h.simulatorUrl, 300).refreshForCall(accountId, accessToken)).toEqual({ status: 'busy' });
      expect(await replica().refreshDue()).toMatchObject({ refreshed: 0, failed: 0 });
      expect(await refreshRequests()).toBe(requests);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    expect((await replica().refreshForCall(accountId, accessToken)).status).toBe('refreshed');
  });

  it('keeps the tokens when the platform cannot be reached, and refreshes next round', async () => {
    const accountId = await h.connectOAuth2('@offline_otto');
    await h.auth.pool.query(`UPDATE accounts SET access_token_expires_at = now() + interval '1 hour' WHERE protocol = 'oauth2' AND account_id <> $1`, [accountId]);
    const before = await accountRow(accountId);
    const unreachable = replica('http://127.0.0.1:9');
    expect(await unreachable.refreshDue()).toMatchObject({ refreshed: 0, failed: 1 });
    const after = await accountRow(accountId);
    expect(after).toMatchObject({ status: 'connected', refresh_token_sealed: before.refresh_token_sealed, access_token_sealed: before.access_token_sealed });
    expect(await h.auth.refresher.refreshDue()).toMatchObject({ refreshed: 1, failed: 0 });
  });

  it('marks the account needs_reconnect and announces it when the platform refuses the refresh; its calls then fail without reaching the platform', async () => {
    const accountId = await h.connectOAuth2('@refused_ruth');
    await h.auth.pool.query(`UPDATE accounts SET access_token_expires_at = now() + interval '1 hour' WHERE protocol = 'oauth2' AND account_id <> $1`, [accountId]);
    const { refreshToken } = await tokensOf(accountId);
    expect((await tokenEndpoint('/2/oauth2/revoke', { token: refreshToken })).data).toEqual({ revoked: true });

    expect(await h.auth.refresher.refreshDue()).toMatchObject({ refused: 1, refreshed: 0 });
    const row = await accountRow(accountId);
    expect(row.status).toBe('needs_reconnect');
    expect(row.status_reason).toContain('refused to refresh');
    const announced = await h.waitForPublished('account.needs-reconnect', (payload) => payload.accountId === accountId);
    expect(announced.envelope.payload).toMatchObject({ screenName: 'refused_ruth', reason: { platformCode: null, message: expect.stringContaining('token refresh refused') } });
    expect((await h.crm.get(`/v1/accounts/${accountId}`)).data).toMatchObject({ status: 'needs_reconnect' });

    const sends = (await h.platformRequests('/1.1/statuses/update.json', 'POST')).length;
    const res = await post(accountId, 'not any more');
    expect(res.status).toBe(409);
    expect(res.data.error.code).toBe('reconnect_needed');
    expect((await h.platformRequests('/1.1/statuses/update.json', 'POST')).length).toBe(sends);
    // Announced once: the next round has nothing to refresh for it.
    expect(await h.auth.refresher.refreshDue()).toMatchObject({ refused: 0 });
    expect(h.published.filter((p) => p.routingKey === 'account.needs-reconnect' && p.envelope.payload.accountId === accountId)).toHaveLength(1);

    // Connecting it again makes it work again.
    expect(await h.connectOAuth2('@refused_ruth')).toBe(accountId);
    expect((await post(accountId, 'back again')).data).toMatchObject({ outcome: 'succeeded' });
  });

  it('forgets every token of a revoked OAuth 2.0 account', async () => {
    const accountId = await h.connectOAuth2('@revoked_rita');
    expect(await new AccountStore(h.auth.pool, keyring()).markRevoked(accountId, new Date(Date.now() + 2_000), 'test revoke')).toBe(true);
    expect(await accountRow(accountId)).toMatchObject({ status: 'revoked', access_token_sealed: null, refresh_token_sealed: null });
    const res = await post(accountId, 'revoked');
    expect(res.status).toBe(404);
    expect(res.data.error.code).toBe('account_not_connected');
  });
});

describe('rotating CREDENTIALS_KEY', () => {
  it("re-seals an OAuth 2.0 account's access and refresh tokens, which then refresh with the new key alone", async () => {
    const accountId = await h.connectOAuth2('@rotated_rita');
    const before = await tokensOf(accountId);
    const oldKey = h.secrets.credentialsKey;
    const newKey = randomBytes(32).toString('base64');
    const newKeyOnly = new Keyring(newKey);
    const sealedWith = async (keys: Keyring) => {
      const row = await accountRow(accountId);
      return { accessToken: keys.open(row.access_token_sealed, aadFor.accessToken(accountId)), refreshToken: keys.open(row.refresh_token_sealed, aadFor.refreshToken(accountId)) };
    };
    try {
      const resealed = await rotateCredentialsKey(h.auth.pool, new Keyring(newKey, oldKey));
      expect(resealed['accounts.refresh_token_sealed']).toBeGreaterThanOrEqual(1);
      expect(await sealedWith(newKeyOnly)).toEqual(before);
      await expect(sealedWith(new Keyring(oldKey))).rejects.toThrow('sealed with another key');

      const outcome = await replica(h.simulatorUrl, 5_000, 600_000, newKeyOnly).refreshDue();
      expect(outcome.failed).toBe(0);
      const after = await sealedWith(newKeyOnly);
      expect(after.refreshToken).not.toBe(before.refreshToken);
      expect(after.accessToken).not.toBe(before.accessToken);
    } finally {
      // The running auth of this file holds the old key: seal everything with it again.
      await rotateCredentialsKey(h.auth.pool, new Keyring(oldKey, newKey));
    }
    expect((await post(accountId, 'after a key rotation')).data).toMatchObject({ outcome: 'succeeded' });
  });
});

describe('the periodic refresh', () => {
  let timed: Harness;
  beforeAll(async () => {
    timed = await startHarness({ prefix: 'auth_oauth2_timer', simulatorEnv: { OAUTH2_ACCESS_TOKEN_TTL_SECONDS: '120' }, env: { OAUTH2_REFRESH_INTERVAL_MS: '200' } });
  });
  afterAll(async () => {
    await timed?.stop();
  });

  it('runs on its own every OAUTH2_REFRESH_INTERVAL_MS and renews a token within the margin', async () => {
    const accountId = await timed.connectOAuth2('@timer_tim');
    const first = (await timed.auth.pool.query('SELECT access_token_expires_at FROM accounts WHERE account_id = $1', [accountId])).rows[0].access_token_expires_at as Date;
    await waitFor(async () => (await timed.auth.pool.query('SELECT token_refreshed_at FROM accounts WHERE account_id = $1', [accountId])).rows[0].token_refreshed_at !== null, { what: 'the periodic refresh' });
    const row = (await timed.auth.pool.query('SELECT status, access_token_expires_at FROM accounts WHERE account_id = $1', [accountId])).rows[0];
    expect(row.status).toBe('connected');
    expect((row.access_token_expires_at as Date).getTime()).toBeGreaterThanOrEqual(first.getTime());
    expect((await timed.crm.post(`/v1/accounts/${accountId}/posts`, { text: 'after the timer' })).status).toBe(200);
  });
});

type Json = Record<string, unknown>;
interface Status extends Json {
  user: Json;
  entities: { user_mentions: Json[] };
  retweeted_status?: Status;
}
interface DmEvent extends Json {
  message_create: { sender_id: string; target: { recipient_id: string }; message_data: { text: string } };
}
const pick = (object: Json | undefined, keys: string[]) => Object.fromEntries(keys.map((key) => [key, object?.[key]]));
/** The fields of a v1.1 user callers read. */
const userFields = (user: Json) =>
  pick(user, ['id', 'id_str', 'screen_name', 'name', 'description', 'location', 'url', 'protected', 'verified', 'followers_count', 'friends_count', 'statuses_count', 'created_at', 'profile_image_url_https']);
/** The fields of a v1.1 status callers read. */
const statusFields = (status: Status): Json => ({
  // v1.1 with tweet_mode=extended answers the text as full_text only.
  text: (status as Status & { full_text?: string }).full_text ?? status.text,
  ...pick(status, ['id', 'id_str', 'created_at', 'in_reply_to_status_id_str', 'in_reply_to_user_id_str', 'in_reply_to_screen_name', 'retweet_count', 'favorite_count', 'favorited', 'retweeted', 'is_quote_status', 'lang']),
  user: userFields(status.user),
  mentions: status.entities.user_mentions.map((mention) => pick(mention, ['screen_name', 'id_str', 'indices'])),
  retweeted_status: status.retweeted_status ? statusFields(status.retweeted_status) : null,
});

describe('reads go through v2 for OAuth 2.0 and OAuth 1.0a accounts alike, answering what v1.1 answers', () => {
  let oauth2: string;
  let oauth1: string;
  let customer: string;
  /** A token pair of the OAuth 1.0a reader's own, to ask the platform's v1.1 routes what they answer it. */
  let oauth1Token: TokenPair;
  let since: string;
  const read = async (accountId: string, path: string, params: Record<string, unknown> = {}) => {
    const res = await h.crm.get(`/v1/accounts/${accountId}${path}`, { params });
    expect({ path, status: res.status, error: res.data.error }).toEqual({ path, status: 200, error: undefined });
    return res.data.data;
  };
  /** Both readers' answers to the same read: the OAuth 2.0 account's, then the OAuth 1.0a account's. */
  const both = (path: string, params: Record<string, unknown> = {}) => Promise.all([read(oauth2, path, params), read(oauth1, path, params)]);
  /** What the platform's v1.1 route answers the OAuth 1.0a reader itself: the shape and values callers have always read. */
  const v1 = async (path: string, query: Record<string, string> = {}) => {
    const platform = new PlatformClient({ baseUrl: h.simulatorUrl, consumerKey: h.secrets.consumerKey, consumerSecret: h.secrets.consumerSecret, timeoutMs: 5_000, logger: testLogger() });
    return (await platform.call({ method: 'GET', path: `/1.1/${path}`, query }, { kind: 'user', token: oauth1Token })).data as never;
  };
  /** The requests at a v2 path that `accountId` made with success since the readers were connected. */
  const calledBy = async (accountId: string, path: string) => (await h.platformRequests(path, 'GET')).filter((entry) => entry.caller.userId === accountId && entry.status === 200 && entry.at >= since);
  /** Each reader called the v2 path (the same, or its own: `mine` gives it for a reader) with success. */
  const bothCalled = async (path: string | ((reader: string) => string)) => {
    const pathOf = typeof path === 'string' ? () => path : path;
    const called = async (reader: string) => (await calledBy(reader, pathOf(reader))).length > 0;
    expect({ path: pathOf(oauth2), oauth2: await called(oauth2), oauth1: await called(oauth1) }).toEqual({ path: pathOf(oauth2), oauth2: true, oauth1: true });
  };

  beforeAll(async () => {
    oauth2 = await h.connectOAuth2('@v2_reader_rae');
    oauth1 = await h.connect('@v1_reader_vic');
    since = new Date().toISOString();
    const issued = (await h.sim.post('/control/platform/tokens', { user: '@v1_reader_vic' })).data as { oauthToken: string; oauthTokenSecret: string };
    oauth1Token = { key: issued.oauthToken, secret: issued.oauthTokenSecret };
    customer = await h.connect('@cust_cat');
    // The customer's posts: a plain one, a reply mentioning a reader, a repost; both readers follow the customer and one more account.
    const first = (await h.crm.post(`/v1/accounts/${customer}/posts`, { text: 'my quokkaparcel is late' })).data.platformId as string;
    await h.crm.post(`/v1/accounts/${customer}/posts/${first}/replies`, { text: '@v1_reader_vic still no quokkaparcel' });
    const other = (await h.crm.post(`/v1/accounts/${oauth1}/posts`, { text: 'we are on it' })).data.platformId as string;
    await h.crm.post(`/v1/accounts/${customer}/posts/${other}/reposts`);
    for (const reader of [oauth2, oauth1]) {
      for (const followed of ['cust_cat', 'other_ola']) expect((await h.crm.put(`/v1/accounts/${reader}/following/${followed}`)).status).toBe(200);
      expect((await h.crm.post(`/v1/accounts/${customer}/direct-messages`, { recipientId: reader, text: 'hello, anyone there?' })).status).toBe(200);
    }
  });

  it('reads users and the profile through /2/users (by id, by username, me)', async () => {
    const [byName2, byName1] = await both('/users/cust_cat');
    expect(userFields(byName2)).toEqual(userFields(byName1));
    expect(userFields(byName1)).toEqual(userFields(await v1('users/show.json', { screen_name: 'cust_cat' })));
    expect(byName2).toMatchObject({ id_str: customer, screen_name: 'cust_cat' });
    const [byId2, byId1] = await both(`/users/${customer}`);
    expect(userFields(byId2)).toEqual(userFields(byId1));
    // Each account's own profile is what v1.1 shows of it.
    expect(userFields(await read(oauth2, '/profile'))).toEqual(userFields(await read(oauth1, `/users/${oauth2}`)));
    expect(userFields(await read(oauth1, '/profile'))).toEqual(userFields(await v1('account/verify_credentials.json')));
    await bothCalled('/2/users/by/username/cust_cat');
    await bothCalled(`/2/users/${customer}`);
    await bothCalled('/2/users/me');
    expect((await calledBy(oauth1, '/2/users/me')).some((entry) => entry.query['user.fields']?.includes('public_metrics'))).toBe(true);
  });

  it("reads a user's timeline and the home timeline through v2, with count and maxId", async () => {
    const [timeline2, timeline1] = await both('/users/cust_cat/timeline');
    expect(timeline1).toHaveLength(3);
    expect(timeline2.map(statusFields)).toEqual(timeline1.map(statusFields));
    expect(timeline1.map(statusFields)).toEqual((await v1('statuses/user_timeline.json', { screen_name: 'cust_cat' }) as Status[]).map(statusFields));
    expect(timeline2[0].retweeted_status).toMatchObject({ text: 'we are on it', user: { screen_name: 'v1_reader_vic' } });
    expect(timeline2[1]).toMatchObject({ in_reply_to_screen_name: 'cust_cat', entities: { user_mentions: [{ screen_name: 'v1_reader_vic' }] } });
    // count below v2's minimum of 5, and v1.1's inclusive max_id.
    const [paged2, paged1] = await both('/users/cust_cat/timeline', { count: 1, maxId: timeline1[1].id_str });
    expect(paged2.map(statusFields)).toEqual(paged1.map(statusFields));
    expect(paged2.map((status: Json) => status.id_str)).toEqual([timeline1[1].id_str]);
    // The OAuth 1.0a reader's home timeline has its own post too; the customer's posts are the same.
    const [home2, home1] = await both('/timeline');
    const customers = (statuses: Status[]) => statuses.filter((status) => status.user.id_str === customer).map(statusFields);
    expect(home2.map(statusFields)).toEqual(customers(home2));
    expect(customers(home2)).toEqual(customers(home1));
    expect(home2).toHaveLength(3);
    expect(home1.map(statusFields)).toEqual((await v1('statuses/home_timeline.json') as Status[]).map(statusFields));

    // A screen name is looked up first: the v2 route takes the id.
    for (const reader of [oauth2, oauth1]) {
      const timelineCalls = await calledBy(reader, `/2/users/${customer}/tweets`);
      expect(timelineCalls.map((entry) => entry.query)).toEqual(expect.arrayContaining([expect.objectContaining({ max_results: '5', until_id: String(BigInt(timeline1[1].id_str) + 1n) })]));
    }
    await bothCalled((me) => `/2/users/${me}/timelines/reverse_chronological`);
  });

  it('reads followed accounts through v2, a page at a time with the cursor', async () => {
    const [all2, all1] = await both('/following');
    expect(all2.users.map(userFields)).toEqual(all1.users.map(userFields));
    expect(all1.users.map(userFields)).toEqual((await v1('friends/list.json') as { users: Json[] }).users.map(userFields));
    expect(all2).toMatchObject({ next_cursor_str: '0', previous_cursor_str: '0' });
    for (const reader of [oauth2, oauth1]) {
      const first = await read(reader, '/following', { count: 1 });
      expect(first.users.map(userFields)).toEqual([userFields(all1.users[0])]);
      expect(first.next_cursor_str).toMatch(/^[0-9a-z]+$/);
      const second = await read(reader, '/following', { count: 1, cursor: first.next_cursor_str });
      expect(second).toMatchObject({ users: [expect.objectContaining({ id_str: all1.users[1].id_str })], next_cursor_str: '0' });
      expect((await calledBy(reader, `/2/users/${reader}/following`)).map((entry) => entry.query.pagination_token)).toContain(first.next_cursor_str);
    }
  });

  it("reads the account's lists and a list's posts through v2", async () => {
    const lists: Record<string, string> = {};
    for (const reader of [oauth2, oauth1]) {
      lists[reader] = (await h.crm.post(`/v1/accounts/${reader}/lists`, { name: 'Late Parcels', description: 'watch these', mode: 'private' })).data.platformId;
      expect((await h.crm.put(`/v1/accounts/${reader}/lists/${lists[reader]}/members/cust_cat`)).status).toBe(200);
    }
    const [lists2, lists1] = await both('/lists');
    const listFields = (list: Json & { user: Json }) => ({ ...pick(list, ['name', 'slug', 'description', 'mode', 'member_count', 'subscriber_count', 'following']), owner: list.user.id_str, id: list.id_str });
    expect(lists2.map(listFields)).toEqual([{ ...listFields(lists1[0]), owner: oauth2, id: lists[oauth2] }]);
    expect(lists2[0]).toMatchObject({ full_name: '@v2_reader_rae/late-parcels', user: userFields(await read(oauth1, `/users/${oauth2}`)) });
    // The reader subscribes to no list: v1.1's lists/list.json (own and subscribed lists) has its own list only, as v2 does.
    expect(lists1.map(listFields)).toEqual((await v1('lists/list.json') as (Json & { user: Json })[]).map(listFields));
    const [posts2, posts1] = await Promise.all([read(oauth2, `/lists/${lists[oauth2]}/posts`), read(oauth1, `/lists/${lists[oauth1]}/posts`)]);
    expect(posts1).toHaveLength(3);
    expect(posts2.map(statusFields)).toEqual(posts1.map(statusFields));
    expect(posts1.map(statusFields)).toEqual((await v1('lists/statuses.json', { list_id: lists[oauth1]! }) as Status[]).map(statusFields));
    await bothCalled((me) => `/2/users/${me}/owned_lists`);
    await bothCalled((me) => `/2/lists/${lists[me]}/tweets`);
  });

  it('reads the lists the account follows through /2/users/:id/followed_lists, in the shape of lists/subscriptions', async () => {
    const [subscribed2, subscribed1] = await both('/lists/subscriptions', { count: 500 });
    expect(subscribed2).toEqual(subscribed1);
    expect(subscribed1).toEqual(await v1('lists/subscriptions.json', { count: '500' }));
    expect(subscribed2).toMatchObject({ lists: [], next_cursor_str: '0' });
    // v2 pages at most 100 lists.
    for (const reader of [oauth2, oauth1]) expect((await calledBy(reader, `/2/users/${reader}/followed_lists`)).map((entry) => entry.query.max_results)).toEqual(['100']);
  });

  it('reads DMs and one DM through /2/dm_events, as direct_messages/events give them', async () => {
    const [dms2, dms1] = await both('/direct-messages');
    const eventFields = (event: DmEvent, reader: string) => ({
      type: event.type,
      sender: event.message_create.sender_id,
      recipientIsReader: event.message_create.target.recipient_id === reader,
      text: event.message_create.message_data.text,
    });
    expect(dms2.events.map((event: DmEvent) => eventFields(event, oauth2))).toEqual(dms1.events.map((event: DmEvent) => eventFields(event, oauth1)));
    const asV1 = (await v1('direct_messages/events/list.json') as { events: DmEvent[] }).events;
    expect(dms1.events.map((event: DmEvent) => eventFields(event, oauth1))).toEqual(asV1.map((event) => eventFields(event, oauth1)));
    expect(dms2.events).toEqual([expect.objectContaining({ type: 'message_create', message_create: expect.objectContaining({ sender_id: customer }) })]);
    const eventId = dms2.events[0].id as string;
    const one = await read(oauth2, `/direct-messages/${eventId}`);
    expect(one).toEqual({ event: dms2.events[0] });
    expect(await read(oauth1, `/direct-messages/${dms1.events[0].id}`)).toEqual({ event: dms1.events[0] });
    // v2 gives times to the second, v1.1 to the millisecond.
    expect(Math.abs(Number(dms1.events[0].created_timestamp) - Number((asV1[0] as Json).created_timestamp))).toBeLessThan(1000);
    await bothCalled('/2/dm_events');
    await bothCalled((me) => `/2/dm_events/${me === oauth2 ? eventId : dms1.events[0].id}`);
    const missing = await h.crm.get(`/v1/accounts/${oauth2}/direct-messages/1234567890123`);
    expect(missing.status).toBe(404);
    expect(missing.data.error.code).toBe('platform_rejected');
  });

  it('searches recent posts through /2/tweets/search/recent', async () => {
    const [found2, found1] = await both('/search', { query: 'quokkaparcel' });
    expect(found1.statuses).toHaveLength(2);
    expect(found2.statuses.map(statusFields)).toEqual(found1.statuses.map(statusFields));
    const asV1 = (await v1('search/tweets.json', { q: 'quokkaparcel', result_type: 'recent', tweet_mode: 'extended' })) as { statuses: Status[]; search_metadata: Json };
    expect(found1.statuses.map(statusFields)).toEqual(asV1.statuses.map(statusFields));
    expect(found1.search_metadata).toMatchObject({ max_id_str: asV1.search_metadata.max_id_str, since_id_str: '0' });
    expect(found2.search_metadata).toMatchObject({ max_id_str: found1.search_metadata.max_id_str, since_id_str: '0' });
    for (const reader of [oauth2, oauth1]) {
      const [search] = await calledBy(reader, '/2/tweets/search/recent');
      expect(search!.query).toMatchObject({ query: 'quokkaparcel', max_results: '15', sort_order: 'recency' });
    }
  });

  it('never calls a v1.1 read route for the OAuth 2.0 account; a protected account it does not follow is a refusal, not a refused token', async () => {
    const locked = (await h.sim.post('/control/platform/users', { screenName: 'locked_lee', protected: true })).data.id_str as string;
    const refused = await h.crm.get(`/v1/accounts/${oauth2}/users/${locked}/timeline`);
    expect(refused.status).toBe(403);
    expect(refused.data.error).toMatchObject({ code: 'platform_rejected' });
    expect((await h.crm.get(`/v1/accounts/${oauth2}`)).data.status).toBe('connected');
    const v1Reads = (await h.platformRequests('')).filter((entry) => entry.path.startsWith('/1.1/') && entry.caller.userId === oauth2);
    expect(v1Reads).toEqual([]);
  });
});
