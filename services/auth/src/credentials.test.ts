/**
 * API credentials: created, listed and revoked with the CLI (the token shown once, only its
 * hash stored); scopes and account limits on auth's own routes; a revoked or unknown token
 * is refused and logged; the per-credential rate limit; the append-only audit log; the
 * verification other services ask for on auth.rpc; the bootstrap tokens keep full access.
 */
import axios from 'axios';
import { CredentialVerifyRequest, Queues, SYSTEM_TOPOLOGY, type CredentialGrant } from '@crm/contracts';
import { Broker, RpcClient } from '@crm/messaging';
import { testLogger, waitFor } from '@crm/testing';
import { runCli } from './cli-commands';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_credentials', env: { API_RATE_LIMIT_PER_MINUTE: '20' } });
});

afterAll(async () => {
  await h?.stop();
});

async function cli(...argv: string[]): Promise<{ code: number; out: Record<string, unknown>; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, h.config, testLogger(), { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.length ? (JSON.parse(out.join('\n')) as Record<string, unknown>) : {}, err: err.join('\n') };
}

async function createCredential(...options: string[]): Promise<{ id: string; token: string }> {
  const made = await cli('credentials', 'create', ...options);
  expect(made.code).toBe(0);
  return { id: made.out.id as string, token: made.out.token as string };
}

const as = (token: string) => axios.create({ baseURL: h.authUrl, validateStatus: () => true, maxRedirects: 0, headers: { authorization: `Bearer ${token}` } });

describe('the credentials CLI', () => {
  it('creates a credential whose token is shown once and stored only as a hash, lists and revokes it', async () => {
    const made = await cli('credentials', 'create', '--name', 'agent desk', '--scopes', 'tickets:read,tickets:write', '--accounts', '11,12', '--tracking-clients', 'acme');
    expect(made.code).toBe(0);
    const token = made.out.token as string;
    expect(token).toMatch(/^crm_[a-z0-9]{16}_[A-Za-z0-9_-]{43}$/);
    expect(made.out).toMatchObject({ name: 'agent desk', scopes: ['tickets:read', 'tickets:write'], accountIds: ['11', '12'], trackingClientIds: ['acme'], revokedAt: null });

    const stored = (await h.auth.pool.query('SELECT * FROM api_credentials WHERE id = $1', [made.out.id])).rows[0];
    // The secret is what follows the id; base64url may itself hold '_'.
    expect(JSON.stringify(stored)).not.toContain(token.slice('crm_'.length + 16 + 1));

    const listed = await cli('credentials', 'list');
    const item = (listed.out.items as Record<string, unknown>[]).find((entry) => entry.id === made.out.id);
    expect(item).toMatchObject({ name: 'agent desk', revokedAt: null });
    expect(JSON.stringify(listed.out)).not.toContain('secret');
    expect(JSON.stringify(listed.out)).not.toContain(token);

    expect((await cli('credentials', 'revoke', made.out.id as string)).out).toEqual({ id: made.out.id, revoked: true, announcement: expect.stringContaining('queued') });
    expect((await cli('credentials', 'revoke', made.out.id as string)).code).toBe(1);
    const after = (await cli('credentials', 'list')).out.items as Record<string, unknown>[];
    expect(after.find((entry) => entry.id === made.out.id)?.revokedAt).toEqual(expect.any(String));
  });

  it('refuses an unknown scope, a missing name and malformed ids with the usage', async () => {
    const unknown = await cli('credentials', 'create', '--name', 'x', '--scopes', 'tickets:read,everything');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown: everything');
    expect((await cli('credentials', 'create', '--scopes', 'admin')).err).toContain('--name is required');
    expect((await cli('credentials', 'create', '--name', 'x', '--scopes', 'admin', '--accounts', '12,abc')).err).toContain("'abc' is not one");
    expect((await cli('credentials', 'revoke', '../etc')).code).toBe(2);
  });
});

