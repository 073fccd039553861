/**
 * Sessions for the console: POST /v1/sessions issues a sign-in (an agent's credential or a
 * bootstrap token) or a launch link to a credential holding sessions:issue; the session is
 * verified on auth.rpc and on auth's own routes with the grant its credential has now;
 * DELETE /v1/sessions/current ends it and announces it on access.events; revoking the
 * credential, expiry and the purge end it too; failed sign-ins are limited per client address.
 */
import { randomUUID } from 'node:crypto';
import amqplib from 'amqplib';
import axios from 'axios';
import { CredentialVerifyRequest, Exchanges, Queues, SYSTEM_TOPOLOGY, validateEnvelope, type CredentialGrant } from '@crm/contracts';
import { Broker, RpcClient } from '@crm/messaging';
import { testLogger, waitFor } from '@crm/testing';
import { AgentStore } from './adapters/agents';
import { ApiCredentialStore } from './adapters/api-credentials';
import { AuthEvents } from './adapters/events';
import { SessionStore } from './adapters/sessions';
import { runCli } from './cli-commands';
import { SessionService } from './operations/sessions';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
let broker: Broker;
let rpc: RpcClient;
/** Every id announced revoked on access.events, as a queue of the test's own hears them. */
const announced: string[] = [];
let listener: amqplib.ChannelModel;

/** The console's token as a deployment configures it: in SESSION_ISSUER_TOKENS, not in CRM_API_TOKENS. */
const ISSUER_TOKEN = `console-issuer-${Date.now()}-token`;

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_sessions', env: { SESSION_ISSUER_TOKENS: ISSUER_TOKEN } });
  broker = new Broker({ url: h.vhost.url, name: 'sessions-test', logger: testLogger() });
  rpc = new RpcClient(broker, 'test', SYSTEM_TOPOLOGY);
  listener = await amqplib.connect(h.vhost.url);
  const channel = await listener.createChannel();
  const { queue } = await channel.assertQueue('', { exclusive: true });
  await channel.bindQueue(queue, Exchanges.accessEvents, '');
  await channel.consume(queue, (message) => message && announced.push((validateEnvelope(JSON.parse(message.content.toString('utf8'))).payload as { id: string }).id), { noAck: true });
});

afterAll(async () => {
  await rpc?.close();
  await broker?.close();
  await listener?.close();
  await h?.stop();
});

async function createCredential(harness: Harness, ...options: string[]): Promise<{ id: string; token: string }> {
  const out: string[] = [];
  expect(await runCli(['credentials', 'create', ...options], harness.config, testLogger(), { out: (line) => out.push(line), err: () => undefined })).toBe(0);
  const made = JSON.parse(out.join('\n')) as { id: string; token: string };
  return { id: made.id, token: made.token };
}

const as = (token: string, harness: Harness = h) => axios.create({ baseURL: harness.authUrl, validateStatus: () => true, maxRedirects: 0, headers: { authorization: `Bearer ${token}` } });
const verify = (token: string) => rpc.call<{ token: string }, CredentialGrant | null>(Queues.authRpc, CredentialVerifyRequest, { token });

/** The console: a credential holding sessions:issue only. */
let consoleToken: string;
const signIn = (subjectToken: string, clientAddress = '203.0.113.7', extra: Record<string, unknown> = {}) => as(consoleToken).post('/v1/sessions', { subjectToken, clientAddress, ...extra });

/** A request with `token` answered otherwise than 200, once the cached check is forgotten. */
const refusedOnceForgotten = (token: string, path = '/v1/accounts') =>
  waitFor(async () => {
    const answer = await as(token).get(path);
    return answer.status === 200 ? undefined : answer;
  }, { what: `${path} refused` });

beforeAll(async () => {
  consoleToken = (await createCredential(h, '--name', 'console', '--scopes', 'sessions:issue')).token;
});

