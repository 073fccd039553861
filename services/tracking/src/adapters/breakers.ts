import CircuitBreaker from 'opossum';
import prometheus from 'prom-client';
import type { Logger } from '@crm/logging';
import { TrackingError } from '../domain/errors';

export interface BreakerSettings {
  /** Failure share, in a full window, that opens the breaker. */
  errorThresholdPercentage: number;
  /** Calls a window needs before its failures can open the breaker. */
  volumeThreshold: number;
  /** The rolling window of the statistics. */
  windowMs: number;
  /** How long the breaker stays open before one trial call may pass. */
  resetTimeoutMs: number;
}

type Call = () => Promise<unknown>;

/**
 * One circuit breaker (opossum) per tracking client: a client whose provider calls keep
 * failing is answered at once (from stale data, or `circuit_open`) instead of piling up
 * calls, and other clients are unaffected. Only transient failures count; a refused key or
 * an unknown task is the provider answering fine.
 */
export class ClientBreakers {
  private readonly breakers = new Map<string, { breaker: CircuitBreaker<[Call], unknown>; openedAt: number }>();

  constructor(
    private readonly settings: BreakerSettings,
    private readonly logger: Logger,
  ) {
    const breakers = this.breakers;
    prometheus.register.removeSingleMetric('tracking_provider_breakers');
    new prometheus.Gauge({
      name: 'tracking_provider_breakers',
      help: "The tracking provider's circuit breakers (one per client), by state: closed, open (calls fail fast), half_open (one trial call).",
      labelNames: ['state'] as const,
      collect() {
        const states = { closed: 0, open: 0, half_open: 0 };
        for (const { breaker } of breakers.values()) states[breaker.halfOpen ? 'half_open' : breaker.opened ? 'open' : 'closed'] += 1;
        for (const [state, count] of Object.entries(states)) this.set({ state }, count);
      },
    });
  }

  private breakerOf(clientId: string) {
    let entry = this.breakers.get(clientId);
    if (!entry) {
      const breaker = new CircuitBreaker<[Call], unknown>((call) => call(), {
        name: `tracking-provider:${clientId}`,
        timeout: false, // each provider attempt has its own timeout
        errorThresholdPercentage: this.settings.errorThresholdPercentage,
        volumeThreshold: this.settings.volumeThreshold,
        rollingCountTimeout: this.settings.windowMs,
        rollingCountBuckets: 10,
        resetTimeout: this.settings.resetTimeoutMs,
        errorFilter: (error: unknown) => error instanceof TrackingError && !error.transient,
      });
      const created = { breaker, openedAt: 0 };
      breaker.on('open', () => {
        created.openedAt = Date.now();
        this.logger.warn('provider breaker opened: calls for this client fail fast', { clientId, resetTimeoutMs: this.settings.resetTimeoutMs });
      });
      breaker.on('halfOpen', () => this.logger.info('provider breaker half-open: one trial call may pass', { clientId }));
      breaker.on('close', () => this.logger.info('provider breaker closed', { clientId }));
      this.breakers.set(clientId, created);
      entry = created;
    }
    return entry;
  }

  /** Runs a provider call through the client's breaker; an open breaker fails at once with `circuit_open`. */
  async run<T>(clientId: string, call: () => Promise<T>): Promise<T> {
    const entry = this.breakerOf(clientId);
    try {
      return (await entry.breaker.fire(call)) as T;
    } catch (error) {
      if ((error as { code?: string }).code === 'EOPENBREAKER') {
        const retryAfterSeconds = Math.max(1, Math.ceil((entry.openedAt + this.settings.resetTimeoutMs - Date.now()) / 1000));
        throw new TrackingError('circuit_open', `the tracking provider keeps failing for client '${clientId}'; calls are paused for up to ${retryAfterSeconds} s`, true, retryAfterSeconds);
      }
      throw error;
    }
  }

  shutdown(): void {
    for (const { breaker } of this.breakers.values()) breaker.shutdown();
    this.breakers.clear();
  }
}