describe('scopes and limits on auth', () => {
  it('answers 403 naming tickets:write when a read-only credential sends a DM, and lets it read', async () => {
    const accountId = await h.connect('@scoped_reader');
    const { token } = await createCredential('--name', 'reader', '--scopes', 'tickets:read');
    const reader = as(token);
    const sent = await reader.post(`/v1/accounts/${accountId}/direct-messages`, { recipientId: '42', text: 'hello' });
    expect(sent.status).toBe(403);
    expect(sent.data).toEqual({ error: { code: 'missing_scope', message: 'this credential lacks the scope tickets:write' } });
    expect((await reader.get(`/v1/accounts/${accountId}`)).status).toBe(200);
    expect((await reader.delete(`/v1/accounts/${accountId}`)).data.error.message).toBe('this credential lacks the scope accounts:manage');
    expect((await reader.get('/v1/webhooks')).data.error.code).toBe('missing_scope');
  });

  it('shows a credential limited to account A nothing of account B', async () => {
    const a = await h.connect('@limited_a');
    const b = await h.connect('@limited_b');
    const { token } = await createCredential('--name', 'desk a', '--scopes', 'tickets:read,tickets:write,accounts:manage', '--accounts', a);
    const desk = as(token);
    const listed = await desk.get('/v1/accounts');
    expect(listed.status).toBe(200);
    expect(listed.data.items.map((account: { accountId: string }) => account.accountId)).toEqual([a]);
    expect((await desk.get(`/v1/accounts/${b}`)).status).toBe(404);
    expect((await desk.get(`/v1/accounts/${b}/profile`)).status).toBe(404);
    expect((await desk.delete(`/v1/accounts/${b}`)).status).toBe(404);
    expect((await h.crm.get(`/v1/accounts/${b}`)).status).toBe(200);
    expect((await desk.get(`/v1/accounts/${a}/profile`)).status).toBe(200);
  });

  it('refuses a revoked token with 401 as soon as the revocation is announced (not only once the cached check expires), and logs the refusal at warn, without the token', async () => {
    const { id, token } = await createCredential('--name', 'leaver', '--scopes', 'admin');
    expect((await as(token).get('/v1/accounts')).status).toBe(200);
    await cli('credentials', 'revoke', id);
    const refused = (await waitFor(async () => {
      const answer = await as(token).get('/v1/accounts');
      return answer.status === 200 ? undefined : answer;
    }, { what: 'the revoked credential refused' }))!;
    expect(refused.status).toBe(401);
    expect(refused.data.error.code).toBe('unauthorized');
    expect(refused.headers['www-authenticate']).toBe('Bearer');
    // Logged before the refusal is answered.
    const logged = h.logLines.map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => entry.message === 'authentication failed' && entry.principalId === id);
    expect(logged).toMatchObject({ level: 'warn', reason: 'unknown or revoked token', path: '/v1/accounts' });
    expect(h.logLines.join('\n')).not.toContain(token);
    const forged = `${token.slice(0, -4)}AAAA`;
    expect((await as(forged).get('/v1/accounts')).status).toBe(401);
    expect((await as('crm_0000000000000000_' + 'A'.repeat(43)).get('/v1/accounts')).status).toBe(401);
  });

  it('answers 429 with Retry-After once a credential has used its requests of the minute, and not to another credential', async () => {
    const { token } = await createCredential('--name', 'busy', '--scopes', 'tickets:read');
    const busy = as(token);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) statuses.push((await busy.get('/v1/accounts')).status);
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    const limited = await busy.get('/v1/accounts');
    expect(limited.status).toBe(429);
    expect(limited.data.error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const other = await createCredential('--name', 'calm', '--scopes', 'tickets:read');
    expect((await as(other.token).get('/v1/accounts')).status).toBe(200);
    // The bootstrap token is not limited.
    for (let i = 0; i < 21; i += 1) expect((await h.crm.get('/v1/subscriptions/count')).status).not.toBe(429);
  });
});

