import type { Logger } from '@crm/logging';

/**
 * Runs `work` on a timer and on demand, never twice at once: a demand during a run is
 * remembered and served by one more run. Failures are logged, never thrown.
 */
export class RepeatingRun {
  private current: Promise<void> | undefined;
  private pending = false;
  private closed = false;
  private interval: NodeJS.Timeout | undefined;

  constructor(
    private readonly work: () => Promise<void>,
    private readonly logger: Logger,
    private readonly what: string,
  ) {}

  start(everyMs: number): void {
    this.interval = setInterval(() => void this.request(), everyMs);
    this.interval.unref();
    void this.request();
  }

  /** Asks for a run; resolves when the run that serves it (or the one in progress) ends. */
  request(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.current !== undefined) {
      this.pending = true;
      return this.current;
    }
    const run = (async () => {
      try {
        await this.work();
      } catch (error) {
        this.logger.warn(`${this.what} failed; it runs again`, { reason: (error as Error).message });
      }
    })();
    this.current = run.then(() => {
      this.current = undefined;
      if (this.pending) {
        this.pending = false;
        void this.request();
      }
    });
    return this.current;
  }

  get stopped(): boolean {
    return this.closed;
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearInterval(this.interval);
    await this.current;
  }
}
