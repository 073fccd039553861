import type { Logger } from '@crm/logging';

/**
 * Runs a task now and every interval, never twice at once in this process; a run that fails
 * is logged and the next interval tries again. `runNow` lets a test (or a write) run it at once.
 */
export class Periodic {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly what: string,
    private readonly task: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.runNow(), intervalMs);
    this.timer.unref();
    void this.runNow();
  }

  /** Runs the task, or joins the run in progress. Never rejects. */
  runNow(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) return this.running;
    const run = this.task()
      .then(() => undefined)
      .catch((error: unknown) => {
        this.logger.warn(`${this.what} failed; it runs again on the next interval`, { reason: (error as Error).message });
      })
      .finally(() => {
        this.running = null;
      });
    this.running = run;
    return run;
  }

  /** Stops the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