describe('a SESSION_ISSUER_TOKENS token (the console of a deployment)', () => {
  it('issues sessions and nothing else: every other route answers 403 missing_scope', async () => {
    const agent = await createCredential(h, '--name', 'desk issuer', '--scopes', 'tickets:read');
    const issued = await as(ISSUER_TOKEN).post('/v1/sessions', { subjectToken: agent.token, clientAddress: '198.51.100.9' });
    expect(issued.status).toBe(201);
    expect((issued.data as { grant: CredentialGrant }).grant).toMatchObject({ id: agent.id, scopes: ['tickets:read'] });
    for (const [method, path] of [['get', '/v1/accounts'], ['post', '/v1/connections'], ['get', '/v1/webhooks']] as const) {
      const refused = await as(ISSUER_TOKEN)[method](path);
      expect(refused.status).toBe(403);
      expect(refused.data.error.code).toBe('missing_scope');
    }
  });
});

describe('signing an agent in (a)', () => {
  it("issues a session with a limited credential's grant, which auth.rpc and auth's routes answer as the credential's own, and stores only its secret's hash", async () => {
    const a = await h.connect('@session_a');
    const b = await h.connect('@session_b');
    const agent = await createCredential(h, '--name', 'desk a', '--scopes', 'tickets:read', '--accounts', a);
    const issued = await signIn(agent.token, '198.51.100.1', { ttlSeconds: 600 });
    expect(issued.status).toBe(201);
    const { token, expiresAt, grant } = issued.data as { token: string; expiresAt: string; grant: CredentialGrant };
    expect(token).toMatch(/^crs_[a-z0-9]{16}_[A-Za-z0-9_-]{43}$/);
    expect(grant).toEqual({ id: agent.id, name: 'desk a', scopes: ['tickets:read'], accountIds: [a], trackingClientIds: null, ticketIds: null, sessionId: token.slice(4, 20) });
    expect(Math.abs(Date.parse(expiresAt) - (Date.now() + 600_000))).toBeLessThan(10_000);

    expect(await verify(token)).toEqual(grant);
    const row = (await h.auth.pool.query('SELECT * FROM sessions WHERE id = $1', [grant.sessionId])).rows[0];
    expect(row).toMatchObject({ kind: 'credential', credential_id: agent.id, ended_at: null });
    expect(JSON.stringify(row)).not.toContain(token.slice(21));

    // The session sees what the credential sees: account b does not exist for it.
    const session = as(token);
    expect((await session.get(`/v1/accounts/${a}`)).status).toBe(200);
    for (const path of [`/v1/accounts/${b}`, `/v1/accounts/${b}/profile`]) {
      const hidden = await session.get(path);
      expect({ status: hidden.status, code: hidden.data.error.code }).toEqual({ status: 404, code: 'account_not_connected' });
      expect((await as(agent.token).get(path)).status).toBe(404);
    }
    expect((await session.get('/v1/accounts')).data.items.map((account: { accountId: string }) => account.accountId)).toEqual([a]);
    expect((await session.post(`/v1/accounts/${a}/posts`, { text: 'no' })).data.error).toEqual({ code: 'missing_scope', message: 'this credential lacks the scope tickets:write' });
  });

  it('gives a bootstrap token an admin session named as the token, which reaches admin routes', async () => {
    const issued = await signIn(h.secrets.crmToken);
    expect(issued.status).toBe(201);
    const { token, grant } = issued.data as { token: string; grant: CredentialGrant };
    expect(grant).toEqual({ id: 'bootstrap-1', name: 'CRM_API_TOKENS bootstrap token', scopes: ['admin'], accountIds: null, trackingClientIds: null, ticketIds: null, sessionId: expect.stringMatching(/^[a-z0-9]{16}$/) });
    expect(await verify(token)).toEqual(grant);
    expect((await as(token).get('/v1/webhooks')).status).toBe(200);
    // A sign-in's default lifetime is SESSION_MAX_TTL_SECONDS.
    expect(Math.abs(Date.parse(issued.data.expiresAt as string) - (Date.now() + 28_800_000))).toBeLessThan(10_000);
  });

  it("ends a bootstrap token's sessions once the token leaves CRM_API_TOKENS", async () => {
    const token = (await signIn(h.secrets.crmToken)).data.token as string;
    const { pool } = h.auth;
    // auth started again with the token replaced: the same database, another list.
    const rotated = new SessionService(
      { store: new SessionStore(pool), credentials: new ApiCredentialStore(pool), agents: new AgentStore(pool), events: new AuthEvents(pool, { kick: async () => undefined }), logger: testLogger() },
      { bootstrapTokens: ['a-new-bootstrap-token'], maxTtlSeconds: 28_800, failuresPerMinute: 0 },
    );
    expect(await rotated.verify(token)).toBeNull();
    expect(await h.auth.sessions.verify(token)).toMatchObject({ id: 'bootstrap-1' });
  });

  it('refuses unknown, forged, revoked and session subject tokens with 401 invalid_credential, and logs no token', async () => {
    const agent = await createCredential(h, '--name', 'refused', '--scopes', 'tickets:read');
    const session = (await signIn(agent.token)).data.token as string;
    for (const subject of [`${agent.token.slice(0, -4)}AAAA`, 'crm_0000000000000000_' + 'A'.repeat(43), 'not-a-token', session]) {
      const refused = await signIn(subject, '198.51.100.2');
      expect({ status: refused.status, error: refused.data.error }).toEqual({ status: 401, error: { code: 'invalid_credential', message: 'the credential is unknown or revoked' } });
    }
    expect(h.logLines.join('\n')).not.toContain(agent.token.slice(21));
    expect(h.logLines.join('\n')).not.toContain(session.slice(21));
  });

  it('answers 400 invalid_token for a subject with characters no token has or over 512 characters, and 400 for a lifetime out of range', async () => {
    for (const subject of ['crm_\u00e9t\u00e9', 'crm_\u65e5\u672c', 'crm_abc\u0007', 'crm abc', 'crm_\u0000', 'x'.repeat(513), 'crm_\u{1F600}']) {
      const refused = await signIn(subject);
      expect({ status: refused.status, error: refused.data.error }).toEqual({ status: 400, error: { code: 'invalid_token', message: 'the credential holds characters no credential has; paste it again' } });
    }
    const tooLong = await signIn(h.secrets.crmToken, '203.0.113.7', { ttlSeconds: 28_801 });
    expect({ status: tooLong.status, code: tooLong.data.error.code, message: tooLong.data.error.message }).toEqual({ status: 400, code: 'invalid_request', message: 'ttlSeconds must be a whole number from 60 to 28800' });
    expect((await signIn(h.secrets.crmToken, '203.0.113.7', { ttlSeconds: 59 })).data.error.code).toBe('invalid_request');
    expect((await as(consoleToken).post('/v1/sessions', { subjectToken: h.secrets.crmToken })).data.error.code).toBe('invalid_request');
  });

  it('refuses to issue for a credential without sessions:issue, and for any session (even of an admin credential)', async () => {
    const agent = await createCredential(h, '--name', 'agent', '--scopes', 'tickets:read,tickets:write');
    const noScope = await as(agent.token).post('/v1/sessions', { subjectToken: agent.token, clientAddress: '203.0.113.9' });
    expect({ status: noScope.status, error: noScope.data.error }).toEqual({ status: 403, error: { code: 'missing_scope', message: 'this credential lacks the scope sessions:issue' } });

    const admin = await createCredential(h, '--name', 'an admin', '--scopes', 'admin');
    const adminSession = (await signIn(admin.token)).data.token as string;
    for (const request of [{ subjectToken: admin.token, clientAddress: '203.0.113.9' }, { launch: { ticketId: randomUUID() } }]) {
      const refused = await as(adminSession).post('/v1/sessions', request);
      expect({ status: refused.status, code: refused.data.error.code }).toEqual({ status: 403, code: 'missing_scope' });
    }
    const bootstrapSession = (await signIn(h.secrets.crmToken)).data.token as string;
    expect((await as(bootstrapSession).post('/v1/sessions', { launch: { ticketId: randomUUID() } })).status).toBe(403);
    // The bootstrap token itself holds every scope.
    expect((await h.crm.post('/v1/sessions', { launch: { ticketId: randomUUID() } })).status).toBe(201);
  });
});

