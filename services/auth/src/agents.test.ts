/**
 * Agents and teams: an admin creates them (API and CLI), whoever reads tickets lists them,
 * an agent signs in with its email and password (scrypt hash, one uniform refusal, limited
 * per client address), and its role decides its scopes, read afresh at each check.
 */
import axios from 'axios';
import { testLogger } from '@crm/testing';
import { runCli } from './cli-commands';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
const ISSUER_TOKEN = `console-issuer-${Date.now()}-agents`;
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_agents', env: { SESSION_ISSUER_TOKENS: ISSUER_TOKEN, AUTH_FAILURES_PER_MINUTE: '3' } });
});

afterAll(async () => {
  await h?.stop();
});

const as = (token: string) => axios.create({ baseURL: h.authUrl, validateStatus: () => true, headers: { authorization: `Bearer ${token}` } });
const signIn = (email: string, password: string, clientAddress: string) => as(ISSUER_TOKEN).post('/v1/sessions', { email, password, clientAddress });

async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: unknown; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const { runAgentsCli } = await import('./cli-agents');
  const io = { out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
  const code = args[0] === 'agents' || args[0] === 'teams' ? await runAgentsCli(args[0], args.slice(1), h.config, testLogger(), io, env) : await runCli(args, h.config, testLogger(), io);
  return { code, out: out.length ? JSON.parse(out.join('\n')) : null, err: err.join('\n') };
}

