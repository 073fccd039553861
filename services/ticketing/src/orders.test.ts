/**
 * Orders found in messages, against the real tracking service (in-process, on the
 * tracking-provider simulator) over the same virtual host and a database of ticketing's own:
 * the configuration's references, the reference tester, tickets linked from a customer's
 * words, and the followed order's changes on the ticket.
 */
import amqplib from 'amqplib';
import pg from 'pg';
import { Exchanges, TaskRiderSilent, TrackingCommandKeys, TrackingEventKeys } from '@crm/contracts';
import { directMessageReceived } from '@crm/social-platform-simulator/src/deliveries';
import { freshDatabase, testLogger, testPool, waitFor, type TestDatabase } from '@crm/testing';
import { startStack, type TrackingStack } from '@crm/tracking/src/testing/stack';
import { startTicketing, type RunningTicketing } from './service';
import { apiClient, HandledMessages, TestPublisher, testConfig } from './testing/harness';

let stack: TrackingStack;
let db: TestDatabase;
let service: RunningTicketing;
let publisher: TestPublisher;
let pool: pg.Pool;
let trackingPool: pg.Pool;
let listener: amqplib.ChannelModel;
/** The ticket.order_changed events published on crm.events. */
const orderChanges: { ticketId: string; order: { change: string; taskId: string; linkedBy: string; status: string | null } }[] = [];
const handled = new HandledMessages();
/** A copy of what ticketing publishes on tracking.commands (follow_task, unfollow_task), read with basic.get. */
let commandChannel: amqplib.Channel;
let commandQueue: string;
const commands: { key: string; follower: string; taskId: string }[] = [];
const api = apiClient(() => `http://127.0.0.1:${service.port}`);
/** Its configuration names the tracking client `demo`. */
const ACCOUNT = '30000011';
/** Its configuration has no orders part. */
const PLAIN_ACCOUNT = '30000012';

beforeAll(async () => {
  stack = await startStack({ logger: testLogger('tracking'), env: { FOLLOW_POLL_INTERVAL_SECONDS: '1', FOLLOW_ROUND_MS: '100', OUTBOX_RELAY_INTERVAL_MS: '200', TASK_CACHE_TTL_MS: '200' } });
  db = await freshDatabase('ticketing_found_orders');
  service = await startTicketing(testConfig({ AMQP_URL: stack.amqpUrl, DATABASE_URL: db.url, TRACKING_RPC_TIMEOUT_MS: 3_000, ORDER_FINDING_INTERVAL_MS: 200, ORDER_FINDING_RETRY_DELAYS_MS: Array(20).fill(300) }), {
    logger: testLogger('ticketing'),
    host: '127.0.0.1',
    onHandled: handled.note,
  });
  publisher = new TestPublisher(stack.amqpUrl);
  await publisher.ready();
  pool = testPool(db.url, { max: 2 });
  trackingPool = testPool(stack.databaseUrl, { max: 1 });
  listener = await amqplib.connect(stack.amqpUrl);
  const channel = await listener.createChannel();
  const { queue } = await channel.assertQueue('', { exclusive: true });
  await channel.bindQueue(queue, Exchanges.crmEvents, 'ticket.order_changed');
  await channel.consume(queue, (message) => message && orderChanges.push(JSON.parse(message.content.toString('utf8')).payload), { noAck: true });
  commandChannel = await listener.createChannel();
  commandQueue = (await commandChannel.assertQueue('', { exclusive: true })).queue;
  for (const key of [TrackingCommandKeys.follow, TrackingCommandKeys.unfollow]) await commandChannel.bindQueue(commandQueue, Exchanges.trackingCommands, key);
  await stack.enableClient('demo');
  await stack.simTask({ clientId: 'demo', taskId: '4711' });
  expect((await api.put(`/v1/partner-configs/${ACCOUNT}`, { orders: { trackingClientId: 'demo' } })).status).toBe(201);
  expect((await api.put(`/v1/partner-configs/${PLAIN_ACCOUNT}`, {})).status).toBe(201);
});

