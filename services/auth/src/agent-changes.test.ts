/**
 * An admin changes agents: name, role, teams, deactivation and reactivation (a deactivated
 * agent cannot sign in and its sessions end, announced on access.events), a new password;
 * an agent changes its own password with the old one. Only an admin changes others, and the
 * last active admin is neither demoted nor deactivated.
 */
import amqplib from 'amqplib';
import axios from 'axios';
import { Exchanges, validateEnvelope } from '@crm/contracts';
import { waitFor } from '@crm/testing';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
let listener: amqplib.ChannelModel;
/** Every id announced revoked on access.events, as a queue of the test's own hears them. */
const announced: string[] = [];
const ISSUER_TOKEN = `console-issuer-${Date.now()}-agent-changes`;
const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'another long passphrase';
const BOOTSTRAP = `bootstrap-${Date.now()}`;

const as = (token: string) => axios.create({ baseURL: h.authUrl, validateStatus: () => true, headers: { authorization: `Bearer ${token}` } });
const signIn = (email: string, password: string) => as(ISSUER_TOKEN).post('/v1/sessions', { email, password, clientAddress: '192.0.2.9' });

let adminId: string;
/** Whoever makes the agents: the bootstrap token until the first admin exists. */
let adminToken = BOOTSTRAP;

async function makeAgent(email: string, role: 'admin' | 'agent' = 'agent'): Promise<{ id: string; token: string }> {
  const made = await as(adminToken).post('/v1/agents', { email, displayName: email.split('@')[0], role, password: PASSWORD });
  expect(made.status).toBe(201);
  const session = await signIn(email, PASSWORD);
  expect(session.status).toBe(201);
  return { id: made.data.id as string, token: session.data.token as string };
}

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_agent_changes', env: { SESSION_ISSUER_TOKENS: ISSUER_TOKEN, CRM_API_TOKENS: BOOTSTRAP, AUTH_FAILURES_PER_MINUTE: '0' } });
  listener = await amqplib.connect(h.vhost.url);
  const channel = await listener.createChannel();
  const { queue } = await channel.assertQueue('', { exclusive: true });
  await channel.bindQueue(queue, Exchanges.accessEvents, '');
  await channel.consume(queue, (message) => message && announced.push((validateEnvelope(JSON.parse(message.content.toString('utf8'))).payload as { id: string }).id), { noAck: true });
  expect((await as(BOOTSTRAP).put('/v1/teams/billing', { name: 'Billing' })).status).toBe(200);
  expect((await as(BOOTSTRAP).put('/v1/teams/returns', { name: 'Returns' })).status).toBe(200);
  const admin = await makeAgent('root@example.com', 'admin');
  adminId = admin.id;
  adminToken = admin.token;
});

afterAll(async () => {
  await listener?.close();
  await h?.stop();
});

