/**
 * The console server on its own: signed tokens, the account list, its configuration rules,
 * and its relays, against a stand-in for ticketing at the edge (a small HTTP server playing
 * the endpoints another branch is building: the event stream and the rule tester) that also
 * plays auth's connection start, to see what the console sends it. The browser test
 * (console.browser.test.ts) runs the same relays against the real services.
 */
import type { Server } from 'node:http';
import express from 'express';
import { ConfigError } from '@crm/config';
import { closeServer, listen, portOf } from '@crm/http';
import { testLogger } from '@crm/testing';
import { readConfig } from './config';
import { mergeAccounts } from './domain/accounts';
import { csrfTokenOf, sameCsrf, sign, verify } from './domain/signed';
import { startConsole, type RunningConsole } from './service';

const SECRET = 'a-test-session-secret-of-enough-length-0123';
const TOKEN = 'agent-token-1';

describe('signed tokens', () => {
  it('accepts its own token for its purpose until it expires, and nothing altered', () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    const token = sign(SECRET, 'launch', { exp, ticketId: 't-1' });
    expect(verify(SECRET, 'launch', token)).toMatchObject({ ticketId: 't-1', exp });
    expect(verify(SECRET, 'session', token)).toBeNull();
    expect(verify('another-secret-of-enough-length-000000000', 'launch', token)).toBeNull();
    expect(verify(SECRET, 'launch', token, (exp + 1) * 1000)).toBeNull();
    const [body, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ exp, ticketId: 't-2', jti: 'x' })).toString('base64url');
    expect(verify(SECRET, 'launch', `${forged}.${mac}`)).toBeNull();
    expect(verify(SECRET, 'launch', `${body}.${mac}.extra`)).toBeNull();
    expect(sameCsrf(SECRET, 'session-1', csrfTokenOf(SECRET, 'session-1'))).toBe(true);
    expect(sameCsrf(SECRET, 'session-2', csrfTokenOf(SECRET, 'session-1'))).toBe(false);
  });
});

describe('the account list', () => {
  it("merges auth's and ticketing's views with the configurations; masks keys; an invalid webhook shows", () => {
    const auth = { items: [{ accountId: '1', screenName: 'acme', status: 'connected', consumerKey: 'consumer-key-123456', accessTokenMasked: 'abcd…wxyz' }] };
    const ticketing = { items: [{ accountId: '2', screenName: 'old', status: 'revoked', consumerKey: null, accessToken: null }] };
    const configs = { items: [{ pageId: '1', pageName: 'Acme' }, { pageId: '3', pageName: 'Later', accountStatus: null }] };
    const views = mergeAccounts(auth, ticketing, configs, { items: [{ valid: false }] });
    expect(views.map((v) => [v.accountId, v.state, v.configured])).toEqual([
      ['1', 'webhook_invalid', true],
      ['2', 'revoked', false],
      ['3', 'unknown', true],
    ]);
    expect(views[0]).toMatchObject({ consumerKey: 'cons…3456', accessToken: 'abcd…wxyz', pageName: 'Acme' });
  });

  it("shows auth's protocol and ticketing's silence alarm", () => {
    const silence = { silentSince: '2026-11-25T08:00:00.000Z', detectedAt: '2026-11-25T09:01:00.000Z' };
    const auth = { items: [{ accountId: '1', status: 'connected', protocol: 'oauth2' }, { accountId: '2', status: 'connected', protocol: 'oauth1' }] };
    const ticketing = { items: [{ accountId: '1', status: 'connected', silence }, { accountId: '2', status: 'connected', silence: null }, { accountId: '3', status: 'connected' }] };
    const views = mergeAccounts(auth, ticketing, { items: [] }, null);
    expect(views.map((v) => [v.accountId, v.protocol, v.silence])).toEqual([
      ['1', 'oauth2', silence],
      ['2', 'oauth1', null],
      ['3', null, null],
    ]);
  });
});

