/**
 * Access to ticketing's API with API credentials, verified by an RPC to auth (played here
 * by a stand-in on `auth.rpc` that knows a few grants): scopes, account limits, revocation,
 * the cache of verifications and the audit log of writes. The bootstrap token
 * (CRM_API_TOKENS) is what every other test of ticketing uses.
 */
import pg from 'pg';
import { startCredentialStandIn, type CredentialStandIn } from '@crm/access/src/testing';
import { directMessageReceived } from '@crm/social-platform-simulator/src/deliveries';
import { capturingLogger, freshDatabase, freshVirtualHost, testLogger, waitFor, type TestDatabase, type TestVirtualHost, testPool } from '@crm/testing';
import { AccountRepository } from './adapters/db/accounts';
import { startTicketing, type RunningTicketing } from './service';
import { apiClient, HandledMessages, TestPublisher, testConfig } from './testing/harness';

let vhost: TestVirtualHost;
let db: TestDatabase;
let service: RunningTicketing;
let publisher: TestPublisher;
let pool: pg.Pool;
let logLines: string[];
let auth: CredentialStandIn;
const handled = new HandledMessages();
const api = apiClient(() => `http://127.0.0.1:${service.port}`);
const credential = (...args: Parameters<CredentialStandIn['credential']>) => auth.credential(...args);

const ACCOUNT_A = '31000001';
const ACCOUNT_B = '31000002';
const ANA = { id: '3001969357', screenName: 'ana', name: 'Ana Lima' };
const tickets: Record<string, string> = {};

beforeAll(async () => {
  [vhost, db] = await Promise.all([freshVirtualHost('ticketing_access'), freshDatabase('ticketing_access')]);
  auth = await startCredentialStandIn(vhost.url, testLogger());
  const captured = capturingLogger('ticketing');
  logLines = captured.lines;
  service = await startTicketing(testConfig({ AMQP_URL: vhost.url, DATABASE_URL: db.url }), { logger: captured.logger, host: '127.0.0.1', onHandled: handled.note });
  publisher = new TestPublisher(vhost.url);
  await publisher.ready();
  pool = testPool(db.url, { max: 2 });
  for (const [account, eventId] of [[ACCOUNT_A, '910001'], [ACCOUNT_B, '910002']] as const) {
    await new AccountRepository(pool).recordChange({ accountId: account, status: 'connected', at: new Date() });
    expect((await api.put(`/v1/partner-configs/${account}`, {})).status).toBe(201);
    await handled.wait(await publisher.delivery(directMessageReceived({ account, customer: ANA, text: `order ${eventId}?`, eventId })));
    const list = await api.get<{ items: { id: string }[] }>(`/v1/tickets?accountId=${account}`);
    tickets[account] = list.body.items[0]!.id;
  }
});

afterAll(async () => {
  await publisher?.close();
  await service?.stop();
  await auth?.stop();
  await pool?.end();
  await Promise.all([db?.drop(), vhost?.drop()]);
});

