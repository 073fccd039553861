/**
 * A ticket linked to an order shows whether tracking can show it, asked of the real tracking
 * service (in-process, against the tracking-provider simulator) over `tracking.rpc`, on the
 * same virtual host: at link time, again on read once the answer is old, and, when tracking
 * does not answer in time, the last answer marked stale.
 */
import pg from 'pg';
import { startCredentialStandIn, type CredentialStandIn } from '@crm/access/src/testing';
import { directMessageReceived } from '@crm/social-platform-simulator/src/deliveries';
import { freshDatabase, testLogger, type TestDatabase, testPool } from '@crm/testing';
import { startStack, type TrackingStack } from '@crm/tracking/src/testing/stack';
import { startTicketing, type RunningTicketing } from './service';
import { apiClient, HandledMessages, TestPublisher, testConfig, TEST_TOKEN } from './testing/harness';

let stack: TrackingStack;
let db: TestDatabase;
let service: RunningTicketing;
let publisher: TestPublisher;
let pool: pg.Pool;
let auth: CredentialStandIn;
const handled = new HandledMessages();
const api = apiClient(() => `http://127.0.0.1:${service.port}`);
const ACCOUNT = '30000001';

interface Tracking {
  available: boolean | null;
  reason: string;
  message: string;
  checkedAt: string | null;
  stale: boolean;
}
interface Order {
  clientId: string;
  taskId: string;
  linkedAt: string;
  tracking: Tracking;
}

beforeAll(async () => {
  stack = await startStack({ logger: testLogger('tracking') });
  db = await freshDatabase('ticketing_orders');
  service = await startTicketing(testConfig({ AMQP_URL: stack.amqpUrl, DATABASE_URL: db.url, TRACKING_RPC_TIMEOUT_MS: 3_000, TRACKING_READ_WAIT_MS: 300 }), {
    logger: testLogger('ticketing'),
    host: '127.0.0.1',
    onHandled: handled.note,
  });
  publisher = new TestPublisher(stack.amqpUrl);
  await publisher.ready();
  auth = await startCredentialStandIn(stack.amqpUrl, testLogger());
  pool = testPool(db.url, { max: 2 });
  // The test stops tracking halfway; stopping it again at the end must be harmless.
  const stopTracking = stack.service.stop;
  let stopped: Promise<void> | undefined;
  stack.service.stop = () => (stopped ??= stopTracking());

  await stack.enableClient('acme');
  await stack.simTask({ clientId: 'acme', taskId: 'order-42' });
  expect((await api.put('/v1/partner-configs/' + ACCOUNT, {})).status).toBe(201);
});

afterAll(async () => {
  await auth?.stop();
  await publisher?.close();
  await service?.stop();
  await pool?.end();
  await db?.drop();
  await stack?.stop();
});