describe('configuration', () => {
  it('refuses to start in production without its secrets, naming them', () => {
    expect(() => readConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    try {
      readConfig({ NODE_ENV: 'production' });
    } catch (error) {
      for (const name of ['SERVICE_TOKEN', 'CRM_API_TOKENS', 'SESSION_SECRET', 'TICKETING_URL']) expect((error as Error).message).toContain(name);
    }
    expect(() => readConfig({ NODE_ENV: 'production', SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET must be at least 32 characters/);
  });

  it('accepts the local development values only in development and test', async () => {
    expect(() => readConfig({ NODE_ENV: 'staging', PORT: '0' })).toThrow(/SESSION_SECRET is missing.*NODE_ENV is "staging"/);
    // Values read for a test, started elsewhere: the service refuses them too.
    const config = readConfig({ NODE_ENV: 'test', PORT: '0' });
    await expect(startConsole(config, { logger: testLogger(), nodeEnv: 'staging' })).rejects.toThrow(/only with NODE_ENV development or test/);
  });
});

/** ticketing (and auth) at the edge: accepts one token, streams two events, answers the rule tester when asked to, starts connections. */
function fakeTicketing(routeTest: { enabled: boolean }, connections: string[]) {
  const app = express();
  app.use(express.json());
  app.use((req, res, next) => (req.get('authorization') === `Bearer ${TOKEN}` || req.get('authorization') === 'Bearer service' ? next() : res.status(401).json({ error: { code: 'unauthorized', message: 'no' } })));
  app.get('/v1/accounts', (_req, res) => res.json({ items: [] }));
  app.get('/v1/events', (_req, res) => {
    res.set('content-type', 'text/event-stream').flushHeaders();
    res.write('event: ticket.created\ndata: {"ticketId":"t-1"}\n\n');
    res.write('event: ticket.updated\ndata: {"ticketId": "t-1", "status": "pending"}\n\n');
    res.write('event: ticket.activity\ndata: {"ticketId":"t-2"}\n\n');
  });
  // auth's POST /v1/connections: notes the query it was given (the console sends no body).
  app.post('/v1/connections', (req, res) => {
    connections.push(req.originalUrl);
    res.status(201).json({ authorizeUrl: `https://auth.example/v1/oauth/start?link=${connections.length}`, expiresAt: new Date(Date.now() + 600_000).toISOString() });
  });
  app.post('/v1/partner-configs/:pageId/route-test', (req, res) => {
    if (!routeTest.enabled) return res.status(404).json({ error: { code: 'not_found', message: 'no route' } });
    res.json({ rule: 'Orders', queue: 'deliveries', folder: 'orders', echo: req.body });
  });
  return app;
}

describe('the server', () => {
  const routeTest = { enabled: false };
  const connections: string[] = [];
  let ticketing: Server;
  let running: RunningConsole;
  let cookie = '';
  let csrf = '';

  beforeAll(async () => {
    ticketing = await listen(fakeTicketing(routeTest, connections), 0, '127.0.0.1');
    const upstream = `http://127.0.0.1:${portOf(ticketing)}`;
    const config = readConfig({ NODE_ENV: 'production', PORT: '0', TICKETING_URL: upstream, AUTH_URL: upstream, TRACKING_URL: upstream, SERVICE_TOKEN: 'service', CRM_API_TOKENS: 'crm', SESSION_SECRET: SECRET, FRAME_ANCESTORS: 'https://crm.example' });
    running = await startConsole(config, { logger: testLogger(), host: '127.0.0.1', nodeEnv: 'production' });
    const signedIn = await fetch(`${running.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: TOKEN }) });
    expect(signedIn.status).toBe(201);
    const setCookie = signedIn.headers.get('set-cookie')!;
    // Production with framing origins: Secure and SameSite=None, so the framed console keeps its session.
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/Secure/);
    expect(setCookie).toMatch(/SameSite=None/);
    cookie = setCookie.split(';')[0]!;
    csrf = ((await (await fetch(`${running.url}/api/session`, { headers: { cookie } })).json()) as { csrfToken: string }).csrfToken;
  });

  afterAll(async () => {
    await running?.stop();
    if (ticketing) await closeServer(ticketing);
  });

  it('allows framing by the configured origins only', async () => {
    const answer = await fetch(`${running.url}/signin`);
    expect(answer.headers.get('content-security-policy')).toContain('frame-ancestors https://crm.example');
  });

  it("relays ticketing's event stream; a launch session hears only of its ticket", async () => {
    const read = async (cookieHeader: string) => {
      const answer = await fetch(`${running.url}/api/events`, { headers: { cookie: cookieHeader } });
      expect(answer.headers.get('content-type')).toContain('text/event-stream');
      const reader = answer.body!.getReader();
      let text = '';
      while (!text.includes('t-2') && !(text.includes('pending') && cookieHeader !== cookie)) text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      return text;
    };
    const updated = 'event: ticket.updated\ndata: {"ticketId": "t-1", "status": "pending"}\n\n';
    expect(await read(cookie)).toBe(`event: ticket.created\ndata: {"ticketId":"t-1"}\n\n${updated}event: ticket.activity\ndata: {"ticketId":"t-2"}\n\n`);
    const link = await fetch(`${running.url}/v1/launch-links`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer crm' }, body: JSON.stringify({ ticketId: 't-1' }) });
    const { url } = (await link.json()) as { url: string };
    const launched = await fetch(url, { redirect: 'manual' });
    expect(launched.status).toBe(303);
    expect(launched.headers.get('location')).toBe('/embed/tickets/t-1');
    const launchCookie = launched.headers.get('set-cookie')!.split(';')[0]!;
    expect(await read(launchCookie)).toBe(`event: ticket.created\ndata: {"ticketId":"t-1"}\n\n${updated}`);
  });

  it('shows the rule tester as unavailable while ticketing lacks it, and relays its answer once it exists', async () => {
    const test = () => fetch(`${running.url}/api/partner-configs/1001/route-test`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'dm_received', text: 'order 42', sender: '@ana', lang: 'en' }) });
    routeTest.enabled = false;
    const unavailable = await test();
    expect(unavailable.status).toBe(501);
    expect(((await unavailable.json()) as { error: { code: string } }).error.code).toBe('route_test_unavailable');
    routeTest.enabled = true;
    const answered = await test();
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({ rule: 'Orders', queue: 'deliveries', echo: { text: 'order 42', sender: '@ana' } });
  });

  it("relays the connection's protocol to auth; refuses any other than oauth1 and oauth2 before calling auth", async () => {
    const connect = (query: string) => fetch(`${running.url}/api/connections${query}`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrf } });
    connections.length = 0;
    const oauth2 = await connect('?protocol=oauth2');
    expect(oauth2.status).toBe(201);
    expect(await oauth2.json()).toMatchObject({ authorizeUrl: 'https://auth.example/v1/oauth/start?link=1' });
    expect((await connect('?protocol=oauth1')).status).toBe(201);
    expect((await connect('')).status).toBe(201);
    expect(connections).toEqual(['/v1/connections?protocol=oauth2', '/v1/connections?protocol=oauth1', '/v1/connections']);

    const oauth3 = await connect('?protocol=oauth3');
    expect(oauth3.status).toBe(400);
    expect(((await oauth3.json()) as { error: unknown }).error).toMatchObject({
      code: 'invalid_parameter',
      message: 'query.protocol must be equal to one of the allowed values: oauth1, oauth2',
      fields: [{ in: 'query', field: 'protocol' }],
    });
    for (const query of ['?protocol=', '?protocol=OAUTH2', '?protocol=oauth2&protocol=oauth1']) {
      const refused = await connect(query);
      expect(refused.status).toBe(400);
      const { error } = (await refused.json()) as { error: { code: string; fields: { in: string; field: string }[] } };
      expect(error.code).toBe('invalid_parameter');
      expect(error.fields).toContainEqual(expect.objectContaining({ in: 'query', field: 'protocol' }));
    }
    expect(connections).toHaveLength(3);
    // A write like any other: without the CSRF token, refused.
    expect((await fetch(`${running.url}/api/connections?protocol=oauth2`, { method: 'POST', headers: { cookie } })).status).toBe(403);
    expect(connections).toHaveLength(3);
  });

  it('serves its OpenAPI document at /openapi.json and renders it at /docs, without a session', async () => {
    const document = await fetch(`${running.url}/openapi.json`);
    expect(document.status).toBe(200);
    expect(await document.json()).toMatchObject({ openapi: '3.1.0', info: { title: 'console' } });
    const docs = await fetch(`${running.url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('/docs/assets/swagger-ui-bundle.js');
  });

  it('refuses what its document does not allow, naming the field, before any session check or upstream call', async () => {
    const filter = await fetch(`${running.url}/api/tickets?colour=red`, { headers: { cookie } });
    expect(filter.status).toBe(400);
    expect(((await filter.json()) as { error: unknown }).error).toMatchObject({ code: 'invalid_parameter', fields: [{ in: 'query', field: 'colour' }] });
    const token = await fetch(`${running.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 7 }) });
    expect(token.status).toBe(400);
    expect(((await token.json()) as { error: unknown }).error).toMatchObject({ code: 'invalid_credential', message: 'body.token must be string' });
    const launch = await fetch(`${running.url}/v1/launch-links`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer crm' }, body: '{}' });
    expect(((await launch.json()) as { error: unknown }).error).toMatchObject({ code: 'invalid_launch', message: 'body.ticketId is required' });
    expect((await fetch(`${running.url}/api/tickets/t-1/history`, { headers: { cookie } })).status).toBe(404);
    expect((await fetch(`${running.url}/api/accounts`, { method: 'DELETE', headers: { cookie, 'x-csrf-token': csrf } })).status).toBe(405);
  });

  it('answers bad input with a clear 4xx', async () => {
    const badId = await fetch(`${running.url}/api/tickets/bad%20id`, { headers: { cookie } });
    expect(badId.status).toBe(400);
    expect(((await badId.json()) as { error: unknown }).error).toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining('path.ticketId must match pattern') });
    const noSession = await fetch(`${running.url}/api/tickets`);
    expect(noSession.status).toBe(401);
    const badLaunch = await fetch(`${running.url}/launch?token=nonsense`);
    expect(badLaunch.status).toBe(401);
  });
});