async function post(path: string, body: unknown, token: string): Promise<{ status: number; body: { error?: { code: string; message: string } }; requestId: string | null }> {
  const response = await fetch(`http://127.0.0.1:${service.port}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { error?: { code: string; message: string } }, requestId: response.headers.get('x-request-id') };
}

describe('scopes', () => {
  it('lets a read-only credential read tickets and answers 403 naming tickets:write on a reply', async () => {
    const { token } = credential(['tickets:read']);
    expect((await api.get(`/v1/tickets/${tickets[ACCOUNT_A]}`, token)).status).toBe(200);
    const replied = await post(`/v1/tickets/${tickets[ACCOUNT_A]}/replies`, { text: 'on its way' }, token);
    expect(replied.status).toBe(403);
    expect(replied.body).toEqual({ error: { code: 'missing_scope', message: 'this credential lacks the scope tickets:write' } });
    const configured = await api.put(`/v1/partner-configs/${ACCOUNT_A}`, {}, token);
    expect(configured).toEqual({ status: 403, body: { error: { code: 'missing_scope', message: 'this credential lacks the scope accounts:manage' } } });
  });

  it('lets a tickets:write credential without tickets:read reply but not read', async () => {
    const { token } = credential(['tickets:write']);
    expect((await post(`/v1/tickets/${tickets[ACCOUNT_A]}/replies`, { text: 'on its way' }, token)).status).toBe(202);
    expect((await api.get('/v1/tickets', token)).body).toEqual({ error: { code: 'missing_scope', message: 'this credential lacks the scope tickets:read' } });
  });
});

describe('a credential limited to account A', () => {
  const limited = () => credential(['tickets:read', 'tickets:write', 'accounts:manage'], { accountIds: [ACCOUNT_A] });

  it("lists only A's tickets, contacts and accounts, and answers 404 for B's", async () => {
    const { token } = limited();
    const list = await api.get<{ items: { id: string; accountId: string }[] }>('/v1/tickets', token);
    expect(list.status).toBe(200);
    expect(list.body.items.map((ticket) => ticket.accountId)).toEqual([ACCOUNT_A]);
    expect((await api.get<{ items: unknown[] }>(`/v1/tickets?accountId=${ACCOUNT_B}`, token)).body.items).toEqual([]);
    expect((await api.get(`/v1/tickets/${tickets[ACCOUNT_B]}`, token)).status).toBe(404);
    expect((await api.get(`/v1/tickets/${tickets[ACCOUNT_A]}`, token)).status).toBe(200);
    const contacts = await api.get<{ items: { accountId: string }[] }>('/v1/contacts', token);
    expect(contacts.body.items.map((contact) => contact.accountId)).toEqual([ACCOUNT_A]);
    const accounts = await api.get<{ items: { accountId: string }[] }>('/v1/accounts', token);
    expect(accounts.body.items.map((account) => account.accountId)).toEqual([ACCOUNT_A]);
    expect((await api.get(`/v1/accounts/${ACCOUNT_B}`, token)).status).toBe(404);
    expect((await api.get(`/v1/partner-configs/${ACCOUNT_B}`, token)).status).toBe(404);
    const configs = await api.get<{ items: { pageId: string }[] }>('/v1/partner-configs', token);
    expect(configs.body.items.map((config) => config.pageId)).toEqual([ACCOUNT_A]);
    // The workspace's counts too: A's ticket only, even when B is asked for.
    expect((await api.get<{ open: number }>('/v1/ticket-counts', token)).body).toMatchObject({ open: 1, unassigned: 1, folders: [{ count: 1 }] });
    expect((await api.get<{ open: number }>(`/v1/ticket-counts?accountId=${ACCOUNT_B}`, token)).body).toEqual({ open: 0, mine: 0, unassigned: 0, breached: 0, folders: [] });
    // The bootstrap token still sees both.
    expect((await api.get<{ items: unknown[] }>('/v1/tickets')).body.items).toHaveLength(2);
    expect((await api.get<{ open: number }>('/v1/ticket-counts')).body.open).toBe(2);
  });

  it("cannot reply on, or link an order to, B's ticket (404), and nothing is sent", async () => {
    const { token } = limited();
    const replied = await post(`/v1/tickets/${tickets[ACCOUNT_B]}/replies`, { text: 'not mine' }, token);
    expect(replied.status).toBe(404);
    expect(replied.body.error?.code).toBe('ticket_not_found');
    expect((await api.put(`/v1/tickets/${tickets[ACCOUNT_B]}/order`, { clientId: 'acme', taskId: 'T-1' }, token)).status).toBe(404);
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM activities WHERE ticket_id = $1 AND text = 'not mine'", [tickets[ACCOUNT_B]]);
    expect(rows[0].n).toBe(0);
  });
});

describe('a session limited to one ticket (a launch link)', () => {
  let other: string;

  beforeAll(async () => {
    await handled.wait(await publisher.delivery(directMessageReceived({ account: ACCOUNT_A, customer: { id: '3001969358', screenName: 'bea', name: 'Bea' }, text: 'another matter', eventId: '910003' })));
    const list = await api.get<{ items: { id: string }[] }>(`/v1/tickets?accountId=${ACCOUNT_A}`);
    other = list.body.items.find((ticket) => ticket.id !== tickets[ACCOUNT_A])!.id;
  });

  it('reaches its ticket and its sub-routes, and answers 404 for another ticket of the same account', async () => {
    const { token, id, sessionId } = auth.session({ ticketIds: [tickets[ACCOUNT_A]!] });
    expect((await api.get(`/v1/tickets/${tickets[ACCOUNT_A]}`, token)).status).toBe(200);
    expect((await post(`/v1/tickets/${tickets[ACCOUNT_A]}/replies`, { text: 'from the launch link' }, token)).status).toBe(202);
    expect((await api.get('/v1/me', token)).body).toMatchObject({ id, ticketIds: [tickets[ACCOUNT_A]], sessionId, accountIds: null });
    for (const id of [other, tickets[ACCOUNT_B]]) {
      const read = await api.get<{ error: { code: string } }>(`/v1/tickets/${id}`, token);
      expect(read).toMatchObject({ status: 404, body: { error: { code: 'ticket_not_found' } } });
      expect((await post(`/v1/tickets/${id}/replies`, { text: 'not mine' }, token)).status).toBe(404);
    }
  });

  it('answers 403 outside_ticket_scope for lists, partner configurations, accounts and bulk changes', async () => {
    const { token } = auth.session({ ticketIds: [tickets[ACCOUNT_A]!] });
    for (const path of ['/v1/tickets', `/v1/tickets?accountId=${ACCOUNT_A}`, '/v1/ticket-counts', '/v1/partner-configs', `/v1/partner-configs/${ACCOUNT_A}`, '/v1/contacts', '/v1/accounts', `/v1/accounts/${ACCOUNT_A}`]) {
      const answer = await api.get<{ error: { code: string; message: string } }>(path, token);
      expect([path, answer.status, answer.body.error.code]).toEqual([path, 403, 'outside_ticket_scope']);
    }
    expect((await api.patch('/v1/tickets', { ids: [tickets[ACCOUNT_A]], change: { priority: 'high' } }, token)).status).toBe(403);
    expect((await api.put(`/v1/partner-configs/${ACCOUNT_A}`, {}, token)).status).toBe(403);
  });

  it('cannot merge another ticket into its own (404 naming the first such ticket), and the other ticket stays as it was', async () => {
    const { token } = auth.session({ ticketIds: [tickets[ACCOUNT_A]!] });
    const merged = await post(`/v1/tickets/${tickets[ACCOUNT_A]}/merge`, { sourceIds: [other] }, token);
    expect(merged.status).toBe(404);
    expect(merged.body.error).toEqual({ code: 'ticket_not_found', message: `no ticket with id '${other}'` });
    const { rows } = await pool.query<{ status: string }>('SELECT status FROM tickets WHERE id = $1', [other]);
    expect(rows[0]!.status).not.toBe('merged');
  });

  it('cannot unmerge its ticket from a ticket it was merged into (404 naming that one)', async () => {
    await handled.wait(await publisher.delivery(directMessageReceived({ account: ACCOUNT_A, customer: { id: '3001969359', screenName: 'cai', name: 'Cai' }, text: 'me again', eventId: '910004' })));
    const { rows } = await pool.query<{ ticket_id: string }>("SELECT ticket_id FROM activities WHERE account_id = $1 AND platform_event_id = '910004'", [ACCOUNT_A]);
    const launched = rows[0]!.ticket_id;
    expect((await api.post(`/v1/tickets/${other}/merge`, { sourceIds: [launched] })).status).toBe(200);
    const { token } = auth.session({ ticketIds: [launched] });
    expect((await api.get(`/v1/tickets/${launched}`, token)).status).toBe(200);
    const unmerged = await post(`/v1/tickets/${launched}/unmerge`, {}, token);
    expect(unmerged).toMatchObject({ status: 404, body: { error: { code: 'ticket_not_found', message: `no ticket with id '${other}'` } } });
    expect((await pool.query<{ status: string }>('SELECT status FROM tickets WHERE id = $1', [launched])).rows[0]!.status).toBe('merged');
  });
});

describe('GET /v1/me', () => {
  it('tells a credential its scopes and limits, and a bootstrap token that it is one', async () => {
    const { token, id } = credential(['tickets:read'], { accountIds: [ACCOUNT_A] });
    expect((await api.get('/v1/me', token)).body).toEqual({ id, name: `test ${id}`, scopes: ['tickets:read'], accountIds: [ACCOUNT_A], trackingClientIds: null, ticketIds: null, sessionId: null, bootstrap: false });
    expect((await api.get('/v1/me')).body).toMatchObject({ id: 'bootstrap-2', scopes: ['admin'], accountIds: null, bootstrap: true });
  });
});

describe('verification', () => {
  it('refuses an unknown or revoked credential with 401 and logs it at warn', async () => {
    const { token, id } = credential(['admin']);
    auth.revoke(token);
    const refused = await api.get('/v1/tickets', token);
    expect(refused).toEqual({ status: 401, body: { error: { code: 'unauthorized', message: 'the API token is not valid' } } });
    expect(logLines.map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => entry.message === 'authentication failed' && entry.principalId === id)).toMatchObject({ level: 'warn' });
    expect((await api.get('/v1/tickets', 'not-even-a-token')).status).toBe(401);
  });

  it('keeps a revoked credential for the cache time unless the revocation is announced, and refuses it once it is', async () => {
    const { token, id } = credential(['tickets:read']);
    expect((await api.get('/v1/tickets', token)).status).toBe(200);
    auth.revoke(token);
    expect((await api.get('/v1/tickets', token)).status).toBe(200);
    await auth.announce(id);
    await waitFor(async () => (await api.get('/v1/tickets', token)).status === 401, { what: 'the announced revocation taking effect' });
  });

  it('asks auth once for a token used twice within the cache time', async () => {
    const { token } = credential(['tickets:read']);
    expect((await api.get('/v1/tickets', token)).status).toBe(200);
    expect((await api.get('/v1/accounts', token)).status).toBe(200);
    expect(auth.verifications.filter((asked) => asked === token)).toHaveLength(1);
  });

  it('answers 503 when auth cannot tell, and asks again next time', async () => {
    const first = await api.get('/v1/tickets', auth.uncheckable);
    expect(first).toEqual({ status: 503, body: { error: { code: 'auth_unavailable', message: expect.any(String) } } });
    await api.get('/v1/tickets', auth.uncheckable);
    expect(auth.verifications.filter((asked) => asked === auth.uncheckable)).toHaveLength(2);
  });
});

describe('the audit log', () => {
  it('records a write with its principal, and refuses to change or delete it', async () => {
    const { token, id } = credential(['tickets:read', 'tickets:write']);
    const replied = await post(`/v1/tickets/${tickets[ACCOUNT_A]}/replies`, { text: 'audited reply' }, token);
    expect(replied.status).toBe(202);
    const row = await waitFor(async () => (await pool.query('SELECT * FROM audit_log WHERE request_id = $1', [replied.requestId])).rows[0]);
    expect(row).toMatchObject({ principal_id: id, method: 'POST', path: `/v1/tickets/${tickets[ACCOUNT_A]}/replies`, status: 202 });
    await expect(pool.query('UPDATE audit_log SET status = 200 WHERE id = $1', [row.id])).rejects.toThrow(/append-only/);
    await expect(pool.query('DELETE FROM audit_log WHERE id = $1', [row.id])).rejects.toThrow(/append-only/);
  });
});