describe('failed authentications', () => {
  it('are limited per address: past the limit a credential is refused with 429 unchecked, while the bootstrap token still passes', async () => {
    const limited = await startHarness({ prefix: 'auth_failures', env: { AUTH_FAILURES_PER_MINUTE: '3' } });
    try {
      const stdout: string[] = [];
      await runCli(['credentials', 'create', '--name', 'good', '--scopes', 'tickets:read'], limited.config, testLogger(), { out: (line) => stdout.push(line), err: () => undefined });
      const good = (JSON.parse(stdout.join('\n')) as { token: string }).token;
      const client = (token: string) => axios.create({ baseURL: limited.authUrl, validateStatus: () => true, headers: { authorization: `Bearer ${token}` } });
      for (let i = 0; i < 3; i += 1) expect((await client(`${good.slice(0, -4)}AAAA`).get('/v1/accounts')).status).toBe(401);
      const refused = await client(good).get('/v1/accounts');
      expect(refused.status).toBe(429);
      expect(refused.data.error.code).toBe('too_many_failures');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await limited.crm.get('/v1/accounts')).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});

describe('the audit log', () => {
  it('records every write with its principal, and the database refuses to change or delete a record', async () => {
    const accountId = await h.connect('@audited');
    const { id, token } = await createCredential('--name', 'auditor', '--scopes', 'tickets:read');
    const refused = await as(token).post(`/v1/accounts/${accountId}/posts`, { text: 'not allowed' });
    expect(refused.status).toBe(403);
    const requestId = refused.headers['x-request-id'] as string;
    const row = await waitFor(async () => (await h.auth.pool.query('SELECT * FROM audit_log WHERE request_id = $1', [requestId])).rows[0]);
    expect(row).toMatchObject({ principal_id: id, principal_name: 'auditor', method: 'POST', path: `/v1/accounts/${accountId}/posts`, status: 403 });

    const posted = await h.crm.post(`/v1/accounts/${accountId}/posts`, { text: 'by the bootstrap token' });
    expect(posted.status).toBe(200);
    const bootstrapRow = await waitFor(async () => (await h.auth.pool.query('SELECT * FROM audit_log WHERE request_id = $1', [posted.headers['x-request-id']])).rows[0]);
    expect(bootstrapRow).toMatchObject({ principal_id: 'bootstrap-1', status: 200 });

    await expect(h.auth.pool.query("UPDATE audit_log SET principal_id = 'someone else' WHERE id = $1", [row.id])).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(h.auth.pool.query('DELETE FROM audit_log WHERE id = $1', [row.id])).rejects.toThrow(/append-only: DELETE refused/);
    await expect(h.auth.pool.query('TRUNCATE audit_log')).rejects.toThrow(/append-only: TRUNCATE refused/);
    expect((await h.auth.pool.query('SELECT principal_id FROM audit_log WHERE id = $1', [row.id])).rows[0].principal_id).toBe(id);
    // Reads are not audited.
    const read = await h.crm.get('/v1/accounts');
    expect((await h.auth.pool.query('SELECT count(*)::int AS n FROM audit_log WHERE request_id = $1', [read.headers['x-request-id']])).rows[0].n).toBe(0);
  });
});

describe('verification for other services on auth.rpc', () => {
  it('answers the grant of a valid token and null for a revoked one', async () => {
    const broker = new Broker({ url: h.vhost.url, name: 'credentials-test', logger: testLogger() });
    const rpc = new RpcClient(broker, 'test', SYSTEM_TOPOLOGY);
    try {
      const { id, token } = await createCredential('--name', 'tracking desk', '--scopes', 'tickets:read,tracking:manage', '--tracking-clients', 'acme,beta');
      const verify = (presented: string) => rpc.call<{ token: string }, CredentialGrant | null>(Queues.authRpc, CredentialVerifyRequest, { token: presented });
      expect(await verify(token)).toEqual({ id, name: 'tracking desk', scopes: ['tickets:read', 'tracking:manage'], accountIds: null, trackingClientIds: ['acme', 'beta'] });
      await cli('credentials', 'revoke', id);
      expect(await verify(token)).toBeNull();
      expect(await verify('not-a-token')).toBeNull();
    } finally {
      await rpc.close();
      await broker.close();
    }
  });
});
