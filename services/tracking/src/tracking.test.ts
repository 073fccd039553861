import axios from 'axios';
import { Queues, SYSTEM_TOPOLOGY, TRACKING_CLIENT_ID_PATTERN, TRACKING_INCLUDE_PATTERN, TRACKING_TASK_ID_PATTERN, TrackingAvailabilityRequest, TrackingLiveRequest, TrackingTaskRequest, type TrackingLiveView } from '@crm/contracts';
import { Broker, RpcClient, RpcError } from '@crm/messaging';
import { capturingLogger, testLogger, waitFor, testPool } from '@crm/testing';
import { derivedTaskId } from './domain/task-seed';
import { startStack, type TrackingStack } from './testing/stack';

/**
 * tracking in-process against the tracking-provider simulator (also its router), the real
 * PostgreSQL (a fresh database) and the real RabbitMQ (a fresh virtual host).
 */

let stack: TrackingStack;
let logLines: string[];
let acmeKey: string;

beforeAll(async () => {
  const captured = capturingLogger('tracking');
  logLines = captured.lines;
  stack = await startStack({ router: true, logger: captured.logger });
  acmeKey = await stack.enableClient('acme', ['orderDetail']);
});

afterAll(async () => {
  await stack?.stop();
});

interface SimRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: string | null;
  contentType: string | null;
  username: string | null;
}

const simRequests = async (path: string) => ((await stack.sim.get('/control/requests')).data.items as SimRequest[]).filter((r) => r.path === path);

it('reports ready once connected to the broker and its database', async () => {
  const ready = await waitFor(async () => {
    const res = await axios.get(`http://127.0.0.1:${stack.service.port}/health/ready`, { validateStatus: () => true });
    return res.status === 200 ? res.data : null;
  });
  expect(ready).toEqual({ status: 'ready', checks: { broker: true, database: true } });
});

describe('the OpenAPI document', () => {
  it('is served at /openapi.json and rendered at /docs, without a credential', async () => {
    const anonymous = axios.create({ baseURL: `http://127.0.0.1:${stack.service.port}`, validateStatus: () => true });
    const document = await anonymous.get('/openapi.json');
    expect(document.status).toBe(200);
    expect(document.data).toMatchObject({ openapi: '3.1.0', info: { title: 'tracking' } });
    const docs = await anonymous.get('/docs');
    expect(docs.status).toBe(200);
    expect(docs.data).toContain('/docs/assets/swagger-ui-bundle.js');
  });

  it('holds the same id patterns as the code', async () => {
    const { components } = (await stack.api.get('/openapi.json')).data;
    expect(components.parameters.ClientId.schema.pattern).toBe(TRACKING_CLIENT_ID_PATTERN);
    expect(components.parameters.TaskId.schema.pattern).toBe(TRACKING_TASK_ID_PATTERN);
    expect(components.schemas.IncludeName.pattern).toBe(TRACKING_INCLUDE_PATTERN);
    expect(components.schemas.TaskSeed.properties.taskId.pattern).toBe(TRACKING_TASK_ID_PATTERN);
  });

  it('refuses what it does not allow with 400 naming the field, before any route or provider call', async () => {
    const before = await stack.calls();
    const unknown = await stack.api.get('/v1/clients/acme/tasks/look-1?includes=orderDetail');
    expect(unknown.status).toBe(400);
    expect(unknown.data.error).toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining('includes') });
    const id = await stack.api.get('/v1/clients/acme/tasks/-1/live');
    expect(id.data.error).toMatchObject({ code: 'invalid_parameter', fields: [{ in: 'path', field: 'taskId', message: expect.stringContaining('must match pattern') }] });
    const text = await stack.api.put('/v1/clients/acme', 'enabled=true', { headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect((await stack.api.delete('/v1/clients/acme')).status).toBe(405);
    expect((await stack.api.get('/v1/clients')).status).toBe(404);
    expect((await stack.calls()).provider).toBe(before.provider);
  });
});

