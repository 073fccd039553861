import prometheus from 'prom-client';
import { capturingLogger, testLogger } from '@crm/testing';
import { PeriodicJob } from './index';

/** A task whose runs wait until released: `started` counts runs begun, `release()` ends the one waiting. */
function heldTask() {
  let started = 0;
  let running = 0;
  let most = 0;
  const waiting: Array<() => void> = [];
  return {
    task: async () => {
      started += 1;
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => waiting.push(resolve));
      running -= 1;
    },
    release: () => waiting.shift()?.(),
    get started() {
      return started;
    },
    get most() {
      return most;
    },
  };
}

// The timer is jest's: a test moves time on and asserts what ran, never waits on the clock.
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

async function runsOf(job: string): Promise<Record<string, number>> {
  const metric = await prometheus.register.getSingleMetric('periodic_job_runs_total')!.get();
  return Object.fromEntries(metric.values.filter((value) => value.labels.job === job).map((value) => [String(value.labels.outcome), value.value]));
}

it('runs at start and then on every interval', async () => {
  let runs = 0;
  const job = new PeriodicJob('ticking', async () => void (runs += 1), testLogger());
  job.start(10);
  expect(runs).toBe(1);
  await jest.advanceTimersByTimeAsync(25);
  expect(runs).toBe(3);
  await job.stop();
  await jest.advanceTimersByTimeAsync(50);
  expect(runs).toBe(3);
});

it('with runAtStart false, the first run is one interval later; with no interval, it runs only on demand', async () => {
  let runs = 0;
  const later = new PeriodicJob('later', async () => void (runs += 1), testLogger(), { runAtStart: false });
  later.start(10);
  await jest.advanceTimersByTimeAsync(9);
  expect(runs).toBe(0);
  await jest.advanceTimersByTimeAsync(1);
  expect(runs).toBe(1);
  await later.stop();

  let asked = 0;
  const onDemand = new PeriodicJob('on demand', async () => void (asked += 1), testLogger(), { runAtStart: false });
  onDemand.start(0);
  await jest.advanceTimersByTimeAsync(1_000);
  expect(asked).toBe(0);
  await onDemand.runNow();
  expect(asked).toBe(1);
  await onDemand.stop();
});

it('never runs twice at once: demands during a run make one more run after it, which their promises wait for', async () => {
  const held = heldTask();
  const job = new PeriodicJob('held', held.task, testLogger());
  const first = job.runNow();
  const [second, third] = [job.runNow(), job.runNow()];
  expect(held.started).toBe(1);
  let secondDone = false;
  void second.then(() => (secondDone = true));
  held.release();
  await first;
  await jest.advanceTimersByTimeAsync(0);
  expect(held.started).toBe(2);
  expect(secondDone).toBe(false);
  held.release();
  await Promise.all([second, third]);
  expect(held.started).toBe(2);
  expect(held.most).toBe(1);
  await job.stop();
});

it('skips a timer tick that comes during a run', async () => {
  const held = heldTask();
  const job = new PeriodicJob('slow', held.task, testLogger());
  job.start(5);
  await jest.advanceTimersByTimeAsync(60); // a dozen ticks while the first run is held
  expect(held.started).toBe(1);
  held.release();
  await jest.advanceTimersByTimeAsync(4);
  expect(held.started).toBe(1);
  await jest.advanceTimersByTimeAsync(1); // the next tick after the run
  expect(held.started).toBe(2);
  const stopped = job.stop();
  held.release();
  await stopped;
  expect(held.most).toBe(1);
});

it('logs and counts a failed run, never throws it, and runs again', async () => {
  const { logger, lines } = capturingLogger();
  let calls = 0;
  const job = new PeriodicJob('flaky', async () => {
    calls += 1;
    if (calls === 1) throw new Error('database unreachable');
  }, logger);
  const before = await runsOf('flaky');
  await expect(job.runNow()).resolves.toBeUndefined();
  await expect(job.runNow()).resolves.toBeUndefined();
  expect(await runsOf('flaky')).toEqual({ failed: (before.failed ?? 0) + 1, done: (before.done ?? 0) + 1 });
  expect(lines.some((line) => line.includes('flaky failed; it runs again') && line.includes('database unreachable'))).toBe(true);
  await job.stop();
});

it('stop waits for the run in progress, and none starts after it (a demand made during the run included)', async () => {
  const held = heldTask();
  const job = new PeriodicJob('stopping', held.task, testLogger());
  job.start(5);
  const demanded = job.runNow();
  let stopped = false;
  const stopping = job.stop().then(() => (stopped = true));
  await jest.advanceTimersByTimeAsync(20);
  expect(stopped).toBe(false);
  expect(job.stopped).toBe(true);
  held.release();
  await Promise.all([stopping, demanded]);
  expect(held.started).toBe(1);
  await job.runNow();
  expect(held.started).toBe(1);
});
