import prometheus from 'prom-client';
import type { Logger } from '@crm/logging';

const runs = new prometheus.Counter({
  name: 'periodic_job_runs_total',
  help: 'Runs of a periodic job (by its name) that ended, by outcome: done, or failed (logged; the job runs again).',
  labelNames: ['job', 'outcome'] as const,
});

export interface PeriodicJobOptions {
  /** Runs once at `start`, before the first interval (default); false: the first run is one interval later. */
  runAtStart?: boolean;
}

/**
 * Every periodic job of a service: a task run on a timer and on demand (`runNow`), never twice
 * at once in this process. A timer tick during a run is skipped; a demand during a run makes
 * one more run after it (what the demand was for may have come after the running one read), and
 * resolves when that one ends. A run that fails is logged and counted, never thrown: the next
 * run tries again. `stop` ends the timer and waits for the run in progress, before the pool or
 * the broker it uses closes. Hand-written: the npm schedulers run on cron or on intervals but
 * neither join a run in progress nor coalesce demands into one more run.
 */
export class PeriodicJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** A demand came during the run in progress: the run after it, once asked for. */
  private next: Promise<void> | null = null;
  private ended = false;

  constructor(
    private readonly what: string,
    private readonly task: () => Promise<unknown>,
    private readonly logger: Logger,
    private readonly options: PeriodicJobOptions = {},
  ) {}

  /** Runs every `intervalMs` (and at once, unless `runAtStart` is false); 0 or less: only on demand. */
  start(intervalMs: number): void {
    if (this.ended) return;
    if (intervalMs > 0) {
      this.timer = setInterval(() => void (this.running ?? this.run()), intervalMs);
      this.timer.unref();
    }
    if (this.options.runAtStart !== false) void this.runNow();
  }

  /** Runs the task now, or once more after the run in progress; resolves when that run ends. Never rejects. */
  runNow(): Promise<void> {
    if (this.ended) return Promise.resolve();
    if (!this.running) return this.run();
    this.next ??= this.running.then(() => {
      this.next = null;
      return this.ended ? undefined : (this.running ?? this.run());
    });
    return this.next;
  }

  /** True once `stop` was called: a task that loops may end early. */
  get stopped(): boolean {
    return this.ended;
  }

  /** Stops the timer and waits for the run in progress (no further run starts). */
  async stop(): Promise<void> {
    this.ended = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private run(): Promise<void> {
    // A task that throws before its first await fails its run like one that rejects.
    const run = new Promise((resolve) => resolve(this.task()))
      .then(() => void runs.inc({ job: this.what, outcome: 'done' }))
      .catch((error: unknown) => {
        runs.inc({ job: this.what, outcome: 'failed' });
        this.logger.warn(`${this.what} failed; it runs again`, { reason: (error as Error).message });
      })
      .finally(() => {
        this.running = null;
      });
    this.running = run;
    return run;
  }
}
