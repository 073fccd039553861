/**
 * Orders found in messages, against the real tracking service (in-process, on the
 * tracking-provider simulator) over the same virtual host and a database of ticketing's own:
 * the configuration's references, the reference tester, tickets linked from a customer's
 * words, and the followed order's changes on the ticket.
 */
import pg from 'pg';
import { freshDatabase, testLogger, testPool, type TestDatabase } from '@crm/testing';
import { startStack, type TrackingStack } from '@crm/tracking/src/testing/stack';
import { startTicketing, type RunningTicketing } from './service';
import { apiClient, HandledMessages, TestPublisher, testConfig } from './testing/harness';

let stack: TrackingStack;
let db: TestDatabase;
let service: RunningTicketing;
let publisher: TestPublisher;
let pool: pg.Pool;
const handled = new HandledMessages();
const api = apiClient(() => `http://127.0.0.1:${service.port}`);
/** Its configuration names the tracking client `demo`. */
const ACCOUNT = '30000011';
/** Its configuration has no orders part. */
const PLAIN_ACCOUNT = '30000012';

beforeAll(async () => {
  stack = await startStack({ logger: testLogger('tracking'), env: { FOLLOW_POLL_INTERVAL_SECONDS: '1', FOLLOW_ROUND_MS: '100', OUTBOX_RELAY_INTERVAL_MS: '200', TASK_CACHE_TTL_MS: '200' } });
  db = await freshDatabase('ticketing_found_orders');
  service = await startTicketing(testConfig({ AMQP_URL: stack.amqpUrl, DATABASE_URL: db.url, TRACKING_RPC_TIMEOUT_MS: 3_000, ORDER_FINDING_INTERVAL_MS: 200 }), {
    logger: testLogger('ticketing'),
    host: '127.0.0.1',
    onHandled: handled.note,
  });
  publisher = new TestPublisher(stack.amqpUrl);
  await publisher.ready();
  pool = testPool(db.url, { max: 2 });
  await stack.enableClient('demo');
  await stack.simTask({ clientId: 'demo', taskId: '4711' });
  expect((await api.put(`/v1/partner-configs/${ACCOUNT}`, { orders: { trackingClientId: 'demo' } })).status).toBe(201);
  expect((await api.put(`/v1/partner-configs/${PLAIN_ACCOUNT}`, {})).status).toBe(201);
});

afterAll(async () => {
  await publisher?.close();
  await service?.stop();
  await pool?.end();
  await db?.drop();
  await stack?.stop();
});

describe('the orders part of a partner configuration', () => {
  it('is stored with its defaults, and absent means off', async () => {
    const config = await api.get<{ orders: unknown }>(`/v1/partner-configs/${ACCOUNT}`);
    expect(config.body.orders).toEqual({ trackingClientId: 'demo', references: [], rules: { slipMinutes: 30, raisePriorityOnSlip: true, reopenOnFailure: true, suggestResolveOnDelivery: true } });
    expect((await api.get<{ orders: unknown }>(`/v1/partner-configs/${PLAIN_ACCOUNT}`)).body.orders).toBeNull();
  });

  it('refuses a bad or catastrophic pattern, naming it, and keeps the stored configuration', async () => {
    const bad = await api.put<{ error: { code: string; message: string } }>(`/v1/partner-configs/${ACCOUNT}`, {
      orders: { trackingClientId: 'demo', references: [{ pattern: 'order ([0-9]+', taskId: '$1' }, { pattern: '(\\d+)+$', taskId: '$1' }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_partner_config');
    expect(bad.body.error.message).toMatch(/\/orders\/references\/0\/pattern is not a valid regular expression/);
    expect(bad.body.error.message).toMatch(/\/orders\/references\/1\/pattern could take very long/);
    const shapeless = await api.put<{ error: { message: string } }>(`/v1/partner-configs/${ACCOUNT}`, { orders: { trackingClientId: 'demo', references: [{ pattern: 'x' }] } });
    expect(shapeless.status).toBe(400);
    expect(shapeless.body.error.message).toContain('taskId');
    expect((await api.get<{ orders: { references: unknown[] } }>(`/v1/partner-configs/${ACCOUNT}`)).body.orders.references).toEqual([]);
  });
});

describe('the order reference tester', () => {
  it('finds the references of a text and says whether tracking knows each', async () => {
    const answer = await api.post(`/v1/partner-configs/${ACCOUNT}/order-reference-test`, { text: 'where is my order 4711? or was it #99999' });
    expect(answer).toEqual({
      status: 200,
      body: {
        matches: [
          { reference: 'order 4711', taskId: '4711', exists: true, message: expect.stringContaining('links the ticket') },
          { reference: '#99999', taskId: '99999', exists: false, message: expect.stringContaining('links nothing') },
        ],
      },
    });
    expect((await api.post(`/v1/partner-configs/${ACCOUNT}/order-reference-test`, { text: 'hello' })).body).toEqual({ matches: [] });
  });

  it('refuses a body without text, and an account without a tracking client', async () => {
    const bad = await api.post<{ error: { code: string; message: string } }>(`/v1/partner-configs/${ACCOUNT}/order-reference-test`, { texts: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_order_reference_test');
    const off = await api.post<{ error: { code: string } }>(`/v1/partner-configs/${PLAIN_ACCOUNT}/order-reference-test`, { text: 'order 4711' });
    expect(off).toMatchObject({ status: 422, body: { error: { code: 'orders_not_configured' } } });
  });
});
