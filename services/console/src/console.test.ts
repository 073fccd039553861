/**
 * The console server against the real services (auth, ticketing, tracking, webhook-ingest and
 * the simulators, in this process on the real RabbitMQ and PostgreSQL): it acts as the agent
 * signed in, never as itself. Each finding of the security review is reproduced here: what a
 * credential gets through the console is exactly what it gets directly, sessions end at
 * sign-out, revocation and expiry, launch sessions reach their ticket only, sign-in failures
 * are limited per browser address, and framing is allowed on embed routes only.
 */
import { ConfigError } from '@crm/config';
import { testLogger, waitFor } from '@crm/testing';
import { AccountRepository } from '@crm/ticketing/src/adapters/db/accounts';
import { readConfig } from './config';
import { mergeAccounts } from './domain/accounts';
import { csrfTokenOf, sameCsrf, sign, verify } from './domain/signed';
import { startConsole } from './service';
import { CRM_TOKEN, startConsoleStack, type ConsoleStack } from './testing/stack';

const SECRET = 'a-test-session-secret-of-enough-length-0123';

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


const ACCOUNT_A = '1001';
const ACCOUNT_B = '2002';
const LAUNCH_SESSION_TTL = 300;
const RATE_LIMIT = 40;

let stack: ConsoleStack;
/** Tickets by name: `a` and `a2` of account 1001, `b` of 2002. */
const tickets: Record<string, string> = {};

