import type { TrackingLiveView } from '@crm/contracts';
import { waitFor } from '@crm/testing';
import { startStack, type TrackingStack } from './testing/stack';

/**
 * How tracking treats the provider when it is slow or failing: per-attempt timeouts,
 * retries of reads only, one breaker per client, the cache with coalescing, and the last
 * good data served stale. No router here: routes are straight-line estimates.
 */

// Long enough for 100 requests to arrive on a loaded machine while the one provider call is in flight; shorter than STALE_MAX_SECONDS.
const TTL_MS = 2_500;
const RESET_MS = 300;
let stack: TrackingStack;

beforeAll(async () => {
  stack = await startStack({
    env: {
      TASK_CACHE_TTL_MS: String(TTL_MS),
      STALE_MAX_SECONDS: '5',
      PROVIDER_TIMEOUT_MS: '300',
      PROVIDER_READ_RETRIES: '1',
      PROVIDER_RETRY_DELAY_MS: '10',
      BREAKER_MIN_CALLS: '3',
      BREAKER_RESET_MS: String(RESET_MS),
    },
  });
  await stack.enableClient('acme');
});

afterAll(async () => {
  await stack?.stop();
});

afterEach(async () => {
  await stack.sim.delete('/control/failures');
});

const taskCalls = async (clientId: string, taskId: string) => (await stack.calls()).byTask[`${clientId}/${taskId}`] ?? 0;
const fail = (rule: Record<string, unknown>) => stack.sim.put('/control/failures', rule);
/** Waits until the cached record of the task has expired (TASK_CACHE_TTL_MS after its fetch). */
const cacheExpired = (clientId: string, taskId: string) => waitFor(() => !stack.service.lookups.holdsFresh(clientId, taskId), { what: `the cached record of ${clientId}/${taskId} to expire` });

describe('cache and coalescing', () => {
  it('makes one provider call for 100 simultaneous lookups of one task (in process)', async () => {
    await stack.simTask({ clientId: 'acme', taskId: 'co-1' });
    const client = await stack.service.lookups.client('acme');
    const results = await Promise.all(Array.from({ length: 100 }, () => stack.service.lookups.taskOf(client, 'co-1')));
    expect(results.every((r) => r.task.taskId === 'co-1')).toBe(true);
    expect(await taskCalls('acme', 'co-1')).toBe(1);
  });

  it('makes one provider call for 100 simultaneous live views over HTTP while the provider is slow', async () => {
    await stack.simTask({ clientId: 'acme', taskId: 'co-2', elapsedSeconds: 60 });
    // Slower than usual but within the 300 ms attempt timeout.
    await fail({ mode: 'latency', latencyMs: 250, count: 1 });
    const answers = await Promise.all(Array.from({ length: 100 }, () => stack.api.get(`/v1/clients/acme/tasks/co-2/live`)));
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
    expect((answers[0]!.data as TrackingLiveView).route).toMatchObject({ source: 'straight-line' });
    expect(await taskCalls('acme', 'co-2')).toBe(1);
  });

  it('asks the provider again once the cached record has expired', async () => {
    await stack.simTask({ clientId: 'acme', taskId: 'co-3' });
    await stack.api.get('/v1/clients/acme/tasks/co-3');
    await stack.api.get('/v1/clients/acme/tasks/co-3');
    expect(await taskCalls('acme', 'co-3')).toBe(1);
    await cacheExpired('acme', 'co-3');
    await stack.api.get('/v1/clients/acme/tasks/co-3');
    expect(await taskCalls('acme', 'co-3')).toBe(2);
  });
});

describe('retries and timeouts', () => {
  it('retries a read after a 5xx and answers from the second attempt', async () => {
    await stack.simTask({ clientId: 'acme', taskId: 'rt-1' });
    await fail({ mode: 'error', status: 503, count: 1 });
    const res = await stack.api.get('/v1/clients/acme/tasks/rt-1');
    expect(res.status).toBe(200);
    expect(await taskCalls('acme', 'rt-1')).toBe(2);
  });

  it('retries a read after a dropped connection', async () => {
    await stack.simTask({ clientId: 'acme', taskId: 'rt-2' });
    await fail({ mode: 'reset', count: 1 });
    expect((await stack.api.get('/v1/clients/acme/tasks/rt-2')).status).toBe(200);
    expect(await taskCalls('acme', 'rt-2')).toBe(2);
  });

  it('gives each attempt its own timeout, and answers 504 when every attempt timed out', async () => {
    await stack.simTask({ clientId: 'acme', taskId: 'rt-3' });
    await fail({ mode: 'timeout', count: 2 });
    const res = await stack.api.get('/v1/clients/acme/tasks/rt-3');
    expect(res.status).toBe(504);
    expect(res.data.error.code).toBe('provider_timeout');
    expect(await taskCalls('acme', 'rt-3')).toBe(2);
  });

  it('does not retry a 4xx', async () => {
    expect((await stack.api.get('/v1/clients/acme/tasks/rt-none')).status).toBe(404);
    expect(await taskCalls('acme', 'rt-none')).toBe(1);
  });

  it('never retries a create by itself; the caller repeats it safely with the same id', async () => {
    const body = { taskId: 'rt-create', assignedUser: { carrierClientId: 'c', userId: 'u' } };
    await fail({ mode: 'error', status: 500, count: 1 });
    const failed = await stack.api.post('/v1/clients/acme/tasks', body);
    expect(failed.status).toBe(503);
    expect(failed.data.error).toEqual({ code: 'provider_unavailable', message: expect.stringContaining('send the same create again') });
    expect(await taskCalls('acme', 'rt-create')).toBe(1);
    expect((await stack.api.post('/v1/clients/acme/tasks', body)).status).toBe(201);
    expect((await stack.api.post('/v1/clients/acme/tasks', body)).status).toBe(200);
  });
});