describe('launch links (b)', () => {
  it('issues a session for one ticket that verifies with that ticket only, reaches nothing of auth, and may end itself', async () => {
    const ticketId = randomUUID();
    const issued = await as(consoleToken).post('/v1/sessions', { launch: { ticketId } });
    expect(issued.status).toBe(201);
    const { token, grant, expiresAt } = issued.data as { token: string; grant: CredentialGrant; expiresAt: string };
    const sessionId = token.slice(4, 20);
    expect(grant).toEqual({ id: `launch-${sessionId}`, name: `launch link for ticket ${ticketId}`, scopes: ['tickets:read', 'tickets:write'], accountIds: null, trackingClientIds: null, ticketIds: [ticketId], sessionId });
    expect(Math.abs(Date.parse(expiresAt) - (Date.now() + 1_800_000))).toBeLessThan(10_000);
    expect(await verify(token)).toEqual(grant);

    const accountId = await h.connect('@launch_acct');
    for (const request of [() => as(token).get('/v1/accounts'), () => as(token).get(`/v1/accounts/${accountId}/profile`), () => as(token).post(`/v1/accounts/${accountId}/posts`, { text: 'no' })]) {
      const refused = await request();
      expect({ status: refused.status, error: refused.data.error }).toEqual({ status: 403, error: { code: 'outside_ticket_scope', message: 'this session was opened for one ticket and reaches nothing else here' } });
    }
    expect((await as(token).delete('/v1/sessions/current')).status).toBe(204);
    expect(await verify(token)).toBeNull();
  });

  it('opens one session per link id, whichever console replica asks: the second is 409 launch_link_used', async () => {
    const launch = { ticketId: randomUUID(), linkId: `link_${randomUUID().slice(0, 8)}` };
    expect((await as(consoleToken).post('/v1/sessions', { launch })).status).toBe(201);
    const again = await as(consoleToken).post('/v1/sessions', { launch });
    expect({ status: again.status, code: again.data.error.code }).toEqual({ status: 409, code: 'launch_link_used' });
    expect((await as(consoleToken).post('/v1/sessions', { launch: { ...launch, linkId: `${launch.linkId}x` } })).status).toBe(201);
  });

  it('refuses a ticket id that is not one, and a lifetime out of range', async () => {
    expect((await as(consoleToken).post('/v1/sessions', { launch: { ticketId: '../1' } })).data.error.code).toBe('invalid_request');
    expect((await as(consoleToken).post('/v1/sessions', { launch: { ticketId: randomUUID() }, ttlSeconds: 30_000 })).status).toBe(400);
    expect((await as(consoleToken).post('/v1/sessions', { launch: { ticketId: randomUUID() }, subjectToken: 'x', clientAddress: 'y' })).status).toBe(400);
  });
});

