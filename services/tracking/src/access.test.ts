/**
 * Access to tracking's API with API credentials, verified by an RPC to auth (a stand-in
 * here): tracking:manage for client settings and task creation, tickets:read for lookups,
 * the tracking-client limit, revocation, and the audit log of writes. The bootstrap token
 * is what every other test of tracking uses.
 */
import axios from 'axios';
import pg from 'pg';
import { startCredentialStandIn, type CredentialStandIn } from '@crm/access/src/testing';
import { testLogger, waitFor, testPool } from '@crm/testing';
import { startStack, type TrackingStack } from './testing/stack';

let stack: TrackingStack;
let auth: CredentialStandIn;
let pool: pg.Pool;

beforeAll(async () => {
  stack = await startStack();
  auth = await startCredentialStandIn(stack.amqpUrl, testLogger());
  pool = testPool(stack.databaseUrl, { max: 2 });
  await stack.enableClient('acme');
  await stack.enableClient('beta');
  await stack.simTask({ clientId: 'acme', taskId: 'a-1' });
  await stack.simTask({ clientId: 'beta', taskId: 'b-1' });
});

afterAll(async () => {
  await pool?.end();
  await auth?.stop();
  await stack?.stop();
});

const as = (token: string) => axios.create({ baseURL: `http://127.0.0.1:${stack.service.port}`, headers: { authorization: `Bearer ${token}` }, validateStatus: () => true });

it('answers 403 naming tracking:manage when a tickets:read credential changes a client, and lets it look tasks up', async () => {
  const reader = as(auth.credential(['tickets:read']).token);
  const changed = await reader.put('/v1/clients/acme', { enabled: false });
  expect(changed.status).toBe(403);
  expect(changed.data).toEqual({ error: { code: 'missing_scope', message: 'this credential lacks the scope tracking:manage' } });
  expect((await reader.get('/v1/clients/acme')).status).toBe(403);
  expect((await reader.get('/v1/clients/acme/tasks/a-1')).status).toBe(200);
  expect((await stack.api.get('/v1/clients/acme')).data.enabled).toBe(true);
});

it('shows a credential limited to client acme nothing of client beta (404)', async () => {
  const desk = as(auth.credential(['tickets:read', 'tracking:manage'], { trackingClientIds: ['acme'] }).token);
  expect((await desk.get('/v1/clients/acme')).status).toBe(200);
  expect((await desk.get('/v1/clients/acme/tasks/a-1/live')).status).toBe(200);
  for (const path of ['/v1/clients/beta', '/v1/clients/beta/tasks/b-1', '/v1/clients/beta/tasks/b-1/live']) {
    const answer = await desk.get(path);
    expect(answer.status).toBe(404);
    expect(answer.data.error.code).toBe('client_not_found');
  }
  expect((await desk.put('/v1/clients/beta', { enabled: false })).status).toBe(404);
  expect((await stack.api.get('/v1/clients/beta')).data.enabled).toBe(true);
});

it('refuses a revoked credential with 401', async () => {
  const { token } = auth.credential(['admin']);
  auth.revoke(token);
  expect((await as(token).get('/v1/clients/acme')).status).toBe(401);
});

it('records a write with its principal in the append-only audit log', async () => {
  const { token, id } = auth.credential(['tracking:manage']);
  const changed = await as(token).put('/v1/clients/acme', { enabled: true });
  expect(changed.status).toBe(200);
  const row = await waitFor(async () => (await pool.query('SELECT * FROM audit_log WHERE request_id = $1', [changed.headers['x-request-id']])).rows[0]);
  expect(row).toMatchObject({ principal_id: id, method: 'PUT', path: '/v1/clients/acme', status: 200 });
  await expect(pool.query('DELETE FROM audit_log')).rejects.toThrow(/append-only: DELETE refused/);
});