describe('agents and teams', () => {
  let admin: { id: string; token: string };
  let agent: { id: string; token: string };

  beforeAll(async () => {
    expect((await cli(['teams', 'save', 'billing', '--name', 'Billing'])).code).toBe(0);
    const made = await cli(['agents', 'create', '--email', 'Ana@Example.com', '--name', 'Ana Admin', '--role', 'admin'], { AGENT_PASSWORD: PASSWORD });
    expect(made.code).toBe(0);
    const adminSession = await signIn('ana@example.com', PASSWORD, '192.0.2.1');
    expect(adminSession.status).toBe(201);
    admin = { id: (made.out as { id: string }).id, token: adminSession.data.token as string };
    const created = await as(admin.token).post('/v1/agents', { email: 'bo@example.com', displayName: 'Bo Agent', teams: ['billing'], password: PASSWORD });
    expect(created.status).toBe(201);
    const agentSession = await signIn('BO@example.com ', PASSWORD, '192.0.2.1');
    expect(agentSession.status).toBe(201);
    agent = { id: created.data.id as string, token: agentSession.data.token as string };
  });

  it('keeps the password as a salted scrypt hash, never answered, and names the agent in the session', async () => {
    const { rows } = await h.auth.pool.query<{ password_hash: string }>('SELECT password_hash FROM agents ORDER BY email');
    expect(rows.map((row) => row.password_hash)).toEqual([expect.stringMatching(/^scrypt\$32768\$8\$1\$/), expect.stringMatching(/^scrypt\$32768\$8\$1\$/)]);
    expect(rows[0]!.password_hash.split('$')[4]).not.toBe(rows[1]!.password_hash.split('$')[4]);
    const listed = await as(agent.token).get('/v1/agents');
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.data)).not.toContain('scrypt');
    expect(listed.data.items).toEqual([
      expect.objectContaining({ id: admin.id, email: 'ana@example.com', displayName: 'Ana Admin', role: 'admin', teams: [] }),
      expect.objectContaining({ id: agent.id, email: 'bo@example.com', displayName: 'Bo Agent', role: 'agent', teams: ['billing'] }),
    ]);
    const teams = await as(agent.token).get('/v1/teams');
    expect(teams.data.items).toEqual([{ id: 'billing', name: 'Billing', agentIds: [agent.id] }]);
  });

  it("gives each role its scopes: an agent reads and acts on tickets but manages nothing, an admin everything", async () => {
    const grantOf = async (token: string) => (await h.auth.sessions.verify(token))!;
    expect(await grantOf(agent.token)).toMatchObject({ id: agent.id, name: 'Bo Agent', scopes: ['tickets:read', 'tickets:write'], accountIds: null, ticketIds: null });
    expect(await grantOf(admin.token)).toMatchObject({ id: admin.id, name: 'Ana Admin', scopes: ['admin'] });
    expect((await as(agent.token).get('/v1/accounts')).status).toBe(200);
    for (const [method, path, body] of [
      ['post', '/v1/agents', { email: 'x@example.com', displayName: 'X' }],
      ['put', '/v1/teams/support', { name: 'Support' }],
      ['post', '/v1/connections', {}],
      ['get', '/v1/webhooks', undefined],
    ] as const) {
      const refused = await as(agent.token).request({ method, url: path, data: body });
      expect({ path, status: refused.status, code: refused.data.error.code }).toEqual({ path, status: 403, code: 'missing_scope' });
    }
    expect((await as(admin.token).get('/v1/webhooks')).status).not.toBe(403);
  });

  it('answers bad agent input with 400 naming the field, and a taken email with 409', async () => {
    const bad = await as(admin.token).post('/v1/agents', { email: 'not-an-email', displayName: 'C', password: 'short' });
    expect(bad.status).toBe(400);
    expect(bad.data.error.code).toBe('invalid_agent');
    expect(bad.data.error.message).toContain('email: enter an email address');
    expect(bad.data.error.message).toContain('password: choose a password of 12 to 256 characters');
    const taken = await as(admin.token).post('/v1/agents', { email: 'ANA@example.com', displayName: 'Another Ana' });
    expect({ status: taken.status, code: taken.data.error.code }).toEqual({ status: 409, code: 'agent_exists' });
    const team = await as(admin.token).post('/v1/agents', { email: 'cy@example.com', displayName: 'Cy', teams: ['nope'] });
    expect({ status: team.status, code: team.data.error.code }).toEqual({ status: 400, code: 'unknown_team' });
  });

  it('refuses a wrong password and an unknown email with one and the same answer, then limits the address', async () => {
    const wrongPassword = await signIn('bo@example.com', 'not the password', '192.0.2.50');
    const unknownEmail = await signIn('nobody@example.com', PASSWORD, '192.0.2.50');
    const noPasswordYet = await as(admin.token).post('/v1/agents', { email: 'dee@example.com', displayName: 'Dee' });
    expect(noPasswordYet.status).toBe(201);
    const withoutPassword = await signIn('dee@example.com', PASSWORD, '192.0.2.50');
    for (const refused of [wrongPassword, unknownEmail]) expect({ status: refused.status, body: refused.data }).toEqual({ status: 401, body: { error: { code: 'invalid_credential', message: 'the email or password is not right; check both and try again' } } });
    expect(withoutPassword.status).toBe(401);
    // Three failures from that address: the good password is refused there, unchecked, and accepted elsewhere.
    const blocked = await signIn('bo@example.com', PASSWORD, '192.0.2.50');
    expect({ status: blocked.status, code: blocked.data.error.code }).toEqual({ status: 429, code: 'too_many_failures' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn('bo@example.com', PASSWORD, '192.0.2.51')).status).toBe(201);
  });

  it('reads the role afresh: a demoted admin loses admin at the next check, a disabled agent its sessions', async () => {
    const made = await as(admin.token).post('/v1/agents', { email: 'eve@example.com', displayName: 'Eve', role: 'admin', password: PASSWORD });
    const session = (await signIn('eve@example.com', PASSWORD, '192.0.2.60')).data.token as string;
    expect((await h.auth.sessions.verify(session))!.scopes).toEqual(['admin']);
    await h.auth.pool.query("UPDATE agents SET role = 'agent' WHERE id = $1", [made.data.id]);
    expect((await h.auth.sessions.verify(session))!.scopes).toEqual(['tickets:read', 'tickets:write']);
    await h.auth.pool.query('UPDATE agents SET disabled_at = now() WHERE id = $1', [made.data.id]);
    expect(await h.auth.sessions.verify(session)).toBeNull();
    expect((await signIn('eve@example.com', PASSWORD, '192.0.2.60')).status).toBe(401);
  });

  it("names the agent in a launch session: a known one by external id or email, an unknown one created as an agent", async () => {
    const ticketId = '5b0c7a3e-5d1e-4c47-9d9b-1f2a3b4c5d6e';
    const known = await as(ISSUER_TOKEN).post('/v1/sessions', { launch: { ticketId, agent: { email: 'bo@example.com' } } });
    expect(known.status).toBe(201);
    expect(known.data.grant).toMatchObject({ id: agent.id, name: 'Bo Agent', ticketIds: [ticketId], scopes: ['tickets:read', 'tickets:write'] });
    const fresh = await as(ISSUER_TOKEN).post('/v1/sessions', { launch: { ticketId, agent: { externalId: 'crm-user-77', email: 'fay@example.com', displayName: 'Fay' } } });
    expect(fresh.status).toBe(201);
    const listed = (await as(admin.token).get('/v1/agents')).data.items as { id: string; email: string; role: string; externalId: string | null }[];
    expect(listed.find((one) => one.id === fresh.data.grant.id)).toMatchObject({ email: 'fay@example.com', role: 'agent', externalId: 'crm-user-77' });
    const again = await as(ISSUER_TOKEN).post('/v1/sessions', { launch: { ticketId, agent: { externalId: 'crm-user-77' } } });
    expect(again.data.grant.id).toBe(fresh.data.grant.id);
    const nameless = await as(ISSUER_TOKEN).post('/v1/sessions', { launch: { ticketId, agent: { externalId: 'crm-user-78' } } });
    expect({ status: nameless.status, code: nameless.data.error.code }).toEqual({ status: 400, code: 'invalid_launch_agent' });
  });
});