describe('ending a session', () => {
  it('DELETE /v1/sessions/current ends it at once, announces auth.credential.revoked.v1 with its id, and a second DELETE is 401', async () => {
    const agent = await createCredential(h, '--name', 'signing out', '--scopes', 'tickets:read');
    const token = (await signIn(agent.token)).data.token as string;
    const sessionId = token.slice(4, 20);
    expect((await as(token).get('/v1/accounts')).status).toBe(200);

    const ended = await as(token).delete('/v1/sessions/current');
    expect(ended.status).toBe(204);
    await waitFor(() => announced.includes(sessionId), { what: 'the revocation of the session on access.events' });
    expect(await verify(token)).toBeNull();
    const refused = await refusedOnceForgotten(token);
    expect({ status: refused!.status, code: refused!.data.error.code }).toEqual({ status: 401, code: 'unauthorized' });
    expect((await as(token).delete('/v1/sessions/current')).status).toBe(401);
    // The credential itself, and its other sessions, are untouched.
    expect((await as(agent.token).get('/v1/accounts')).status).toBe(200);
    const other = (await signIn(agent.token)).data.token as string;
    expect((await as(other).get('/v1/accounts')).status).toBe(200);
    expect((await h.auth.pool.query('SELECT ended_at FROM sessions WHERE id = $1', [sessionId])).rows[0].ended_at).toEqual(expect.any(Date));
  });

  it('answers 400 not_a_session for a credential or bootstrap token', async () => {
    const agent = await createCredential(h, '--name', 'not a session', '--scopes', 'tickets:read');
    for (const client of [as(agent.token), h.crm]) {
      const refused = await client.delete('/v1/sessions/current');
      expect({ status: refused.status, code: refused.data.error.code }).toEqual({ status: 400, code: 'not_a_session' });
    }
  });

  it('revoking the credential (the CLI) ends every session of it at once', async () => {
    const agent = await createCredential(h, '--name', 'leaver', '--scopes', 'tickets:read');
    const sessions = [(await signIn(agent.token)).data.token as string, (await signIn(agent.token)).data.token as string];
    for (const token of sessions) expect((await as(token).get('/v1/accounts')).status).toBe(200);
    const out: string[] = [];
    await runCli(['credentials', 'revoke', agent.id], h.config, testLogger(), { out: (line) => out.push(line), err: () => undefined });
    expect(JSON.parse(out.join('\n'))).toEqual({ id: agent.id, revoked: true, announcement: expect.stringContaining('queued') });
    // The CLI queued it in auth's outbox; the running auth's relay announces it.
    await waitFor(() => announced.includes(agent.id), { what: 'the revocation announced on access.events', timeoutMs: 5_000 });
    for (const token of sessions) {
      expect(await verify(token)).toBeNull();
      expect((await refusedOnceForgotten(token))!.status).toBe(401);
    }
    expect((await signIn(agent.token)).status).toBe(401);
  });

  it('takes the credential’s current scopes and limits at every check', async () => {
    const agent = await createCredential(h, '--name', 'changing', '--scopes', 'tickets:read', '--accounts', '1001');
    const token = (await signIn(agent.token)).data.token as string;
    await h.auth.pool.query("UPDATE api_credentials SET scopes = '{tickets:read,tickets:write}', account_ids = '{1001,2002}' WHERE id = $1", [agent.id]);
    expect(await verify(token)).toMatchObject({ id: agent.id, scopes: ['tickets:read', 'tickets:write'], accountIds: ['1001', '2002'] });
  });

  it('an expired session verifies null, and the purge deletes what ended or expired more than a day ago', async () => {
    const agent = await createCredential(h, '--name', 'expiring', '--scopes', 'tickets:read');
    const [expired, old, recent, live] = await Promise.all([0, 1, 2, 3].map(async () => (await signIn(agent.token, '203.0.113.7', { ttlSeconds: 60 })).data.token as string));
    const id = (token: string) => token.slice(4, 20);
    await h.auth.pool.query("UPDATE sessions SET created_at = now() - interval '2 hours', expires_at = now() - interval '1 second' WHERE id = $1", [id(expired!)]);
    await h.auth.pool.query("UPDATE sessions SET created_at = now() - interval '3 days', expires_at = now() - interval '2 days' WHERE id = $1", [id(old!)]);
    await h.auth.pool.query("UPDATE sessions SET ended_at = now() - interval '2 hours' WHERE id = $1", [id(recent!)]);
    expect(await verify(expired!)).toBeNull();
    expect(await verify(live!)).toMatchObject({ id: agent.id, sessionId: id(live!) });
    expect((await as(expired!).get('/v1/accounts')).status).toBe(401);

    expect(await h.auth.sessions.purgeOld()).toBeGreaterThanOrEqual(1);
    const left = (await h.auth.pool.query('SELECT id FROM sessions WHERE id = ANY($1)', [[expired, old, recent, live].map((token) => id(token!))])).rows.map((row: { id: string }) => row.id);
    expect(left.sort()).toEqual([id(expired!), id(recent!), id(live!)].sort());
  });
});

