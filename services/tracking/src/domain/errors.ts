import type { TrackingErrorCode } from '@crm/contracts';

/**
 * A lookup or create that failed in a way the caller should hear about. `transient`
 * failures (the provider down, slow, or its breaker open) may be answered with the last
 * good data; the others (unknown task, refused credentials) never are.
 */
export class TrackingError extends Error {
  override name = 'TrackingError';
  constructor(
    readonly code: TrackingErrorCode,
    message: string,
    readonly transient = false,
    /** When trying again makes sense (an open breaker's remaining time). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