afterAll(async () => {
  await listener?.close();
  await publisher?.close();
  await service?.stop();
  await pool?.end();
  await trackingPool?.end();
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

  it('says exists null when tracking cannot answer now', async () => {
    await stack.sim.put('/control/failures', { target: 'provider', mode: 'error', status: 503, clientId: 'demo' });
    try {
      const answer = await api.post<{ matches: unknown[] }>(`/v1/partner-configs/${ACCOUNT}/order-reference-test`, { text: 'see http://sim.test/track/demo/6101' });
      expect(answer.body.matches).toEqual([{ reference: 'http://sim.test/track/demo/6101', taskId: '6101', exists: null, message: expect.stringContaining('checked again') }]);
    } finally {
      await stack.sim.delete('/control/failures');
    }
  });

  it('refuses a body without text, and an account without a tracking client', async () => {
    const bad = await api.post<{ error: { code: string; message: string } }>(`/v1/partner-configs/${ACCOUNT}/order-reference-test`, { texts: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_order_reference_test');
    const off = await api.post<{ error: { code: string } }>(`/v1/partner-configs/${PLAIN_ACCOUNT}/order-reference-test`, { text: 'order 4711' });
    expect(off).toMatchObject({ status: 422, body: { error: { code: 'orders_not_configured' } } });
  });
});

interface Order {
  clientId: string;
  taskId: string;
  linkedBy: 'agent' | 'auto';
  reference: string | null;
  status: string | null;
  eta: string | null;
}
interface Ticket {
  id: string;
  status: string;
  priority: string;
  order: Order | null;
  activities: { kind: string; text: string | null; data: Record<string, unknown> | null }[];
}

let customer = 0;
/** A new customer's DM to the account; resolves with its ticket once recorded. */
async function dmTicket(account: string, text: string): Promise<{ ticketId: string; customerId: string }> {
  customer += 1;
  const customerId = String(5_000_000 + customer);
  await handled.wait(await publisher.delivery(directMessageReceived({ account, customer: { id: customerId, screenName: `orderer${customer}` }, text })));
  const list = await api.get<{ items: { id: string; contact: { screenName: string } }[] }>(`/v1/tickets?accountId=${account}`);
  return { ticketId: list.body.items.find((t) => t.contact.screenName === `orderer${customer}`)!.id, customerId };
}

/** The same customer writes again (the DM joins its ticket). */
async function dmAgain(account: string, customerId: string, text: string): Promise<void> {
  await handled.wait(await publisher.delivery(directMessageReceived({ account, customer: { id: customerId, screenName: `again${customerId}` }, text })));
}

const ticketOf = async (ticketId: string) => (await api.get<Ticket>(`/v1/tickets/${ticketId}`)).body;
const findingsOf = async (ticketId: string) => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM order_findings WHERE ticket_id = $1', [ticketId])).rows[0]!.n;
/** Waits until every reference found for the ticket was checked (none waits any more). */
const checked = (ticketId: string) => waitFor(async () => (await findingsOf(ticketId)) === 0, { what: `the order references of ${ticketId} checked` });

describe('orders found in messages', () => {
  it('links the order a customer names within 5 s, by the words found', async () => {
    const { ticketId } = await dmTicket(ACCOUNT, 'where is my order 4711?');
    const order = await waitFor(async () => (await ticketOf(ticketId)).order, { timeoutMs: 5_000, what: 'the order linked' });
    // Linked with its status and ETA, from tracking's live view at link time, in the list too.
    expect(order).toMatchObject({ clientId: 'demo', taskId: '4711', linkedBy: 'auto', reference: 'order 4711', status: 'assigned', eta: expect.any(String) });
    const known = order;
    const listed = await api.get<{ items: { id: string; order: Order | null }[] }>(`/v1/tickets?accountId=${ACCOUNT}`);
    expect(listed.body.items.find((t) => t.id === ticketId)!.order).toMatchObject({ taskId: '4711', linkedBy: 'auto', status: 'assigned', eta: known!.eta });
    // The CRM hears of it.
    await waitFor(() => orderChanges.some((event) => event.ticketId === ticketId), { what: 'ticket.order_changed published' });
    expect(orderChanges.find((event) => event.ticketId === ticketId)!.order).toMatchObject({ change: 'linked', taskId: '4711', linkedBy: 'auto', status: 'assigned', eta: known!.eta });
  });

  it('links nothing for an order tracking does not know, and leaves no error on the ticket; a later message can name the right one', async () => {
    const { ticketId, customerId } = await dmTicket(ACCOUNT, 'my order 99999 never came');
    await checked(ticketId);
    const ticket = await ticketOf(ticketId);
    expect(ticket.order).toBeNull();
    expect(ticket.activities.map((a) => a.kind)).toEqual(['dm_received']);

    await dmAgain(ACCOUNT, customerId, 'sorry, it is order no. 4711');
    const order = await waitFor(async () => (await ticketOf(ticketId)).order, { timeoutMs: 5_000, what: 'the order linked' });
    expect(order).toMatchObject({ taskId: '4711', linkedBy: 'auto', reference: 'order no. 4711' });
  });

  it('leaves an account without a tracking client untouched', async () => {
    const { ticketId } = await dmTicket(PLAIN_ACCOUNT, 'where is my order 4711?');
    expect(await findingsOf(ticketId)).toBe(0);
    expect((await ticketOf(ticketId)).order).toBeNull();
  });

  it('asks tracking again later while it cannot answer, then links', async () => {
    await stack.simTask({ clientId: 'demo', taskId: '6001' });
    await stack.sim.put('/control/failures', { target: 'provider', mode: 'error', status: 503, clientId: 'demo' });
    const { ticketId } = await dmTicket(ACCOUNT, 'order 6001 is late');
    try {
      await waitFor(async () => ((await pool.query<{ attempts: number }>('SELECT attempts FROM order_findings WHERE ticket_id = $1', [ticketId])).rows[0]?.attempts ?? 0) >= 1, { what: 'a check put off' });
      expect((await ticketOf(ticketId)).order).toBeNull();
    } finally {
      await stack.sim.delete('/control/failures');
    }
    const order = await waitFor(async () => (await ticketOf(ticketId)).order, { what: 'the order linked once tracking answers' });
    expect(order).toMatchObject({ taskId: '6001', linkedBy: 'auto', reference: 'order 6001' });
  });

  it("never links again an order an agent unlinked, and an agent's link is the agent's", async () => {
    const { ticketId, customerId } = await dmTicket(ACCOUNT, 'order #4711 please');
    await waitFor(async () => (await ticketOf(ticketId)).order, { timeoutMs: 5_000, what: 'the order linked' });
    expect((await api.delete(`/v1/tickets/${ticketId}/order`)).status).toBe(204);
    await dmAgain(ACCOUNT, customerId, 'I said order 4711!');
    await checked(ticketId);
    expect((await ticketOf(ticketId)).order).toBeNull();

    // The refused order is passed over; another one named beside it is linked.
    await stack.simTask({ clientId: 'demo', taskId: '4713' });
    await dmAgain(ACCOUNT, customerId, 'order 4711, or was it order 4713?');
    const other = await waitFor(async () => (await ticketOf(ticketId)).order, { timeoutMs: 5_000, what: 'the other order linked' });
    expect(other).toMatchObject({ taskId: '4713', linkedBy: 'auto', reference: 'order 4713' });

    const relinked = await api.put<Order>(`/v1/tickets/${ticketId}/order`, { clientId: 'demo', taskId: '4711' });
    expect(relinked.body).toMatchObject({ linkedBy: 'agent', reference: null, taskId: '4711' });
  });
});

/** Waits until tracking follows the task for the ticket (its follow_task came through). */
const followed = (taskId: string, ticketId: string) =>
  waitFor(async () => (await trackingPool.query<{ followers: string[] }>('SELECT followers FROM followed_tasks WHERE task_id = $1', [taskId])).rows[0]?.followers.includes(ticketId), {
    what: `task ${taskId} followed for ${ticketId}`,
  });

const orderUpdates = async (ticketId: string) => (await ticketOf(ticketId)).activities.filter((a) => a.kind === 'order_update');

/** A ticket linked from a customer's words to a new task on its way, which tracking follows for it; and its customer. */
async function followingTicketOf(taskId: string): Promise<{ ticketId: string; customerId: string }> {
  await stack.simTask({ clientId: 'demo', taskId, elapsedSeconds: 40 });
  const opened = await dmTicket(ACCOUNT, `what about order ${taskId}?`);
  await waitFor(async () => (await ticketOf(opened.ticketId)).order, { timeoutMs: 5_000, what: 'the order linked' });
  await followed(taskId, opened.ticketId);
  return opened;
}
const followingTicket = async (taskId: string) => (await followingTicketOf(taskId)).ticketId;

describe("the followed order's changes on the ticket", () => {
  it('a cancelled delivery goes on the timeline and reopens the ticket, urgent', async () => {
    const ticketId = await followingTicket('5001');
    expect((await api.patch(`/v1/tickets/${ticketId}`, { status: 'pending' })).status).toBe(200);
    expect((await stack.sim.post('/control/tasks/demo/5001/cancel')).status).toBe(200);
    const entry = await waitFor(async () => (await orderUpdates(ticketId)).find((a) => a.text === 'Cancelled'), { what: 'the cancellation on the timeline' });
    expect(entry).toMatchObject({ text: 'Cancelled', data: expect.objectContaining({ event: 'task.status_changed', status: 'cancelled' }) });
    expect(await ticketOf(ticketId)).toMatchObject({ status: 'open', priority: 'urgent', order: { status: 'cancelled' } });
  });

  it('an ETA slip of 30 minutes raises the priority one step, once per ticket and order', async () => {
    const ticketId = await followingTicket('5002');
    expect((await ticketOf(ticketId)).priority).toBe('normal');
    expect((await stack.sim.post('/control/tasks/demo/5002/delay', { minutes: 30 })).status).toBe(200);
    await waitFor(async () => (await orderUpdates(ticketId)).length === 1, { what: 'the ETA move on the timeline' });
    const [moved] = await orderUpdates(ticketId);
    expect(moved!.text).toMatch(/^ETA moved \d\d:\d\d UTC -> \d\d:\d\d UTC$/);
    expect(await ticketOf(ticketId)).toMatchObject({ priority: 'high', order: { eta: expect.any(String) } });

    expect((await stack.sim.post('/control/tasks/demo/5002/delay', { minutes: 30 })).status).toBe(200);
    await waitFor(async () => (await orderUpdates(ticketId)).length === 2, { what: 'the second ETA move on the timeline' });
    expect((await ticketOf(ticketId)).priority).toBe('high');
  });

  it('applies the same event once, however often it comes', async () => {
    const ticketId = await followingTicket('5003');
    const payload = { eventId: `demo:5003:silent:test`, clientId: 'demo', taskId: '5003', followers: [ticketId], occurredAt: new Date().toISOString(), lastPositionAt: '2026-01-01T12:31:00.000Z', silentAfterSeconds: 120 };
    const first = await publisher.envelope(Exchanges.trackingEvents, TrackingEventKeys.riderSilent, TaskRiderSilent, payload, 'silent-test-1');
    await publisher.envelope(Exchanges.trackingEvents, TrackingEventKeys.riderSilent, TaskRiderSilent, payload, 'silent-test-1');
    await handled.wait(first.id, 2);
    const silent = (await orderUpdates(ticketId)).filter((a) => a.text?.startsWith('Rider silent'));
    expect(silent).toEqual([expect.objectContaining({ text: 'Rider silent since 12:31 UTC' })]);
  });
});

describe('following ends', () => {
  const followers = async (taskId: string) => (await trackingPool.query<{ followers: string[] }>('SELECT followers FROM followed_tasks WHERE task_id = $1', [taskId])).rows[0]?.followers ?? [];

  it('when the ticket is resolved, when its order is unlinked, and when it is merged into another', async () => {
    const resolved = await followingTicket('5101');
    expect((await api.patch(`/v1/tickets/${resolved}`, { status: 'resolved' })).status).toBe(200);
    await waitFor(async () => !(await followers('5101')).includes(resolved), { what: 'the resolved ticket no longer following' });

    const unlinked = await followingTicket('5102');
    expect((await api.delete(`/v1/tickets/${unlinked}/order`)).status).toBe(204);
    await waitFor(async () => !(await followers('5102')).includes(unlinked), { what: 'the unlinked ticket no longer following' });
    await waitFor(() => orderChanges.some((event) => event.ticketId === unlinked && event.order.change === 'unlinked'), { what: 'ticket.order_changed (unlinked) published' });

    const mergedAway = await followingTicket('5103');
    const { ticketId: target } = await dmTicket(ACCOUNT, 'hello again');
    expect((await api.post(`/v1/tickets/${target}/merge`, { sourceIds: [mergedAway] })).status).toBeLessThan(300);
    await waitFor(async () => !(await followers('5103')).includes(mergedAway), { what: 'the merged ticket no longer following' });
  });
});

/**
 * The follow_task commands ticketing has published for the ticket so far: all the outbox held
 * when asked is published first (confirmed by the broker, so in the copy queue).
 */
async function followsSent(ticketId: string): Promise<number> {
  const mark = (await pool.query<{ last: string }>('SELECT last_value AS last FROM outbox_id_seq')).rows[0]!.last;
  await waitFor(async () => (await pool.query('SELECT 1 FROM outbox WHERE id <= $1 LIMIT 1', [mark])).rows.length === 0, { what: 'the outbox published' });
  for (let message = await commandChannel.get(commandQueue, { noAck: true }); message; message = await commandChannel.get(commandQueue, { noAck: true })) {
    commands.push({ key: message.fields.routingKey, ...JSON.parse(message.content.toString('utf8')).payload });
  }
  return commands.filter((command) => command.key === TrackingCommandKeys.follow && command.follower === ticketId).length;
}

describe('following starts again when a ticket is reopened', () => {
  const followers = async (taskId: string) => (await trackingPool.query<{ followers: string[] }>('SELECT followers FROM followed_tasks WHERE task_id = $1', [taskId])).rows[0]?.followers ?? [];
  const resolve = async (ticketId: string, taskId: string) => {
    expect((await api.patch(`/v1/tickets/${ticketId}`, { status: 'resolved' })).status).toBe(200);
    await waitFor(async () => !(await followers(taskId)).includes(ticketId), { what: 'the resolved ticket no longer following' });
  };

  it("by an agent's status change: one follow_task, none while it stays worked, and the order's next change reaches it", async () => {
    const ticketId = await followingTicket('5301');
    expect(await followsSent(ticketId)).toBe(1);
    await resolve(ticketId, '5301');
    expect((await api.patch(`/v1/tickets/${ticketId}`, { status: 'open' })).status).toBe(200);
    await followed('5301', ticketId);
    // Already following: pending and open again send nothing.
    expect((await api.patch(`/v1/tickets/${ticketId}`, { status: 'pending' })).status).toBe(200);
    expect((await api.patch(`/v1/tickets/${ticketId}`, { status: 'open' })).status).toBe(200);
    expect(await followsSent(ticketId)).toBe(2);

    expect((await stack.sim.post('/control/tasks/demo/5301/delay', { minutes: 30 })).status).toBe(200);
    const moved = await waitFor(async () => (await orderUpdates(ticketId)).find((a) => a.text?.startsWith('ETA moved')), { what: 'the ETA move on the reopened ticket' });
    expect(moved).toMatchObject({ data: expect.objectContaining({ event: 'task.eta_moved' }) });
  });

  it("by a new customer message: one follow_task, and the order's next change reaches it", async () => {
    const { ticketId, customerId } = await followingTicketOf('5302');
    await resolve(ticketId, '5302');
    await dmAgain(ACCOUNT, customerId, 'it still has not come');
    expect(await ticketOf(ticketId)).toMatchObject({ status: 'open', activities: expect.arrayContaining([expect.objectContaining({ kind: 'reopened' })]) });
    await followed('5302', ticketId);
    expect(await followsSent(ticketId)).toBe(2);

    expect((await stack.sim.post('/control/tasks/demo/5302/cancel')).status).toBe(200);
    await waitFor(async () => (await orderUpdates(ticketId)).some((a) => a.text === 'Cancelled'), { what: 'the cancellation on the reopened ticket' });
    expect(await ticketOf(ticketId)).toMatchObject({ status: 'open', priority: 'urgent', order: { status: 'cancelled' } });
  });

  it('by an unmerge: a ticket taken out of the one it was merged into follows its order again', async () => {
    const mergedAway = await followingTicket('5305');
    const { ticketId: target } = await dmTicket(ACCOUNT, 'another question');
    expect((await api.post(`/v1/tickets/${target}/merge`, { sourceIds: [mergedAway] })).status).toBeLessThan(300);
    await waitFor(async () => !(await followers('5305')).includes(mergedAway), { what: 'the merged ticket no longer following' });
    expect((await api.post(`/v1/tickets/${mergedAway}/unmerge`, {})).status).toBeLessThan(300);
    expect((await ticketOf(mergedAway)).status).toBe('open');
    await followed('5305', mergedAway);
    expect(await followsSent(mergedAway)).toBe(2);
  });

  it('sends no follow_task for a ticket whose order an agent unlinked, however it is reopened', async () => {
    const { ticketId, customerId } = await followingTicketOf('5303');
    expect((await api.delete(`/v1/tickets/${ticketId}/order`)).status).toBe(204);
    expect((await api.patch(`/v1/tickets/${ticketId}`, { status: 'resolved' })).status).toBe(200);
    expect((await api.patch(`/v1/tickets/${ticketId}`, { status: 'open' })).status).toBe(200);
    expect((await api.patch(`/v1/tickets/${ticketId}`, { status: 'resolved' })).status).toBe(200);
    await dmAgain(ACCOUNT, customerId, 'hello again');
    expect((await ticketOf(ticketId)).status).toBe('open');
    expect(await followsSent(ticketId)).toBe(1);
    expect(await followers('5303')).not.toContain(ticketId);
  });

  it('sends no follow_task for an order known to be delivered: tracking would not follow it', async () => {
    await stack.simTask({ clientId: 'demo', taskId: '5304', elapsedSeconds: 86_400 });
    const { ticketId } = await dmTicket(ACCOUNT, 'order 5304 came broken');
    await waitFor(async () => (await ticketOf(ticketId)).order?.status === 'delivered', { timeoutMs: 5_000, what: 'the delivered order linked' });
    expect((await api.patch(`/v1/tickets/${ticketId}`, { status: 'resolved' })).status).toBe(200);
    expect((await api.patch(`/v1/tickets/${ticketId}`, { status: 'open' })).status).toBe(200);
    expect(await followsSent(ticketId)).toBe(1);
  });
});

describe('with two replicas of tracking and of ticketing', () => {
  it('applies a cancellation and a slip once each: one entry, one reopening, one raise, one announcement', async () => {
    await stack.startReplica();
    const second = await startTicketing(testConfig({ AMQP_URL: stack.amqpUrl, DATABASE_URL: db.url, TRACKING_RPC_TIMEOUT_MS: 3_000, ORDER_FINDING_INTERVAL_MS: 200 }), { logger: testLogger('ticketing-2'), host: '127.0.0.1' });
    try {
      const ticketId = await followingTicket('5201');
      expect((await stack.sim.post('/control/tasks/demo/5201/delay', { minutes: 30 })).status).toBe(200);
      await waitFor(async () => (await ticketOf(ticketId)).priority === 'high', { what: 'the slip raising the priority' });
      expect((await api.patch(`/v1/tickets/${ticketId}`, { status: 'pending' })).status).toBe(200);
      expect((await stack.sim.post('/control/tasks/demo/5201/cancel')).status).toBe(200);
      await waitFor(async () => (await orderUpdates(ticketId)).some((a) => a.text === 'Cancelled'), { what: 'the cancellation on the timeline' });
      expect(await ticketOf(ticketId)).toMatchObject({ status: 'open', priority: 'urgent', order: { status: 'cancelled' } });
      // Each change seen by either replica of tracking, taken by either replica of ticketing, is on the ticket once.
      const texts = (await orderUpdates(ticketId)).map((a) => a.text);
      expect(texts.filter((text) => text === 'Cancelled')).toHaveLength(1);
      expect(texts.filter((text) => text?.startsWith('ETA moved'))).toHaveLength(1);
      await waitFor(() => orderChanges.some((event) => event.ticketId === ticketId && event.order.status === 'cancelled'), { what: 'ticket.order_changed (cancelled) published' });
      expect(orderChanges.filter((event) => event.ticketId === ticketId && event.order.change === 'status_changed' && event.order.status === 'cancelled')).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });
});