beforeAll(async () => {
  stack = await startConsoleStack({
    // Production-like cookies, embedding allowed for one origin, the browser's address from X-Forwarded-For sent by a local proxy.
    console: { COOKIE_SECURE: 'true', FRAME_ANCESTORS: 'https://crm.example', TRUST_PROXY: 'loopback', LAUNCH_SESSION_TTL_SECONDS: String(LAUNCH_SESSION_TTL) },
    ticketing: { API_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) },
  });
  const accounts = new AccountRepository(stack.ticketingService.pool);
  for (const account of [ACCOUNT_A, ACCOUNT_B]) {
    await accounts.recordChange({ accountId: account, status: 'connected', at: new Date() });
    expect((await stack.ticketing.put(`/v1/partner-configs/${account}`, {})).status).toBe(201);
  }
  const dm = async (name: string, account: string, customer: string) => {
    const sent = await stack.social.post('/control/direct-messages', { from: { id: customer, screenName: `c${customer}`, name: `Customer ${customer}` }, to: account, text: `where is my order (${name})?` });
    expect(sent.data.webhookStatus).toBe(200);
    await waitFor(async () => {
      const { data } = await stack.ticketing.get(`/v1/tickets?accountId=${account}`);
      const found = (data.items as { id: string; contact: { screenName: string } }[]).find((ticket) => ticket.contact.screenName === `c${customer}`);
      if (found) tickets[name] = found.id;
      return Boolean(found);
    }, { what: `the ticket ${name}` });
  };
  await dm('a', ACCOUNT_A, '500001');
  await dm('a2', ACCOUNT_A, '500002');
  await dm('b', ACCOUNT_B, '500003');
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const consoleUrl = () => stack.console.url;
const ticketingUrl = () => String(stack.ticketing.defaults.baseURL);

interface Signed {
  cookie: string;
  csrf: string;
  setCookie: string;
}

async function signIn(token: string, forwardedFor?: string): Promise<Response> {
  return fetch(`${consoleUrl()}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) }, body: JSON.stringify({ token }) });
}

async function signedIn(token: string): Promise<Signed> {
  const answer = await signIn(token);
  expect(answer.status).toBe(201);
  const setCookie = answer.headers.get('set-cookie')!;
  const cookie = setCookie.split(';')[0]!;
  const session = await fetch(`${consoleUrl()}/api/session`, { headers: { cookie } });
  expect(session.status).toBe(200);
  return { cookie, csrf: ((await session.json()) as { csrfToken: string }).csrfToken, setCookie };
}

/** A call through the console with a session cookie (and its CSRF token on writes). */
async function viaConsole(session: Signed, method: string, path: string, body?: unknown): Promise<{ status: number; body: { error?: { code: string; message: string } } & Record<string, unknown>; headers: Headers }> {
  const headers: Record<string, string> = { cookie: session.cookie, 'x-csrf-token': session.csrf };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const answer = await fetch(`${consoleUrl()}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await answer.text();
  return { status: answer.status, body: text ? JSON.parse(text) : {}, headers: answer.headers };
}

/** The same call made directly to ticketing (or auth) with the credential. */
async function direct(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<number> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return (await fetch(`${baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })).status;
}

/** Reads a server-sent events body until `done(text)` or the stream ends; `ended` tells which. */
async function readEvents(answer: Response, done: (text: string) => boolean, timeoutMs = 10_000): Promise<{ text: string; ended: boolean }> {
  const reader = answer.body!.getReader();
  let text = '';
  const deadline = Date.now() + timeoutMs;
  while (!done(text)) {
    const chunk = await Promise.race([reader.read(), new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.max(0, deadline - Date.now())))]);
    if (chunk === null) throw new Error(`the event stream did not deliver in time; it held: ${text}`);
    if (chunk.done) return { text, ended: true };
    text += new TextDecoder().decode(chunk.value);
  }
  await reader.cancel();
  return { text, ended: false };
}

describe('framing', () => {
  it('lets the configured origins frame the embed routes only, without X-Frame-Options there; every other page is DENY', async () => {
    for (const path of ['/embed/tickets/t-1', '/launch?token=nonsense']) {
      const answer = await fetch(`${consoleUrl()}${path}`, { redirect: 'manual' });
      expect(answer.headers.get('content-security-policy')).toContain('frame-ancestors https://crm.example');
      expect(answer.headers.get('x-frame-options')).toBeNull();
    }
    for (const path of ['/inbox', '/signin', '/api/session', '/']) {
      const answer = await fetch(`${consoleUrl()}${path}`);
      expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
    }
  });
});

describe('sign-in', () => {
  it('answers 400 invalid_token, in words, for a credential with characters no credential has (never a 502)', async () => {
    for (const token of ['crm_ñandú_secret', 'local-dev\u2028token', '令牌', 'a b', '', 'x'.repeat(513)]) {
      const answer = await signIn(token);
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'invalid_token', message: expect.stringContaining('paste it again') });
    }
    const notAString = await signIn(7 as unknown as string);
    expect(notAString.status).toBe(400);
    expect(((await notAString.json()) as { error: { code: string } }).error.code).toBe('invalid_token');
  });

  it('keeps a session in an httpOnly, Secure, SameSite=Lax cookie holding no credential, and tells the page who signed in', async () => {
    const reader = await stack.credentials.create({ name: 'desk reader', scopes: ['tickets:read'], accountIds: [ACCOUNT_A] });
    const session = await signedIn(reader.token);
    expect(session.setCookie).toMatch(/HttpOnly/);
    expect(session.setCookie).toMatch(/Secure/);
    expect(session.setCookie).toMatch(/SameSite=Lax/);
    expect(session.setCookie).not.toContain(reader.token);
    // The secret is all after `crm_<id>_`: base64url, it may itself hold a `_`.
    expect(session.setCookie).not.toContain(reader.token.split('_').slice(2).join('_'));
    const maxAge = Number(/Max-Age=(\d+)/.exec(session.setCookie)![1]);
    expect(maxAge).toBeGreaterThan(8 * 3600 - 60);
    expect(maxAge).toBeLessThanOrEqual(8 * 3600);
    const info = await viaConsole(session, 'GET', '/api/session');
    expect(info.body).toMatchObject({ agent: 'desk reader', scopes: ['tickets:read'], accountIds: [ACCOUNT_A], ticketId: null, csrfToken: session.csrf });
  });

  it('counts failed sign-ins per browser address: the 61st from one address is a 429 saying when to retry, while another address still signs in', async () => {
    let refused: Response | null = null;
    for (let attempt = 0; attempt < 70 && !refused; attempt++) {
      const answer = await signIn(`crm_aaaaaaaaaaaaaaaa_${'x'.repeat(43)}`, '203.0.113.7');
      if (answer.status === 429) refused = answer;
      else expect(answer.status).toBe(401);
    }
    expect(refused).not.toBeNull();
    const retryAfter = refused!.headers.get('retry-after');
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(((await refused!.json()) as { error: unknown }).error).toEqual({ code: 'too_many_failures', message: `too many attempts; try again in ${retryAfter} s` });
    // Even a right credential waits at that address; another address is not concerned.
    expect((await signIn(CRM_TOKEN, '203.0.113.7')).status).toBe(429);
    expect((await signIn(CRM_TOKEN, '203.0.113.8')).status).toBe(201);
    expect((await signIn(CRM_TOKEN)).status).toBe(201);
  });
});

describe('a tickets:read credential limited to account 1001, through the console', () => {
  let reader: { id: string; token: string };
  let session: Signed;

  beforeAll(async () => {
    reader = await stack.credentials.create({ name: 'desk 1001', scopes: ['tickets:read'], accountIds: [ACCOUNT_A], trackingClientIds: ['acme'] });
    session = await signedIn(reader.token);
  });

  it("gets exactly what it gets directly: its own ticket; 2002's ticket 404; no partner configuration, reply, connection or other client's live view", async () => {
    expect((await viaConsole(session, 'GET', `/api/tickets/${tickets.a}`)).status).toBe(200);
    const list = await viaConsole(session, 'GET', '/api/tickets');
    expect((list.body.items as { accountId: string }[]).map((ticket) => ticket.accountId)).toEqual([ACCOUNT_A, ACCOUNT_A]);
    const other = await viaConsole(session, 'GET', `/api/tickets/${tickets.b}`);
    expect(other.status).toBe(404);
    expect(await direct(ticketingUrl(), reader.token, 'GET', `/v1/tickets/${tickets.b}`)).toBe(404);

    const config = await viaConsole(session, 'PUT', `/api/partner-configs/${ACCOUNT_B}`, { sla: { firstResponseMinutes: 1, resolutionMinutes: 2 } });
    expect([403, 404]).toContain(config.status);
    expect(await direct(ticketingUrl(), reader.token, 'PUT', `/v1/partner-configs/${ACCOUNT_B}`, { sla: { firstResponseMinutes: 1, resolutionMinutes: 2 } })).toBe(config.status);

    const reply = await viaConsole(session, 'POST', `/api/tickets/${tickets.b}/replies`, { text: 'sent as 2002' });
    expect([403, 404]).toContain(reply.status);
    expect(await direct(ticketingUrl(), reader.token, 'POST', `/v1/tickets/${tickets.b}/replies`, { text: 'sent as 2002' })).toBe(reply.status);
    const { rows } = await stack.ticketingService.pool.query("SELECT count(*)::int AS n FROM activities WHERE text = 'sent as 2002'");
    expect(rows[0].n).toBe(0);

    const connection = await viaConsole(session, 'POST', '/api/connections?protocol=oauth2');
    expect(connection.status).toBe(403);
    expect(await direct(String(stack.auth.defaults.baseURL), reader.token, 'POST', '/v1/connections?protocol=oauth2')).toBe(403);

    // 1001's ticket linked (by an admin) to an order of a tracking client this credential may not see.
    await stack.tracking.enableClient('demo');
    await stack.tracking.simTask({ clientId: 'demo', taskId: 'order-7' });
    expect((await stack.ticketing.put(`/v1/tickets/${tickets.a2}/order`, { clientId: 'demo', taskId: 'order-7' })).status).toBeLessThan(300);
    const live = await viaConsole(session, 'GET', `/api/tickets/${tickets.a2}/order/live`);
    expect(live.status).toBeGreaterThanOrEqual(400);
    expect(live.status).toBeLessThan(500);
    expect(await direct(ticketingUrl(), reader.token, 'GET', `/v1/tickets/${tickets.a2}/order/live`)).toBe(live.status);
  });

  it("hears only 1001's events on /api/events", async () => {
    const stream = await fetch(`${consoleUrl()}/api/events`, { headers: { cookie: session.cookie } });
    expect(stream.status).toBe(200);
    await stack.social.post('/control/direct-messages', { from: { id: '500003', screenName: 'c500003', name: 'Customer 500003' }, to: ACCOUNT_B, text: 'a second message to 2002' });
    await stack.social.post('/control/direct-messages', { from: { id: '500001', screenName: 'c500001', name: 'Customer 500001' }, to: ACCOUNT_A, text: 'a second message to 1001' });
    const { text } = await readEvents(stream, (received) => received.includes(tickets.a!));
    expect(text).not.toContain(tickets.b);
  });
});

describe('the services see the agent', () => {
  it("name the credential, not the console's, in the audit log of a write", async () => {
    const writer = await stack.credentials.create({ name: 'desk writer', scopes: ['tickets:read', 'tickets:write'], accountIds: [ACCOUNT_A] });
    const session = await signedIn(writer.token);
    const noted = await viaConsole(session, 'POST', `/api/tickets/${tickets.a}/notes`, { text: 'written by the desk writer' });
    expect(noted.status).toBeLessThan(300);
    const audited = async () => (await stack.ticketingService.pool.query<{ principal_id: string; principal_name: string }>('SELECT principal_id, principal_name FROM audit_log WHERE path = $1', [`/v1/tickets/${tickets.a}/notes`])).rows;
    await waitFor(async () => (await audited()).length > 0, { what: 'the audit entry' });
    expect(await audited()).toEqual([{ principal_id: writer.id, principal_name: 'desk writer' }]);
  });

  it("count the console's calls toward the credential's rate limit: a 429 comes through as a 429 with Retry-After", async () => {
    const busy = await stack.credentials.create({ name: 'busy desk', scopes: ['tickets:read'], accountIds: [ACCOUNT_A] });
    const session = await signedIn(busy.token);
    let limited: Awaited<ReturnType<typeof viaConsole>> | null = null;
    for (let call = 0; call <= RATE_LIMIT && !limited; call++) {
      const answer = await viaConsole(session, 'GET', '/api/tickets');
      if (answer.status === 429) limited = answer;
      else expect(answer.status).toBe(200);
    }
    expect(limited?.body.error?.code).toBe('rate_limited');
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    // The same credential, directly: the same count.
    expect(await direct(ticketingUrl(), busy.token, 'GET', '/v1/tickets')).toBe(429);
  });
});

describe('the end of a session', () => {
  it('comes at sign-out: a copy of the old cookie is refused afterwards', async () => {
    const agent = await stack.credentials.create({ name: 'leaving desk', scopes: ['tickets:read'], accountIds: [ACCOUNT_A] });
    const session = await signedIn(agent.token);
    expect((await viaConsole(session, 'GET', '/api/tickets')).status).toBe(200);
    const out = await viaConsole(session, 'DELETE', '/api/session');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/console_session=;/);
    // auth's announcement reaches ticketing's cache a moment after the 204.
    const after = await waitFor(async () => {
      const answer = await viaConsole(session, 'GET', '/api/tickets');
      return answer.status === 401 ? answer : undefined;
    }, { what: 'the old cookie refused', timeoutMs: 2_000 });
    if (!after) throw new Error('the old cookie was not refused');
    expect(after.body.error).toEqual({ code: 'session_ended', message: 'your session has ended; sign in again' });
    expect(after.headers.get('set-cookie')).toMatch(/console_session=;/);
    expect((await viaConsole(session, 'GET', '/api/session')).status).toBe(401);
  });

  it('comes within seconds of revoking the credential: the next call is 401 and the open event stream ends', async () => {
    const agent = await stack.credentials.create({ name: 'revoked desk', scopes: ['tickets:read'], accountIds: [ACCOUNT_A] });
    const session = await signedIn(agent.token);
    const stream = await fetch(`${consoleUrl()}/api/events`, { headers: { cookie: session.cookie } });
    expect(stream.status).toBe(200);
    const revokedAt = Date.now();
    await stack.credentials.revoke(agent.id);
    const { ended } = await readEvents(stream, () => false, 5_000).catch((error: Error) => ({ ended: false, error }));
    expect(ended).toBe(true);
    await waitFor(async () => (await viaConsole(session, 'GET', '/api/tickets')).status === 401, { what: 'the session refused', timeoutMs: 5_000 });
    expect(Date.now() - revokedAt).toBeLessThan(5_000);
    expect((await viaConsole(session, 'GET', '/api/tickets')).body.error?.code).toBe('session_ended');
  });
});

describe('a launch session', () => {
  let launch: Signed;

  beforeAll(async () => {
    const link = await fetch(`${consoleUrl()}/v1/launch-links`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${CRM_TOKEN}` }, body: JSON.stringify({ ticketId: tickets.a }) });
    expect(link.status).toBe(201);
    const { url } = (await link.json()) as { url: string };
    const opened = await fetch(url, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(`/embed/tickets/${tickets.a}`);
    const setCookie = opened.headers.get('set-cookie')!;
    const cookie = setCookie.split(';')[0]!;
    const info = (await (await fetch(`${consoleUrl()}/api/session`, { headers: { cookie } })).json()) as { csrfToken: string; ticketId: string };
    expect(info.ticketId).toBe(tickets.a);
    launch = { cookie, csrf: info.csrfToken, setCookie };
    // Single use (auth keeps the link's id, so another console replica refuses it too).
    const reused = await fetch(url, { redirect: 'manual' });
    expect(reused.status).toBe(401);
    // A person opens it: a page in plain words, not an API error.
    expect(reused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await reused.text()).toContain('<h1 style="font-size: 1.4rem">This link was used already</h1>');
  });

  it('lives no longer than its session, in a SameSite=None cookie (the CRM frames it)', () => {
    const maxAge = Number(/Max-Age=(\d+)/.exec(launch.setCookie)![1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(LAUNCH_SESSION_TTL);
    expect(launch.setCookie).toMatch(/SameSite=None/);
    expect(launch.setCookie).toMatch(/Secure/);
  });

  it('reaches its ticket only: another ticket, the list, and merging another ticket into its own are refused', async () => {
    expect((await viaConsole(launch, 'GET', `/api/tickets/${tickets.a}`)).status).toBe(200);
    for (const path of [`/api/tickets/${tickets.a2}`, `/api/tickets/${tickets.b}`, '/api/tickets', '/api/accounts']) expect((await viaConsole(launch, 'GET', path)).status).toBe(403);
    const merged = await viaConsole(launch, 'POST', `/api/tickets/${tickets.a}/merge`, { sourceIds: [tickets.a2] });
    expect(merged.status).toBe(403);
    expect((await stack.ticketing.get(`/v1/tickets/${tickets.a2}`)).data.status).not.toBe('merged');
  });

  it("hears only its ticket's events", async () => {
    const stream = await fetch(`${consoleUrl()}/api/events`, { headers: { cookie: launch.cookie } });
    expect(stream.status).toBe(200);
    await stack.social.post('/control/direct-messages', { from: { id: '500002', screenName: 'c500002', name: 'Customer 500002' }, to: ACCOUNT_A, text: 'to the other ticket' });
    await stack.social.post('/control/direct-messages', { from: { id: '500001', screenName: 'c500001', name: 'Customer 500001' }, to: ACCOUNT_A, text: 'to the launched ticket' });
    const { text } = await readEvents(stream, (received) => received.includes(tickets.a!));
    expect(text).not.toContain(tickets.a2);
  });
});

describe('requests', () => {
  let admin: Signed;

  beforeAll(async () => {
    admin = await signedIn(CRM_TOKEN);
  });

  it("relays the connection's protocol to auth; refuses any other than oauth1 and oauth2 before calling auth", async () => {
    const oauth2 = await viaConsole(admin, 'POST', '/api/connections?protocol=oauth2');
    expect(oauth2.status).toBe(201);
    expect(String(oauth2.body.authorizeUrl)).toContain('/v1/oauth');
    const oauth3 = await viaConsole(admin, 'POST', '/api/connections?protocol=oauth3');
    expect(oauth3.status).toBe(400);
    expect(oauth3.body.error).toMatchObject({ code: 'invalid_parameter', message: 'query.protocol must be equal to one of the allowed values: oauth1, oauth2', fields: [{ in: 'query', field: 'protocol' }] });
    // A write like any other: without the CSRF token, refused.
    expect((await fetch(`${consoleUrl()}/api/connections?protocol=oauth2`, { method: 'POST', headers: { cookie: admin.cookie } })).status).toBe(403);
  });

  it('serves its OpenAPI document at /openapi.json and renders it at /docs, without a session', async () => {
    const document = await fetch(`${consoleUrl()}/openapi.json`);
    expect(document.status).toBe(200);
    expect(await document.json()).toMatchObject({ openapi: '3.1.0', info: { title: 'console' } });
    const docs = await fetch(`${consoleUrl()}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('/docs/assets/swagger-ui-bundle.js');
  });

  it('refuses what its document does not allow, naming the field, before any session check or upstream call', async () => {
    const filter = await viaConsole(admin, 'GET', '/api/tickets?colour=red');
    expect(filter.status).toBe(400);
    expect(filter.body.error).toMatchObject({ code: 'invalid_parameter', fields: [{ in: 'query', field: 'colour' }] });
    const launch = await fetch(`${consoleUrl()}/v1/launch-links`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${CRM_TOKEN}` }, body: '{}' });
    expect(((await launch.json()) as { error: unknown }).error).toMatchObject({ code: 'invalid_launch', message: 'body.ticketId is required' });
    expect((await viaConsole(admin, 'GET', `/api/tickets/${tickets.a}/history`)).status).toBe(404);
    expect((await viaConsole(admin, 'DELETE', '/api/accounts')).status).toBe(405);
  });

  it('answers bad input with a clear 4xx', async () => {
    const badId = await viaConsole(admin, 'GET', '/api/tickets/bad%20id');
    expect(badId.status).toBe(400);
    expect(badId.body.error).toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining('path.ticketId must match pattern') });
    const noSession = await fetch(`${consoleUrl()}/api/tickets`);
    expect(noSession.status).toBe(401);
    expect(((await noSession.json()) as { error: { code: string } }).error.code).toBe('not_signed_in');
    expect((await fetch(`${consoleUrl()}/launch?token=nonsense`)).status).toBe(401);
  });
});