const call = async (method: 'PUT' | 'DELETE', path: string, body?: unknown, token = TEST_TOKEN) => {
  const response = await fetch(`http://127.0.0.1:${service.port}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: response.status === 204 ? null : ((await response.json()) as Record<string, unknown>) };
};

let customer = 0;
async function newTicket(): Promise<string> {
  customer += 1;
  const screenName = `buyer${customer}`;
  await handled.wait(await publisher.delivery(directMessageReceived({ account: ACCOUNT, customer: { id: String(4_000_000 + customer), screenName }, text: 'where is my order?' })));
  const list = await api.get<{ items: { id: string; contact: { screenName: string } }[] }>(`/v1/tickets?accountId=${ACCOUNT}`);
  return list.body.items.find((t) => t.contact.screenName === screenName)!.id;
}

const orderOf = async (ticketId: string) => (await api.get<{ order: Order | null }>(`/v1/tickets/${ticketId}`)).body.order;
/** Makes the stored answer older than the refresh age, as if read a while later. */
const age = (ticketId: string) => pool.query(`UPDATE ticket_orders SET tracking_checked_at = tracking_checked_at - interval '2 minutes' WHERE ticket_id = $1`, [ticketId]);

describe('linking a ticket to an order', () => {
  it('checks tracking at link time and shows the answer on the ticket', async () => {
    const ticketId = await newTicket();
    expect(await orderOf(ticketId)).toBeNull();

    const linked = await call('PUT', `/v1/tickets/${ticketId}/order`, { clientId: 'acme', taskId: 'order-42' });
    expect(linked).toEqual({
      status: 200,
      body: {
        clientId: 'acme',
        taskId: 'order-42',
        linkedAt: expect.any(String),
        // An agent's link; the task's status and ETA from tracking's live view, asked at link time.
        linkedBy: 'agent',
        reference: null,
        status: 'assigned',
        eta: expect.any(String),
        tracking: { available: true, reason: 'available', message: 'tracking is available', checkedAt: expect.any(String), stale: false },
      },
    });
    expect(await orderOf(ticketId)).toEqual(linked.body);
    const listed = await api.get<{ items: { id: string; order: Order | null }[] }>(`/v1/tickets?accountId=${ACCOUNT}`);
    expect(listed.body.items.find((t) => t.id === ticketId)!.order).toEqual(linked.body);
  });

  it('refuses, with a sentence an agent can act on, a task or a client tracking says does not exist; nothing is linked', async () => {
    const ticketId = await newTicket();
    const unknownTask = await call('PUT', `/v1/tickets/${ticketId}/order`, { clientId: 'acme', taskId: 'no-such-task' });
    expect(unknownTask).toEqual({ status: 422, body: { error: { code: 'order_task_unknown', message: "Tracking has no order 'no-such-task' for client 'acme'. Check the order (task) number, then link it again." } } });
    const unknownClient = await call('PUT', `/v1/tickets/${ticketId}/order`, { clientId: 'nobody', taskId: 'order-42' });
    expect(unknownClient.status).toBe(422);
    expect(unknownClient.body!.error).toEqual({ code: 'order_client_unknown', message: expect.stringMatching(/^Tracking has no client named 'nobody'\. Check the client's name/) });
    expect(await orderOf(ticketId)).toBeNull();
  });

  it('keeps the link when the provider is merely down, marked with why tracking could not check it', async () => {
    const ticketId = await newTicket();
    await stack.simTask({ clientId: 'acme', taskId: 'order-down' });
    await stack.sim.put('/control/failures', { target: 'provider', mode: 'error', status: 503, clientId: 'acme' });
    const linked = await call('PUT', `/v1/tickets/${ticketId}/order`, { clientId: 'acme', taskId: 'order-down' });
    await stack.sim.delete('/control/failures');
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({ clientId: 'acme', taskId: 'order-down', tracking: { available: false, reason: expect.stringMatching(/^(provider_unavailable|circuit_open)$/) } });
    expect(await orderOf(ticketId)).toMatchObject({ clientId: 'acme', taskId: 'order-down' });
  });

  it('refuses a bad link naming the field, and an unknown ticket', async () => {
    const ticketId = await newTicket();
    for (const [body, problem] of [
      [{ clientId: 'acme', taskId: 'order-42', extra: 1 }, 'body.extra must NOT have additional properties'],
      [{ clientId: 'acme corp', taskId: 'order-42' }, 'body.clientId must match pattern'],
      [{ clientId: 'acme', taskId: '' }, 'body.taskId must match pattern'],
      [{ clientId: 'acme' }, 'body.taskId is required'],
    ] as const) {
      const bad = await call('PUT', `/v1/tickets/${ticketId}/order`, body);
      expect(bad.status).toBe(400);
      expect(bad.body!.error).toMatchObject({ code: 'invalid_order_link', message: expect.stringContaining(problem) });
    }
    expect(await orderOf(ticketId)).toBeNull();
    expect((await call('PUT', '/v1/tickets/6f1c1a4e-0000-4000-8000-000000000000/order', { clientId: 'acme', taskId: 'order-42' })).status).toBe(404);
    expect((await call('DELETE', '/v1/tickets/6f1c1a4e-0000-4000-8000-000000000000/order')).status).toBe(404);
  });

  it('unlinks', async () => {
    const ticketId = await newTicket();
    await call('PUT', `/v1/tickets/${ticketId}/order`, { clientId: 'acme', taskId: 'order-42' });
    expect((await call('DELETE', `/v1/tickets/${ticketId}/order`)).status).toBe(204);
    expect(await orderOf(ticketId)).toBeNull();
    expect((await call('DELETE', `/v1/tickets/${ticketId}/order`)).status).toBe(204);
  });
});

describe('a tracking client the credential may not see', () => {
  it('is refused as an unknown client, without asking tracking, and nothing is linked', async () => {
    const ticketId = await newTicket();
    const { token } = auth.credential(['tickets:read', 'tickets:write'], { trackingClientIds: ['demo'] });
    // 'demo' is the credential's own client, unknown to tracking: the answer tracking gives.
    const unknown = await call('PUT', `/v1/tickets/${ticketId}/order`, { clientId: 'demo', taskId: 'order-42' }, token);
    expect(unknown.status).toBe(422);
    const asked = (await stack.calls()).provider;

    // A task of another client never looked up (tracking caches lookups): asking tracking would ask the provider.
    await stack.simTask({ clientId: 'acme', taskId: 'secret-order' });
    const forbidden = await call('PUT', `/v1/tickets/${ticketId}/order`, { clientId: 'acme', taskId: 'secret-order' }, token);
    const unknownError = (unknown.body as { error: { code: string; message: string } }).error;
    expect(forbidden).toEqual({ status: 422, body: { error: { ...unknownError, message: unknownError.message.replaceAll('demo', 'acme') } } });
    const unknownTask = await call('PUT', `/v1/tickets/${ticketId}/order`, { clientId: 'acme', taskId: 'no-such-task' }, token);
    expect(unknownTask.body).toMatchObject({ error: { code: 'order_client_unknown' } });
    expect((await stack.calls()).provider).toBe(asked);
    expect(await orderOf(ticketId)).toBeNull();
    // The bootstrap token may see acme: the same request asks tracking, which asks the provider.
    expect((await call('PUT', `/v1/tickets/${ticketId}/order`, { clientId: 'acme', taskId: 'secret-order' })).body).toMatchObject({ tracking: { available: true } });
    expect((await stack.calls()).provider).toBeGreaterThan(asked);
    expect((await call('PUT', '/v1/tickets/6f1c1a4e-0000-4000-8000-000000000000/order', { clientId: 'acme', taskId: 'order-42' }, token)).status).toBe(404);
  });
});

describe("a ticket's order shown to a credential that may not see its tracking client", () => {
  it("shows tracking's answer for an unknown client, on the ticket and in the list", async () => {
    const ticketId = await newTicket();
    const linked = await call('PUT', `/v1/tickets/${ticketId}/order`, { clientId: 'acme', taskId: 'order-42' });
    expect(linked.body).toMatchObject({ tracking: { reason: 'available' } });
    const { token } = auth.credential(['tickets:read'], { trackingClientIds: ['demo'] });
    const shown = (await api.get<{ order: Order }>(`/v1/tickets/${ticketId}`, token)).body.order;
    expect(shown).toEqual({
      clientId: 'acme',
      taskId: 'order-42',
      linkedAt: expect.any(String),
      linkedBy: 'agent',
      reference: null,
      // Nothing of the other client's task shows.
      status: null,
      eta: null,
      tracking: { available: false, reason: 'client_not_found', message: "Tracking is not set up for client 'acme'.", checkedAt: expect.any(String), stale: false },
    });
    const listed = await api.get<{ items: { id: string; order: Order | null }[] }>(`/v1/tickets?accountId=${ACCOUNT}`, token);
    expect(listed.body.items.find((t) => t.id === ticketId)!.order!.tracking.reason).toBe('client_not_found');
    const launch = auth.session({ ticketIds: [ticketId] });
    expect((await api.get<{ order: Order }>(`/v1/tickets/${ticketId}`, launch.token)).body.order.tracking.reason).toBe('available');
  });
});

describe("the live view of a ticket's order", () => {
  it("answers tracking's live view of the linked order, for the ticket's launch session too", async () => {
    const ticketId = await newTicket();
    await call('PUT', `/v1/tickets/${ticketId}/order`, { clientId: 'acme', taskId: 'order-42' });
    const viaTicket = await api.get<Record<string, unknown>>(`/v1/tickets/${ticketId}/order/live`);
    expect(viaTicket.status).toBe(200);
    const direct = await stack.api.get(`/v1/clients/acme/tasks/order-42/live`);
    expect(direct.status).toBe(200);
    // The same view (the simulated rider moves on between the two: its position, status and times differ).
    const directView = direct.data as Record<string, unknown>;
    expect(Object.keys(viaTicket.body).sort()).toEqual(Object.keys(directView).sort());
    expect(viaTicket.body).toMatchObject({ clientId: 'acme', taskId: 'order-42', drop: directView.drop, trackLink: directView.trackLink, freshness: { stale: false } });

    const launch = auth.session({ ticketIds: [ticketId] });
    expect((await api.get(`/v1/tickets/${ticketId}/order/live`, launch.token)).body).toMatchObject({ clientId: 'acme', taskId: 'order-42' });
    const allowed = auth.credential(['tickets:read'], { trackingClientIds: ['acme'] });
    expect((await api.get(`/v1/tickets/${ticketId}/order/live`, allowed.token)).status).toBe(200);
  });

  it('is 404 order_not_linked without an order, or for a credential that may not see its tracking client', async () => {
    const ticketId = await newTicket();
    const notLinked = await api.get<{ error: { code: string; message: string } }>(`/v1/tickets/${ticketId}/order/live`);
    expect(notLinked).toEqual({ status: 404, body: { error: { code: 'order_not_linked', message: expect.stringContaining(ticketId) } } });
    await call('PUT', `/v1/tickets/${ticketId}/order`, { clientId: 'acme', taskId: 'order-42' });
    const demoOnly = auth.credential(['tickets:read'], { trackingClientIds: ['demo'] });
    expect(await api.get(`/v1/tickets/${ticketId}/order/live`, demoOnly.token)).toEqual(notLinked);
    const otherTicketsSession = auth.session({ ticketIds: [await newTicket()] });
    expect((await api.get(`/v1/tickets/${ticketId}/order/live`, otherTicketsSession.token)).status).toBe(404);
  });

  it("answers tracking's failure with its code", async () => {
    const ticketId = await newTicket();
    await call('PUT', `/v1/tickets/${ticketId}/order`, { clientId: 'acme', taskId: 'order-42' });
    await stack.api.put('/v1/clients/acme', { enabled: false });
    const failed = await api.get<{ error: { code: string } }>(`/v1/tickets/${ticketId}/order/live`);
    await stack.api.put('/v1/clients/acme', { enabled: true });
    expect(failed).toMatchObject({ status: 403, body: { error: { code: 'client_disabled' } } });
  });
});

describe('reading a linked ticket later', () => {
  let ticketId: string;

  it('asks tracking again when the answer is old', async () => {
    ticketId = await newTicket();
    const linked = (await call('PUT', `/v1/tickets/${ticketId}/order`, { clientId: 'acme', taskId: 'order-42' })).body as unknown as Order;
    expect(linked.tracking.available).toBe(true);

    // Still fresh: the stored answer, tracking not asked.
    await stack.api.put('/v1/clients/acme', { enabled: false });
    expect((await orderOf(ticketId))!.tracking).toEqual(linked.tracking);

    await age(ticketId);
    const refreshed = (await orderOf(ticketId))!;
    expect(refreshed.tracking).toMatchObject({ available: false, reason: 'client_disabled', stale: false });
    expect(Date.parse(refreshed.tracking.checkedAt!)).toBeGreaterThan(Date.parse(linked.tracking.checkedAt!));
  });

  it('answers with the last known state, marked stale, when tracking does not answer in time', async () => {
    const before = (await orderOf(ticketId))!;
    await stack.service.stop();
    await age(ticketId);
    const aged = (await pool.query('SELECT tracking_checked_at FROM ticket_orders WHERE ticket_id = $1', [ticketId])).rows[0].tracking_checked_at as Date;

    const shown = (await orderOf(ticketId))!;
    expect(shown).toEqual({ ...before, tracking: { ...before.tracking, checkedAt: aged.toISOString(), stale: true } });
  });
});