describe('failed sign-ins', () => {
  it('are limited per clientAddress: past AUTH_FAILURES_PER_MINUTE that address gets 429 with Retry-After, even with a good token, while another address signs in', async () => {
    const limited = await startHarness({ prefix: 'auth_sessions_failures', env: { AUTH_FAILURES_PER_MINUTE: '3' } });
    try {
      const consoleCredential = (await createCredential(limited, '--name', 'console', '--scopes', 'sessions:issue')).token;
      const agent = (await createCredential(limited, '--name', 'agent', '--scopes', 'tickets:read')).token;
      const post = (subjectToken: string, clientAddress: string) => as(consoleCredential, limited).post('/v1/sessions', { subjectToken, clientAddress });
      for (let i = 0; i < 3; i += 1) expect((await post(`${agent.slice(0, -4)}AAAA`, '192.0.2.66')).status).toBe(401);
      const blocked = await post(agent, '192.0.2.66');
      expect({ status: blocked.status, code: blocked.data.error.code }).toEqual({ status: 429, code: 'too_many_failures' });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect((await post(agent, '192.0.2.67')).status).toBe(201);
      // The console's own requests (from its address to auth) are not what failed: it still works.
      expect((await as(consoleCredential, limited).post('/v1/sessions', { launch: { ticketId: randomUUID() } })).status).toBe(201);
    } finally {
      await limited.stop();
    }
  });
});