describe('circuit breaker per client', () => {
  it('opens after repeated failures, fails fast without calling, leaves other clients alone, and closes again', async () => {
    await stack.enableClient('flaky');
    await stack.simTask({ clientId: 'flaky', taskId: 'b-ok' });
    await stack.simTask({ clientId: 'acme', taskId: 'b-other' });
    await fail({ mode: 'error', status: 500, clientId: 'flaky' });

    for (const taskId of ['b-1', 'b-2', 'b-3']) {
      const res = await stack.api.get(`/v1/clients/flaky/tasks/${taskId}`);
      expect(res.status).toBe(503);
      expect(res.data.error.code).toBe('provider_unavailable');
    }
    const before = (await stack.calls()).provider;
    const open = await stack.api.get('/v1/clients/flaky/tasks/b-4');
    expect(open.status).toBe(503);
    expect(open.data.error.code).toBe('circuit_open');
    expect(Number(open.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await stack.calls()).provider).toBe(before);

    expect((await stack.api.get('/v1/clients/acme/tasks/b-other')).status).toBe(200);

    await stack.sim.delete('/control/failures');
    // After the reset timeout one trial call passes; it succeeds, and the breaker closes.
    const answered = await waitFor(async () => ((await stack.api.get('/v1/clients/flaky/tasks/b-ok')).status === 200 ? true : null), { what: 'the breaker to let a call through' });
    expect(answered).toBe(true);
    expect((await stack.api.get('/v1/clients/flaky/tasks/b-5')).data.error.code).toBe('task_not_found');
    expect(await taskCalls('flaky', 'b-5')).toBe(1);
  });
});

describe('stale data when the provider fails', () => {
  it('serves the last good record with a stale flag and its age, until it is too old', async () => {
    await stack.enableClient('stale');
    await stack.simTask({ clientId: 'stale', taskId: 's-1', elapsedSeconds: 60 });
    const fresh = await stack.api.get('/v1/clients/stale/tasks/s-1/live');
    expect(fresh.data.freshness).toMatchObject({ stale: false, staleReason: null });

    await cacheExpired('stale', 's-1');
    await fail({ mode: 'error', status: 503, clientId: 'stale' });
    const stale = await stack.api.get('/v1/clients/stale/tasks/s-1/live');
    expect(stale.status).toBe(200);
    expect(stale.data.freshness).toEqual({ fetchedAt: fresh.data.freshness.fetchedAt, ageSeconds: expect.any(Number), stale: true, staleReason: expect.stringContaining('HTTP 503') });
    expect(stale.data.freshness.ageSeconds).toBeGreaterThanOrEqual(1);
    expect(stale.data.rider).toEqual(fresh.data.rider === null ? null : expect.objectContaining({ recordedAt: fresh.data.rider.recordedAt }));
    expect((await stack.api.get('/v1/clients/stale/tasks/s-1')).data.freshness.stale).toBe(true);

    // A task never fetched has nothing to fall back on.
    await stack.simTask({ clientId: 'stale', taskId: 's-2' });
    expect((await stack.api.get('/v1/clients/stale/tasks/s-2')).status).toBe(503);

    // Past STALE_MAX_SECONDS (5 s) the old record is no longer served.
    const tooOld = await waitFor(async () => {
      const res = await stack.api.get('/v1/clients/stale/tasks/s-1');
      return res.status === 503 ? res.data : null;
    });
    expect(['provider_unavailable', 'circuit_open']).toContain(tooOld.error.code);

    await stack.sim.delete('/control/failures');
    const recovered = await waitFor(async () => {
      const res = await stack.api.get('/v1/clients/stale/tasks/s-1');
      return res.status === 200 && !res.data.freshness.stale ? res.data : null;
    });
    expect(recovered.freshness.staleReason).toBeNull();
  });
});
