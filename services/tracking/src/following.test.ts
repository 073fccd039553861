import amqplib from 'amqplib';
import { randomBytes } from 'node:crypto';
import { Exchanges, FollowTask, TrackingCommandKeys, validateEnvelope, type Envelope } from '@crm/contracts';
import { makeEnvelope } from '@crm/messaging';
import { testPool, waitFor } from '@crm/testing';
import type { Pool } from '@crm/db';
import { FollowedTasks } from './adapters/followed-tasks';
import { PUSH_SIGNATURE_HEADER, signPush } from './domain/push-signature';
import { startStack, type TrackingStack } from './testing/stack';

/**
 * Following tasks against the simulator, the real PostgreSQL and RabbitMQ: polls and pushes,
 * one event per change on tracking.events, also with two tracking processes.
 */

let stack: TrackingStack;
let pool: Pool;
let listener: amqplib.ChannelModel;
let channel: amqplib.Channel;
let queue: string;
const heard: { routingKey: string; envelope: Envelope<Record<string, unknown>> }[] = [];
const sentinels = new Set<string>();
const PUSH_SECRET = randomBytes(24).toString('hex');

beforeAll(async () => {
  stack = await startStack({
    env: { FOLLOW_POLL_INTERVAL_SECONDS: '1', FOLLOW_ROUND_MS: '100', OUTBOX_RELAY_INTERVAL_MS: '200', TASK_CACHE_TTL_MS: '200' },
  });
  pool = testPool(stack.databaseUrl);
  await stack.enableClient('acme');
  const pushed = await stack.api.put('/v1/clients/acme', { enabled: true, pushSecret: PUSH_SECRET });
  expect(pushed.data).toMatchObject({ pushes: true });
  listener = await amqplib.connect(stack.amqpUrl);
  channel = await listener.createChannel();
  ({ queue } = await channel.assertQueue('', { exclusive: true }));
  await channel.bindQueue(queue, Exchanges.trackingEvents, '#');
  await channel.consume(
    queue,
    (message) => {
      if (!message) return;
      if (message.fields.routingKey === 'test.sentinel') sentinels.add(message.content.toString('utf8'));
      else heard.push({ routingKey: message.fields.routingKey, envelope: validateEnvelope(JSON.parse(message.content.toString('utf8'))) as Envelope<Record<string, unknown>> });
    },
    { noAck: true },
  );
});

afterAll(async () => {
  await listener?.close();
  await pool?.end();
  await stack?.stop();
});

/**
 * A task's events as a consumer applies them: once per event id. The outbox may publish one again
 * when a broker confirm is lost (its contract: consumers recognise a repeat by the id); a change
 * announced twice would carry two ids and still count twice.
 */
const eventsOf = (taskId: string, routingKey: string) => [
  ...new Map(heard.filter((h) => h.routingKey === routingKey && h.envelope.payload.taskId === taskId).map((h) => [h.envelope.id, h])).values(),
];

const followedRow = async (taskId: string) =>
  (await pool.query<{ status: string | null; followers: string[]; observed_at: Date | null }>('SELECT status, followers, observed_at FROM followed_tasks WHERE task_id = $1', [taskId])).rows[0] ?? null;

/**
 * Everything tracking stored to announce is out (its outbox is empty, so the broker confirmed
 * each, queued behind them), and a message sent after them has come through: none is still on its way.
 */