describe('clients', () => {
  it('needs the CRM token', async () => {
    const res = await stack.api.get('/v1/clients/acme', { headers: { authorization: 'Bearer wrong' } });
    expect(res.status).toBe(401);
    expect(res.data.error.code).toBe('unauthorized');
  });

  it('shows a client with its key masked, and keeps the key sealed at rest', async () => {
    const res = await stack.api.get('/v1/clients/acme');
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ clientId: 'acme', enabled: true, apiKey: `${acmeKey.slice(0, 4)}…${acmeKey.slice(-4)}`, include: ['orderDetail'], pushes: false, createdAt: expect.any(String), updatedAt: expect.any(String) });
    const pool = testPool(stack.databaseUrl, { max: 1 });
    const { rows } = await pool.query('SELECT api_key_sealed FROM tracking_clients WHERE client_id = $1', ['acme']);
    await pool.end();
    expect(rows[0].api_key_sealed).toMatch(/^v1:/);
    expect(rows[0].api_key_sealed).not.toContain(acmeKey);
  });

  it('answers an unknown client with 404 and a disabled one with 403, each with a clear message', async () => {
    const unknown = await stack.api.get('/v1/clients/nobody/tasks/t-1');
    expect(unknown.status).toBe(404);
    expect(unknown.data.error).toEqual({ code: 'client_not_found', message: expect.stringContaining("tracking is not set up for client 'nobody'") });
    expect((await stack.api.get('/v1/clients/nobody/tasks/t-1/live')).status).toBe(404);
    expect((await stack.api.get('/v1/clients/nobody')).status).toBe(404);

    await stack.enableClient('paused');
    await stack.simTask({ clientId: 'paused', taskId: 'p-1' });
    expect((await stack.api.get('/v1/clients/paused/tasks/p-1')).status).toBe(200);
    // Turning it off keeps the key: no apiKey needed to toggle.
    expect((await stack.api.put('/v1/clients/paused', { enabled: false })).status).toBe(200);
    const disabled = await stack.api.get('/v1/clients/paused/tasks/p-1/live');
    expect(disabled.status).toBe(403);
    expect(disabled.data.error).toEqual({ code: 'client_disabled', message: "tracking is turned off for client 'paused'" });
    expect((await stack.api.post('/v1/clients/paused/tasks', { assignedUser: { carrierClientId: 'c', userId: 'u' }, taskId: 'x' })).status).toBe(403);
    expect((await stack.api.put('/v1/clients/paused', { enabled: true })).status).toBe(200);
    expect((await stack.api.get('/v1/clients/paused/tasks/p-1')).status).toBe(200);
  });

  it('refuses bad settings, naming each field, and a new client without a key', async () => {
    const bad = await stack.api.put('/v1/clients/acme2', { enabled: 'yes', apiKey: 'short', include: ['ok', 'no spaces'], extra: 1 });
    expect(bad.status).toBe(400);
    expect(bad.data.error.code).toBe('invalid_client');
    for (const field of ['enabled', 'apiKey', 'include[1]', 'extra']) expect(bad.data.error.message).toContain(field);
    const keyless = await stack.api.put('/v1/clients/acme2', { enabled: true });
    expect(keyless.status).toBe(400);
    expect(keyless.data.error.message).toContain('apiKey is required');
    expect((await stack.api.put('/v1/clients/bad%20id', { enabled: true, apiKey: 'long-enough-key' })).status).toBe(400);
  });
});

