import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ConfigError } from '@crm/config';
import { redact } from '@crm/logging';
import { testLogger } from '@crm/testing';
import { createTrackingSimulatorApp } from './app';
import { loadSimulatorConfig } from './config';

const KEY = 'sim-test-api-key-1';
const basic = (user: string, key: string) => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;

describe('tracking provider simulator', () => {
  const app = createTrackingSimulatorApp({
    config: loadSimulatorConfig({ SIM_CLIENTS: `acme:${KEY},other:other-key-123`, PUBLIC_URL: 'http://sim.test' }),
    logger: testLogger('tracking-provider-simulator'),
  });
  const getTask = (taskId: string, { user = 'acme', key = KEY, query = '' } = {}) =>
    request(app).get(`/v1/client/acme/task/${taskId}${query}`).set('authorization', basic(user, key)).send({});

  beforeEach(async () => {
    await request(app).delete('/control/failures').expect(200);
    await request(app).delete('/control/calls').expect(200);
  });

  it('answers a task record to its client with basic auth, taking {} as the GET body and extra groups by include', async () => {
    await request(app).post('/control/tasks').send({ clientId: 'acme', taskId: 'a-1', elapsedSeconds: 60 }).expect(201);
    const res = await getTask('a-1', { query: '?include=orderDetail,statusUpdates' }).expect(200);
    expect(res.body).toMatchObject({ taskId: 'a-1', clientId: 'acme', status: { status: 'STARTED' }, statusUpdates: expect.any(Array) });
    expect(res.body.taskGraph.visits[1].trackLink).toBe('http://sim.test/track/acme/a-1');
    const { items } = (await request(app).get('/control/requests').expect(200)).body;
    expect(items[0]).toMatchObject({ method: 'GET', path: '/v1/client/acme/task/a-1', body: '{}', username: 'acme', query: { include: 'orderDetail,statusUpdates' } });
  });

  it('refuses a GET without the {} body, a wrong key, another client, and names unknown tasks', async () => {
    await request(app).post('/control/tasks').send({ clientId: 'acme', taskId: 'a-2' }).expect(201);
    const noBody = await request(app).get('/v1/client/acme/task/a-2').set('authorization', basic('acme', KEY)).expect(400);
    expect(noBody.body.error.message).toContain('{}');
    await getTask('a-2', { key: 'wrong-key' }).expect(401);
    await request(app).get('/v1/client/acme/task/a-2').send({}).expect(401);
    await getTask('a-2', { user: 'other', key: 'other-key-123' }).expect(403);
    const missing = await getTask('nope').expect(404);
    expect(missing.body.error.code).toBe('task_not_found');
  });

  it('creates with an idempotent PUT: the same task id twice makes one task', async () => {
    const body = { assignedUser: { carrierClientId: 'c-1', userId: 'u-7' }, sourceOrderId: 'o-1', orderDetail: { lineItems: [{ name: 'Tea' }] } };
    const first = await request(app).put('/v1/client/acme/mpmdtask/p-1').set('authorization', basic('acme', KEY)).send(body).expect(201);
    expect(first.body).toMatchObject({ taskId: 'p-1', status: { status: 'ASSIGNED' }, assignedUser: { userId: 'u-7' }, sourceOrderId: 'o-1', orderDetail: body.orderDetail });
    await request(app).put('/v1/client/acme/mpmdtask/p-1').set('authorization', basic('acme', KEY)).send(body).expect(200);
    const bad = await request(app).put('/v1/client/acme/mpmdtask/p-2').set('authorization', basic('acme', KEY)).send({}).expect(400);
    expect(bad.body.error.message).toContain('assignedUser.userId');
    // The POST create is not idempotent by itself: a taken id is a conflict.
    await request(app).post('/v1/client/acme/task').set('authorization', basic('acme', KEY)).send({ ...body, taskId: 'p-3' }).expect(201);
    await request(app).post('/v1/client/acme/task').set('authorization', basic('acme', KEY)).send({ ...body, taskId: 'p-3' }).expect(409);
  });

  it('counts provider calls per task and in all', async () => {
    await request(app).post('/control/tasks').send({ clientId: 'acme', taskId: 'c-1' }).expect(201);
    await getTask('c-1').expect(200);
    await getTask('c-1').expect(200);
    await getTask('nope').expect(404);
    await request(app).get('/route/v1/driving/77.59,12.97;77.6,12.98').expect(200);
    expect((await request(app).get('/control/calls')).body).toEqual({ provider: 3, router: 1, byTask: { 'acme/c-1': 2, 'acme/nope': 1 } });
  });

  it('injects errors for a number of calls, latency, dropped connections and timeouts, until cleared', async () => {
    await request(app).post('/control/tasks').send({ clientId: 'acme', taskId: 'f-1' }).expect(201);
    await request(app).put('/control/failures').send({ mode: 'error', status: 502, count: 2 }).expect(200);
    await getTask('f-1').expect(502);
    await getTask('f-1').expect(502);
    await getTask('f-1').expect(200);

    await request(app).put('/control/failures').send({ mode: 'error', status: 500, clientId: 'other' }).expect(200);
    await getTask('f-1').expect(200);

    await request(app).put('/control/failures').send({ mode: 'reset' }).expect(200);
    await expect(getTask('f-1')).rejects.toThrow(/socket hang up|ECONNRESET/);

    await request(app).put('/control/failures').send({ mode: 'timeout' }).expect(200);
    await expect(getTask('f-1').timeout(300)).rejects.toThrow(/Timeout/);

    await request(app).put('/control/failures').send({ mode: 'latency', latencyMs: 50 }).expect(200);
    await getTask('f-1').expect(200);
    await request(app).delete('/control/failures').expect(200);
    expect((await request(app).get('/control/failures')).body.items).toEqual([]);
  });

  it('fails the router on its own when asked', async () => {
    await request(app).put('/control/failures').send({ target: 'router', mode: 'error', status: 503 }).expect(200);
    await request(app).get('/route/v1/driving/77.59,12.97;77.6,12.98').expect(503);
    await request(app).post('/control/tasks').send({ clientId: 'acme', taskId: 'f-2' }).expect(201);
    await getTask('f-2').expect(200);
  });

  it('moves a task forward, and cancels it', async () => {
    await request(app).post('/control/tasks').send({ clientId: 'acme', taskId: 'm-1', speedMps: 50 }).expect(201);
    const moved = await request(app).post('/control/tasks/acme/m-1/advance').send({ seconds: 40 }).expect(200);
    expect(moved.body.status.status).toBe('STARTED');
    const cancelled = await request(app).post('/control/tasks/acme/m-1/cancel').expect(200);
    expect(cancelled.body.status.status).toBe('CANCELLED');
    await request(app).post('/control/tasks/acme/m-1/cancel').expect(409);
    const done = await request(app).post('/control/tasks/acme/m-1/advance').send({ seconds: 3600 }).expect(200);
    expect(done.body.status.status).toBe('CANCELLED');
  });

  it('delays a task (its ETA moves) and fails it', async () => {
    const before = (await request(app).post('/control/tasks').send({ clientId: 'acme', taskId: 'd-1', elapsedSeconds: 40 }).expect(201)).body;
    const delayed = (await request(app).post('/control/tasks/acme/d-1/delay').send({ minutes: 30 }).expect(200)).body;
    expect(Date.parse(delayed.eta) - Date.parse(before.eta)).toBe(30 * 60_000);
    expect(delayed.status.status).toBe('STARTED');
    const failed = (await request(app).post('/control/tasks/acme/d-1/fail').expect(200)).body;
    expect(failed).toMatchObject({ status: { status: 'FAILED' }, eta: null });
    await request(app).post('/control/tasks/acme/d-1/cancel').expect(409);
    await request(app).post('/control/tasks/acme/d-1/delay').send({ minutes: 5 }).expect(409);
  });

  it("pushes each change of a client's tasks to its webhook, signed over the raw body", async () => {
    const received: { body: string; headers: IncomingHttpHeaders }[] = [];
    const hook = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const secret = 'a-shared-push-secret-0123';
    try {
      await request(app).post('/control/tasks').send({ clientId: 'other', taskId: 'w-1', elapsedSeconds: 40 }).expect(201);
      await request(app).put('/control/clients/other/webhook').send({ url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`, secret }).expect(200);
      await request(app).post('/control/pushes/run').expect(200);
      await request(app).post('/control/pushes/run').expect(200);
      await request(app).post('/control/tasks/other/w-1/cancel').expect(200);
      expect(received.map((push) => JSON.parse(push.body).status.status)).toEqual(['STARTED', 'CANCELLED']);
      for (const push of received) expect(push.headers['x-provider-signature']).toBe(`sha256=${createHmac('sha256', secret).update(push.body).digest('hex')}`);
      const { items } = (await request(app).get('/control/pushes').expect(200)).body;
      expect(items.filter((item: { taskId: string }) => item.taskId === 'w-1')).toEqual([expect.objectContaining({ status: 202 }), expect.objectContaining({ status: 202 })]);
      await request(app).put('/control/clients/other/webhook').send({ url: 'ftp://x', secret }).expect(400);
    } finally {
      await request(app).delete('/control/clients/other/webhook').expect(200);
      await new Promise((resolve) => hook.close(resolve));
    }
  });

  it('names the bad field of a control request', async () => {
    const res = await request(app).post('/control/tasks').send({ clientId: 'acme', position: 'sideways' }).expect(400);
    expect(res.body.error.message).toContain('`position`');
    expect((await request(app).put('/control/failures').send({ mode: 'explode' }).expect(400)).body.error.message).toContain('`mode`');
    expect((await request(app).post('/control/tasks').send({ clientId: 'nobody' }).expect(400)).body.error.message).toContain('`clientId`');
  });
});

describe('loadSimulatorConfig', () => {
  it('defaults to port 3102 with the local demo client, and keeps keys out of logs', () => {
    const config = loadSimulatorConfig({});
    expect(config.PORT).toBe(3102);
    expect([...config.clients]).toEqual([['demo', 'local-dev-tracking-key']]);
    expect(config.PUBLIC_URL).toBe('http://127.0.0.1:3102');
    loadSimulatorConfig({ SIM_CLIENTS: 'x:sim-config-secret-key' });
    expect(redact('key sim-config-secret-key')).toBe('key [REDACTED]');
  });

  it('refuses a malformed client list in one line without showing it', () => {
    expect(() => loadSimulatorConfig({ SIM_CLIENTS: 'justakey' })).toThrow(ConfigError);
    expect(() => loadSimulatorConfig({ SIM_CLIENTS: 'justakey' })).not.toThrow(/justakey/);
  });
});
