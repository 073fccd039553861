import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import axios from 'axios';
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
    const list = `${base}/1.1/account_activity/all/test/webhooks.json`;
    const asUser = await http.get(list, { headers: { authorization: oauthHeader('GET', list, [], { token }) } });
    expect(asUser.status).toBe(403);
    expect(asUser.data.errors[0].code).toBe(220);

    const basic = `Basic ${Buffer.from(`${KEY}:${SECRET}`).toString('base64')}`;
    const issued = await http.post(`${base}/oauth2/token`, 'grant_type=client_credentials', { headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' } });
    expect(issued.data).toMatchObject({ token_type: 'bearer', access_token: expect.any(String) });
    const asApp = await http.get(`${base}/1.1/account/verify_credentials.json`, { headers: { authorization: `Bearer ${issued.data.access_token}` } });
    expect(asApp.status).toBe(403);
    expect(asApp.data.errors[0].code).toBe(220);
    expect((await http.get(list, { headers: { authorization: `Bearer ${issued.data.access_token}` } })).status).toBe(200);
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
});