describe('task lookups', () => {
  it('counts cache misses and hits, and shows the breakers by state, on /metrics', async () => {
    const sample = (text: string, result: string) => Number(new RegExp(`^tracking_task_cache_lookups_total\\{result="${result}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    const before = (await stack.api.get('/metrics')).data as string;
    await stack.simTask({ clientId: 'acme', taskId: 'metered-1', elapsedSeconds: 60 });
    expect((await stack.api.get('/v1/clients/acme/tasks/metered-1')).status).toBe(200);
    expect((await stack.api.get('/v1/clients/acme/tasks/metered-1')).status).toBe(200);
    const after = (await stack.api.get('/metrics')).data as string;
    expect(sample(after, 'miss') - sample(before, 'miss')).toBe(1);
    expect(sample(after, 'hit') - sample(before, 'hit')).toBe(1);
    expect(after).toMatch(/^tracking_provider_breakers\{state="closed"\} [1-9]\d*$/m);
  });

  it("returns the provider's record, fetched with {} as the GET body, basic auth and the extra fields in `include`", async () => {
    await stack.simTask({ clientId: 'acme', taskId: 'look-1', elapsedSeconds: 60 });
    const res = await stack.api.get('/v1/clients/acme/tasks/look-1?include=statusUpdates');
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      clientId: 'acme',
      taskId: 'look-1',
      task: { taskId: 'look-1', status: { status: 'STARTED' }, orderDetail: null, statusUpdates: expect.any(Array) },
      freshness: { fetchedAt: expect.any(String), ageSeconds: expect.any(Number), stale: false, staleReason: null },
    });
    const [sent] = await simRequests('/v1/client/acme/task/look-1');
    expect(sent).toMatchObject({ method: 'GET', body: '{}', contentType: expect.stringContaining('application/json'), username: 'acme', query: { include: 'orderDetail,statusUpdates' } });
  });

  it('answers 404 for a task the provider does not have, and 502 when the provider refuses the key', async () => {
    const missing = await stack.api.get('/v1/clients/acme/tasks/no-such-task');
    expect(missing.status).toBe(404);
    expect(missing.data.error.code).toBe('task_not_found');

    await stack.sim.put('/control/clients/rekeyed', { apiKey: 'the-key-the-provider-has' });
    await stack.api.put('/v1/clients/rekeyed', { enabled: true, apiKey: 'a-key-it-does-not-know' });
    await stack.simTask({ clientId: 'rekeyed', taskId: 'r-1' });
    const refused = await stack.api.get('/v1/clients/rekeyed/tasks/r-1');
    expect(refused.status).toBe(502);
    expect(refused.data.error).toEqual({ code: 'provider_auth_failed', message: expect.stringContaining('check its apiKey') });
    // A new key takes effect at once.
    await stack.api.put('/v1/clients/rekeyed', { enabled: true, apiKey: 'the-key-the-provider-has' });
    expect((await stack.api.get('/v1/clients/rekeyed/tasks/r-1')).status).toBe(200);
  });

  it('validates include and the ids', async () => {
    expect((await stack.api.get('/v1/clients/acme/tasks/look-1?include=a,b%20c')).data.error.code).toBe('invalid_parameter');
    expect((await stack.api.get('/v1/clients/acme/tasks/look-1?include=a&include=b')).status).toBe(400);
    expect((await stack.api.get('/v1/clients/acme/tasks/a%20b')).status).toBe(400);
  });
});

describe('creating tasks', () => {
  const seed = {
    assignedUser: { carrierClientId: 'carrier-1', userId: 'rider-7' },
    sourceOrderId: 'order-1001',
    orderDetail: { lineItems: [{ name: 'Masala tea', quantity: 2, id: 'li-1', price: { amount: 40, currency: 'INR', symbol: '₹' }, imageUrl: 'https://img.example/tea.png' }] },
  };

  it('names every invalid field and sends nothing', async () => {
    const before = await stack.calls();
    const res = await stack.api.post('/v1/clients/acme/tasks', {
      assignedUser: { carrierClientId: 1 },
      sourceOrderId: 5,
      orderDetail: { lineItems: [{ quantity: 'x', id: 2, price: { amount: 'a', currency: 3, symbol: 4 }, imageUrl: 5 }] },
    });
    expect(res.status).toBe(400);
    expect(res.data.error.code).toBe('invalid_task');
    const fields = (res.data.error.fields as { field: string }[]).map((f) => f.field).sort();
    expect(fields).toEqual(
      [
        'assignedUser.carrierClientId',
        'assignedUser.userId',
        'orderDetail.lineItems[0].id',
        'orderDetail.lineItems[0].imageUrl',
        'orderDetail.lineItems[0].name',
        'orderDetail.lineItems[0].price.amount',
        'orderDetail.lineItems[0].price.currency',
        'orderDetail.lineItems[0].price.symbol',
        'orderDetail.lineItems[0].quantity',
        'sourceOrderId',
      ].sort(),
    );
    for (const field of fields) expect(res.data.error.message).toContain(field);
    expect((await stack.calls()).provider).toBe(before.provider);
  });

  it('creates with an idempotent PUT under an id derived from the order: a retry makes no second task', async () => {
    const taskId = derivedTaskId('acme', 'order-1001');
    const first = await stack.api.post('/v1/clients/acme/tasks', seed);
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ taskId, created: true, task: { taskId, sourceOrderId: 'order-1001', assignedUser: { userId: 'rider-7' }, orderDetail: seed.orderDetail } });
    const again = await stack.api.post('/v1/clients/acme/tasks', seed);
    expect(again.status).toBe(200);
    expect(again.data).toMatchObject({ taskId, created: false });
    const puts = await simRequests(`/v1/client/acme/mpmdtask/${taskId}`);
    expect(puts.map((r) => r.method)).toEqual(['PUT', 'PUT']);
    expect(JSON.parse(puts[0]!.body!)).toEqual({ ...seed, taskId });
    expect((await stack.api.get(`/v1/clients/acme/tasks/${taskId}`)).data.task.taskId).toBe(taskId);
  });

  it("uses the caller's task id when given", async () => {
    const res = await stack.api.post('/v1/clients/acme/tasks', { ...seed, sourceOrderId: undefined, taskId: 'crm-chosen-1' });
    expect(res.status).toBe(201);
    expect(res.data.taskId).toBe('crm-chosen-1');
    expect(await simRequests('/v1/client/acme/mpmdtask/crm-chosen-1')).toHaveLength(1);
  });
});

describe('live view', () => {
  const live = async (taskId: string): Promise<TrackingLiveView> => {
    const res = await stack.api.get(`/v1/clients/acme/tasks/${taskId}/live`);
    expect(res.status).toBe(200);
    return res.data as TrackingLiveView;
  };

  it('shows the moving rider, the drop, the road route from the router and the provider ETA', async () => {
    const drop = { lat: 12.99, lng: 77.62, address: 'Flat 4, 12th Main, Indiranagar' };
    await stack.simTask({ clientId: 'acme', taskId: 'live-1', pickup: { lat: 12.97, lng: 77.59 }, drop, elapsedSeconds: 90, rider: { name: 'Ravi', phone: '+91 98450 00000' } });
    const view = await live('live-1');
    expect(view).toMatchObject({
      status: 'STARTED',
      active: true,
      rider: { source: 'live', stale: false, name: 'Ravi', phone: '+91 98450 00000', recordedAt: expect.any(String) },
      drop,
      route: { source: 'router', geometry: { type: 'LineString' } },
      eta: { approximate: false, source: 'provider' },
      trackLink: 'http://sim.test/track/acme/live-1',
      notice: null,
      freshness: { stale: false },
    });
    expect(view.rider!.ageSeconds).toBeGreaterThanOrEqual(0);
    expect(view.rider!.ageSeconds).toBeLessThan(120);
    expect(view.rider!.lng).toBeGreaterThan(77.59);
    expect(view.route!.geometry.coordinates[0]).toEqual([view.rider!.lng, view.rider!.lat]);
    expect(view.route!.geometry.coordinates.at(-1)).toEqual([77.62, 12.99]);
    expect(view.route!.distanceMeters).toBeGreaterThan(0);
    expect(view.route!.durationSeconds).toBeGreaterThan(0);
    expect((await stack.calls()).router).toBeGreaterThan(0);
  });

  it('estimates the ETA from the route when the provider gives none', async () => {
    await stack.simTask({ clientId: 'acme', taskId: 'live-2', elapsedSeconds: 60, eta: false });
    const view = await live('live-2');
    expect(view.eta).toMatchObject({ approximate: false, source: 'route' });
    expect(Date.parse(view.eta!.at)).toBeGreaterThan(Date.now());
  });

  it('falls back to a straight line, labelled approximate, when the router fails', async () => {
    await stack.sim.put('/control/failures', { target: 'router', mode: 'error', status: 503 });
    try {
      await stack.simTask({ clientId: 'acme', taskId: 'live-3', elapsedSeconds: 60, eta: false });
      const view = await live('live-3');
      expect(view.route).toMatchObject({ source: 'straight-line' });
      expect(view.route!.geometry.coordinates).toHaveLength(2);
      expect(view.eta).toMatchObject({ approximate: true, source: 'route' });
    } finally {
      await stack.sim.delete('/control/failures');
    }
  });

  it('flags a rider position older than the threshold, and falls back to the newest status location', async () => {
    await stack.simTask({ clientId: 'acme', taskId: 'live-4', elapsedSeconds: 600, speedMps: 1, position: 'frozen' });
    const frozen = await live('live-4');
    expect(frozen.rider).toMatchObject({ source: 'live', stale: true });
    expect(frozen.rider!.ageSeconds).toBeGreaterThanOrEqual(560);
    expect(frozen.eta).toMatchObject({ source: 'provider' });

    await stack.simTask({ clientId: 'acme', taskId: 'live-5', elapsedSeconds: 60, position: 'absent' });
    const fallback = await live('live-5');
    expect(fallback.rider).toMatchObject({ source: 'status', stale: false });
    expect(fallback.route).not.toBeNull();
  });

  it('says a completed or cancelled task is finished instead of showing a route', async () => {
    await stack.simTask({ clientId: 'acme', taskId: 'live-6', elapsedSeconds: 60 });
    await stack.sim.post('/control/tasks/acme/live-6/advance', { seconds: 7200 });
    const done = await live('live-6');
    expect(done).toMatchObject({ status: 'COMPLETED', active: false, rider: null, route: null, eta: null, notice: { code: 'completed' } });
    expect(done.drop).not.toBeNull();

    await stack.simTask({ clientId: 'acme', taskId: 'live-7', elapsedSeconds: 60 });
    await stack.sim.post('/control/tasks/acme/live-7/cancel');
    expect(await live('live-7')).toMatchObject({ status: 'CANCELLED', active: false, route: null, notice: { code: 'cancelled', message: expect.stringContaining('cancelled') } });
  });
});

describe('tracking.rpc', () => {
  let broker: Broker;
  let rpc: RpcClient;

  beforeAll(async () => {
    broker = new Broker({ url: stack.amqpUrl, name: 'tracking-test-rpc', logger: testLogger() });
    rpc = new RpcClient(broker, 'ticketing', SYSTEM_TOPOLOGY);
  });

  afterAll(async () => {
    await rpc.close();
    await broker.close();
  });

  it('answers the live view and the task record, as over HTTP', async () => {
    await stack.simTask({ clientId: 'acme', taskId: 'rpc-1', elapsedSeconds: 60 });
    const view = await rpc.call<unknown, TrackingLiveView>(Queues.trackingRpc, TrackingLiveRequest, { clientId: 'acme', taskId: 'rpc-1' }, { timeoutMs: 10_000 });
    expect(view).toMatchObject({ clientId: 'acme', taskId: 'rpc-1', status: 'STARTED', active: true, route: { source: 'router' } });
    const record = await rpc.call<unknown, { task: { taskId: string; statusUpdates: unknown[] } }>(
      Queues.trackingRpc,
      TrackingTaskRequest,
      { clientId: 'acme', taskId: 'rpc-1', include: ['statusUpdates'] },
      { timeoutMs: 10_000 },
    );
    expect(record.task.taskId).toBe('rpc-1');
    expect(record.task.statusUpdates.length).toBeGreaterThan(0);
  });

  it('answers errors with the same codes', async () => {
    const call = rpc.call(Queues.trackingRpc, TrackingLiveRequest, { clientId: 'nobody', taskId: 't' }, { timeoutMs: 10_000 });
    await expect(call).rejects.toBeInstanceOf(RpcError);
    await expect(call).rejects.toMatchObject({ code: 'client_not_found' });
    await expect(rpc.call(Queues.trackingRpc, TrackingTaskRequest, { clientId: 'acme', taskId: 'no-such-task' }, { timeoutMs: 10_000 })).rejects.toMatchObject({ code: 'task_not_found' });
  });

  it('says whether tracking is available for a client and task (for a ticket linked to an order)', async () => {
    await stack.simTask({ clientId: 'acme', taskId: 'rpc-2' });
    const ask = (payload: { clientId: string; taskId?: string }) => rpc.call(Queues.trackingRpc, TrackingAvailabilityRequest, payload, { timeoutMs: 10_000 });
    expect(await ask({ clientId: 'acme', taskId: 'rpc-2' })).toEqual({ clientId: 'acme', taskId: 'rpc-2', available: true, reason: 'available', message: 'tracking is available' });
    expect(await ask({ clientId: 'acme' })).toMatchObject({ taskId: null, available: true });
    expect(await ask({ clientId: 'acme', taskId: 'no-such-task' })).toMatchObject({ available: false, reason: 'task_not_found' });
    expect(await ask({ clientId: 'nobody' })).toMatchObject({ available: false, reason: 'client_not_found' });
  });

  it('coalesces 100 simultaneous lookups of one task into one provider call', async () => {
    await stack.simTask({ clientId: 'acme', taskId: 'rpc-busy' });
    // The provider is slow, so the lookups overlap while the first call is in flight.
    await stack.sim.put('/control/failures', { mode: 'latency', latencyMs: 500, count: 1 });
    const views = await Promise.all(
      Array.from({ length: 100 }, () => rpc.call<unknown, TrackingLiveView>(Queues.trackingRpc, TrackingLiveRequest, { clientId: 'acme', taskId: 'rpc-busy' }, { timeoutMs: 20_000 })),
    );
    expect(new Set(views.map((v) => v.freshness.fetchedAt)).size).toBe(1);
    expect((await stack.calls()).byTask['acme/rpc-busy']).toBe(1);
  });
});

it('never logs a provider API key', async () => {
  const keys = [acmeKey, 'the-key-the-provider-has', 'a-key-it-does-not-know'];
  expect(logLines.length).toBeGreaterThan(0);
  for (const key of keys) expect(logLines.join('\n')).not.toContain(key);
});