describe('an admin changes agents', () => {
  it("changes an agent's name, role and teams; the role counts at the next check and is announced", async () => {
    const bo = await makeAgent('bo@example.com');
    const changed = await as(adminToken).patch(`/v1/agents/${bo.id}`, { displayName: 'Bo Lima', role: 'admin', teams: ['billing', 'returns'] });
    expect(changed.status).toBe(200);
    expect(changed.data).toMatchObject({ id: bo.id, displayName: 'Bo Lima', role: 'admin', teams: ['billing', 'returns'], disabled: false });
    expect((await h.auth.sessions.verify(bo.token))!.scopes).toEqual(['admin']);
    await waitFor(() => announced.includes(bo.id), { what: 'the role change announced under the agent id' });
    const fewer = await as(adminToken).patch(`/v1/agents/${bo.id}`, { role: 'agent', teams: ['returns'] });
    expect(fewer.data).toMatchObject({ role: 'agent', teams: ['returns'] });
    const teams = (await as(bo.token).get('/v1/teams')).data.items as { id: string; agentIds: string[] }[];
    expect(teams.find((team) => team.id === 'billing')!.agentIds).not.toContain(bo.id);
  });

  it('deactivates an agent: its sessions end and are announced, it cannot sign in; reactivated, it can again', async () => {
    const cy = await makeAgent('cy@example.com');
    const second = (await signIn('cy@example.com', PASSWORD)).data as { token: string; grant: { sessionId: string } };
    const off = await as(adminToken).patch(`/v1/agents/${cy.id}`, { disabled: true });
    expect(off.status).toBe(200);
    expect(off.data.disabled).toBe(true);
    expect((await as(cy.token).get('/v1/agents')).status).toBe(401);
    expect(await h.auth.sessions.verify(second.token)).toBeNull();
    await waitFor(() => announced.includes(second.grant.sessionId), { what: 'the end of the deactivated agent session on access.events' });
    expect((await signIn('cy@example.com', PASSWORD)).status).toBe(401);
    const on = await as(adminToken).patch(`/v1/agents/${cy.id}`, { disabled: false });
    expect(on.data.disabled).toBe(false);
    // Ended sessions stay ended; a new sign-in works.
    expect(await h.auth.sessions.verify(second.token)).toBeNull();
    expect((await signIn('cy@example.com', PASSWORD)).status).toBe(201);
  });

  it('refuses to demote or deactivate the last active admin with 409 and a sentence, and allows it once another admin exists', async () => {
    for (const body of [{ role: 'agent' }, { disabled: true }]) {
      const refused = await as(adminToken).patch(`/v1/agents/${adminId}`, body);
      expect({ status: refused.status, code: refused.data.error.code }).toEqual({ status: 409, code: 'last_active_admin' });
      expect(refused.data.error.message).toBe('this is the last active admin; make another agent an admin first, then change this one');
    }
    const deputy = await makeAgent('deputy@example.com', 'admin');
    const demoted = await as(deputy.token).patch(`/v1/agents/${adminId}`, { role: 'agent' });
    expect(demoted.status).toBe(200);
    expect((await as(deputy.token).patch(`/v1/agents/${deputy.id}`, { disabled: true })).status).toBe(409);
    expect((await as(deputy.token).patch(`/v1/agents/${adminId}`, { role: 'admin' })).status).toBe(200);
  });

  it('answers bad changes with 400 naming each field, an unknown agent with 404, an unknown team with 400', async () => {
    const dee = await makeAgent('dee@example.com');
    const bad = await as(adminToken).patch(`/v1/agents/${dee.id}`, { displayName: '   ', role: 'owner' });
    expect(bad.status).toBe(400);
    expect(bad.data.error.fields).toEqual(expect.arrayContaining([
      expect.objectContaining({ in: 'body', field: 'role' }),
    ]));
    const blank = await as(adminToken).patch(`/v1/agents/${dee.id}`, { displayName: '   ' });
    expect(blank.data.error).toMatchObject({ code: 'invalid_agent', fields: [{ in: 'body', field: 'displayName', message: 'enter the name others see (1 to 200 characters)' }] });
    const missing = await as(adminToken).patch('/v1/agents/0000000000000000', { role: 'agent' });
    expect({ status: missing.status, code: missing.data.error.code }).toEqual({ status: 404, code: 'agent_not_found' });
    const team = await as(adminToken).patch(`/v1/agents/${dee.id}`, { teams: ['billing', 'nope'] });
    expect({ status: team.status, code: team.data.error.code }).toEqual({ status: 400, code: 'unknown_team' });
    expect((await as(adminToken).get('/v1/agents')).data.items.find((one: { id: string }) => one.id === dee.id).teams).toEqual([]);
  });

  it('lets only an admin change agents or reset a password; an agent may still list them', async () => {
    const eve = await makeAgent('eve@example.com');
    expect((await as(eve.token).get('/v1/agents')).status).toBe(200);
    for (const [method, path, body] of [
      ['patch', `/v1/agents/${eve.id}`, { role: 'admin' }],
      ['patch', `/v1/agents/${adminId}`, { disabled: true }],
      ['put', `/v1/agents/${adminId}/password`, { password: NEW_PASSWORD }],
    ] as const) {
      const refused = await as(eve.token).request({ method, url: path, data: body });
      expect({ path, status: refused.status, code: refused.data.error.code }).toEqual({ path, status: 403, code: 'missing_scope' });
    }
  });

  it('lets only one of two admins demoting each other at once succeed: one admin stays', async () => {
    const admins = ((await as(adminToken).get('/v1/agents')).data.items as { id: string; role: string; disabled: boolean }[]).filter((one) => one.role === 'admin' && !one.disabled);
    expect(admins).toHaveLength(2);
    const [first, second] = [admins[0]!, admins[1]!];
    const tokenOf = async (id: string) => (id === adminId ? adminToken : (await signIn('deputy@example.com', PASSWORD)).data.token as string);
    const [a, b] = await Promise.all([as(await tokenOf(first.id)).patch(`/v1/agents/${second.id}`, { role: 'agent' }), as(await tokenOf(second.id)).patch(`/v1/agents/${first.id}`, { role: 'agent' })]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const left = ((await as(BOOTSTRAP).get('/v1/agents')).data.items as { role: string; disabled: boolean }[]).filter((one) => one.role === 'admin' && !one.disabled);
    expect(left).toHaveLength(1);
    expect((await as(BOOTSTRAP).patch(`/v1/agents/${adminId}`, { role: 'admin' })).status).toBe(200);
  });
});

describe('passwords', () => {
  it('an admin sets a new password: the old one no longer signs in, the new one does', async () => {
    const fay = await makeAgent('fay@example.com');
    expect((await as(adminToken).put(`/v1/agents/${fay.id}/password`, { password: 'short' })).data.error).toMatchObject({ code: 'invalid_agent', fields: [{ field: 'password' }] });
    expect((await as(adminToken).put(`/v1/agents/${fay.id}/password`, { password: NEW_PASSWORD })).status).toBe(204);
    expect((await signIn('fay@example.com', PASSWORD)).status).toBe(401);
    expect((await signIn('fay@example.com', NEW_PASSWORD)).status).toBe(201);
    expect((await as(adminToken).put('/v1/agents/0000000000000000/password', { password: NEW_PASSWORD })).status).toBe(404);
  });

  it('an agent changes its own password with the current one; a wrong current one, or no agent, is refused', async () => {
    const gus = await makeAgent('gus@example.com');
    const wrong = await as(gus.token).put('/v1/me/password', { currentPassword: 'not the password', password: NEW_PASSWORD });
    expect({ status: wrong.status, code: wrong.data.error.code, fields: wrong.data.error.fields }).toEqual({ status: 400, code: 'wrong_current_password', fields: [{ in: 'body', field: 'currentPassword', message: 'the current password is not right; type it again' }] });
    expect((await as(gus.token).put('/v1/me/password', { currentPassword: PASSWORD, password: 'short' })).status).toBe(400);
    expect((await as(gus.token).put('/v1/me/password', { currentPassword: PASSWORD, password: NEW_PASSWORD })).status).toBe(204);
    expect((await signIn('gus@example.com', PASSWORD)).status).toBe(401);
    expect((await signIn('gus@example.com', NEW_PASSWORD)).status).toBe(201);
    const bootstrap = await as(BOOTSTRAP).put('/v1/me/password', { currentPassword: PASSWORD, password: NEW_PASSWORD });
    expect({ status: bootstrap.status, code: bootstrap.data.error.code }).toEqual({ status: 403, code: 'not_an_agent' });
  });
});