async function settled(): Promise<void> {
  await waitFor(async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox')).rows[0]!.n === 0, { what: 'an empty outbox' });
  const mark = randomBytes(8).toString('hex');
  channel.publish(Exchanges.trackingEvents, 'test.sentinel', Buffer.from(mark));
  await waitFor(() => sentinels.has(mark), { what: 'the sentinel' });
}

/** A task on its way (STARTED), followed by `follower` over HTTP; its first record is the baseline. */
async function followedTask(follower: string): Promise<string> {
  const task = await stack.simTask({ clientId: 'acme', elapsedSeconds: 40 });
  const taskId = task.taskId as string;
  const res = await stack.api.put(`/v1/clients/acme/tasks/${taskId}/followers/${follower}`);
  expect(res.status).toBe(200);
  expect(res.data).toEqual({ clientId: 'acme', taskId, follower, followers: [follower] });
  expect(await followedRow(taskId)).toMatchObject({ status: 'out_for_delivery' });
  return taskId;
}

it('announces a followed task cancelled in the provider once, with two tracking processes polling, and stops following it', async () => {
  await stack.startReplica();
  const taskId = await followedTask('ticket-1');
  expect((await stack.sim.post(`/control/tasks/acme/${taskId}/cancel`)).status).toBe(200);

  await waitFor(() => eventsOf(taskId, 'task.status_changed').length > 0, { what: 'task.status_changed' });
  await waitFor(async () => (await followedRow(taskId)) === null, { what: 'the task no longer followed' });
  await settled();
  const [event, ...more] = eventsOf(taskId, 'task.status_changed');
  expect(more).toEqual([]);
  expect(event!.envelope).toMatchObject({
    id: event!.envelope.payload.eventId,
    type: 'task.status_changed.v1',
    producer: 'tracking',
    payload: { clientId: 'acme', taskId, followers: ['ticket-1'], from: 'out_for_delivery', to: 'cancelled', providerStatus: 'CANCELLED' },
  });
});

it('announces a 30-minute delay once as task.eta_moved, with the old and the new ETA', async () => {
  const taskId = await followedTask('ticket-2');
  const before = (await stack.sim.get(`/control/tasks/acme/${taskId}`)).data.eta as string;
  const delayed = await stack.sim.post(`/control/tasks/acme/${taskId}/delay`, { minutes: 30 });
  expect(delayed.status).toBe(200);

  await waitFor(() => eventsOf(taskId, 'task.eta_moved').length > 0, { what: 'task.eta_moved' });
  // A later poll compared the same ETA again.
  const movedAt = Date.now();
  await waitFor(async () => ((await followedRow(taskId))?.observed_at?.getTime() ?? 0) > movedAt, { what: 'a poll after the move' });
  await settled();
  expect(eventsOf(taskId, 'task.eta_moved').map((e) => e.envelope.payload)).toEqual([
    expect.objectContaining({ followers: ['ticket-2'], previousEta: before, eta: delayed.data.eta, movedBySeconds: 1800 }),
  ]);
  expect(eventsOf(taskId, 'task.status_changed')).toEqual([]);
});

it('announces a rider that fell silent while out for delivery once', async () => {
  const task = await stack.simTask({ clientId: 'acme', elapsedSeconds: 40, position: 'frozen', speedMps: 1 });
  const taskId = task.taskId as string;
  expect((await stack.api.put(`/v1/clients/acme/tasks/${taskId}/followers/ticket-8`)).status).toBe(200);
  // The rider's phone stopped reporting when the trip started; 200 s later it is silent.
  const advanced = (await stack.sim.post(`/control/tasks/acme/${taskId}/advance`, { seconds: 200 })).data;

  await waitFor(() => eventsOf(taskId, 'task.rider_silent').length > 0, { what: 'task.rider_silent' });
  const silentAt = Date.now();
  await waitFor(async () => ((await followedRow(taskId))?.observed_at?.getTime() ?? 0) > silentAt, { what: 'a poll after the silence' });
  await settled();
  expect(eventsOf(taskId, 'task.rider_silent').map((e) => e.envelope.payload)).toEqual([
    expect.objectContaining({ followers: ['ticket-8'], lastPositionAt: advanced.riderLocation.time, silentAfterSeconds: 120 }),
  ]);
});

describe('pushes', () => {
  it('give one event for a change both pushed and polled', async () => {
    const taskId = await followedTask('ticket-3');
    const url = `http://127.0.0.1:${stack.service.port}/provider/clients/acme/task-pushes`;
    expect((await stack.sim.put('/control/clients/acme/webhook', { url, secret: PUSH_SECRET })).status).toBe(200);
    const pushedAt = Date.now();
    await stack.sim.post(`/control/tasks/acme/${taskId}/delay`, { minutes: 20 });

    const pushes = (await stack.sim.get('/control/pushes')).data.items as { taskId: string; status: number }[];
    expect(pushes.filter((p) => p.taskId === taskId).at(-1)).toMatchObject({ status: 202 });
    // The push was compared as soon as it came: the event is stored before the simulator's call ends.
    await waitFor(() => eventsOf(taskId, 'task.eta_moved').length > 0, { what: 'task.eta_moved' });
    await waitFor(async () => ((await followedRow(taskId))?.observed_at?.getTime() ?? 0) > pushedAt + 1_000, { what: 'a poll after the push' });
    await settled();
    expect(eventsOf(taskId, 'task.eta_moved')).toHaveLength(1);
    await stack.sim.delete('/control/clients/acme/webhook');
  });

  it('keeps the push secret sealed at rest', async () => {
    const { rows } = await pool.query<{ push_secret_sealed: string }>('SELECT push_secret_sealed FROM tracking_clients WHERE client_id = $1', ['acme']);
    expect(rows[0]!.push_secret_sealed).toEqual(expect.any(String));
    expect(rows[0]!.push_secret_sealed).not.toContain(PUSH_SECRET);
  });

  it('refuses a bad signature with 401 and ignores a task nobody follows with 202', async () => {
    const url = '/provider/clients/acme/task-pushes';
    const body = JSON.stringify({ taskId: 'nobody-follows', clientId: 'acme', status: { status: 'CANCELLED' } });
    const headers = (signature: string) => ({ 'content-type': 'application/json', [PUSH_SIGNATURE_HEADER]: signature });
    const bad = await stack.api.post(url, body, { headers: headers(signPush('not-the-secret-at-all', body)) });
    expect((await stack.api.post(url, '{"anything":1}', { headers: headers('sha256=00') })).status).toBe(401);
    expect(bad.status).toBe(401);
    expect(bad.data.error).toMatchObject({ code: 'invalid_signature', message: expect.stringContaining('HMAC-SHA256') });
    expect((await stack.api.post(url, body, { headers: { 'content-type': 'application/json' } })).status).toBe(401);
    const ignored = await stack.api.post(url, body, { headers: headers(signPush(PUSH_SECRET, body)) });
    expect(ignored.status).toBe(202);
    expect(ignored.data).toEqual({ accepted: true, followed: false });
  });
});

describe('following', () => {
  it('is idempotent over HTTP, and a task with no follower left is no longer followed', async () => {
    const taskId = await followedTask('ticket-4');
    const again = await stack.api.put(`/v1/clients/acme/tasks/${taskId}/followers/ticket-4`);
    expect(again.data.followers).toEqual(['ticket-4']);
    expect((await stack.api.put(`/v1/clients/acme/tasks/${taskId}/followers/ticket-5`)).data.followers).toEqual(['ticket-4', 'ticket-5']);
    expect((await stack.api.delete(`/v1/clients/acme/tasks/${taskId}/followers/ticket-4`)).data.followers).toEqual(['ticket-5']);
    expect((await stack.api.delete(`/v1/clients/acme/tasks/${taskId}/followers/ticket-5`)).data.followers).toEqual([]);
    expect(await followedRow(taskId)).toBeNull();
    expect((await stack.api.delete(`/v1/clients/acme/tasks/${taskId}/followers/ticket-5`)).status).toBe(200);
  });

  it('does not follow a task that has ended already', async () => {
    const task = await stack.simTask({ clientId: 'acme', elapsedSeconds: 40 });
    await stack.sim.post(`/control/tasks/acme/${task.taskId as string}/cancel`);
    const res = await stack.api.put(`/v1/clients/acme/tasks/${task.taskId as string}/followers/ticket-9`);
    expect(res.status).toBe(200);
    expect(res.data.followers).toEqual([]);
    expect(await followedRow(task.taskId as string)).toBeNull();
  });

  it('refuses an unknown task or client with a 404 saying which', async () => {
    const task = await stack.api.put('/v1/clients/acme/tasks/no-such-task/followers/ticket-6');
    expect(task.status).toBe(404);
    expect(task.data.error.code).toBe('task_not_found');
    const client = await stack.api.put('/v1/clients/nobody/tasks/t-1/followers/ticket-6');
    expect(client.status).toBe(404);
    expect(client.data.error).toMatchObject({ code: 'client_not_found', message: expect.stringContaining('PUT /v1/clients/nobody') });
  });

  it('takes follow_task from the broker', async () => {
    const task = await stack.simTask({ clientId: 'acme', elapsedSeconds: 40 });
    const taskId = task.taskId as string;
    const command = makeEnvelope(FollowTask, 'ticketing', { clientId: 'acme', taskId, follower: 'ticket-7' });
    channel.publish(Exchanges.trackingCommands, TrackingCommandKeys.follow, Buffer.from(JSON.stringify(command)), { persistent: true, messageId: command.id, contentType: 'application/json' });
    const row = await waitFor(async () => {
      const followed = await followedRow(taskId);
      return followed?.status ? followed : null;
    }, { what: 'the task followed, its baseline taken' });
    expect(row).toMatchObject({ followers: ['ticket-7'], status: 'out_for_delivery' });
  });
});

describe('poll claims', () => {
  it('never give the same task to two replicas in one round, and stay within the round share of the budget', async () => {
    // Tasks of a client tracking does not poll itself (not enabled), so only these claims take them.
    for (let i = 0; i < 10; i += 1) await pool.query("INSERT INTO followed_tasks (client_id, task_id, followers) VALUES ('claims', $1, ARRAY['t'])", [`c-${i}`]);
    const limits = { perMinute: 1_000, perRound: 4, roundMs: 60_000, pollIntervalSeconds: 3_600 };
    const replicas = [new FollowedTasks(pool), new FollowedTasks(pool)];
    const claims = await Promise.all(replicas.map((replica) => replica.claimDue('claims', limits)));
    const all = claims.flat();
    expect(new Set(all).size).toBe(all.length);
    for (const claim of claims) expect(claim.length).toBeLessThanOrEqual(4);
    // Claimed tasks are leased for the interval: a further claim does not see them due.
    const again = await replicas[0]!.claimDue('claims', { ...limits, perRound: 100 });
    expect(again.filter((taskId) => all.includes(taskId))).toEqual([]);
  });
});
