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

/** The HTTP status of each failure. */
export const HTTP_STATUS: Record<TrackingErrorCode, number> = {
  client_not_found: 404,
  client_disabled: 403,
  task_not_found: 404,
  provider_auth_failed: 502,
  provider_rejected: 422,
  provider_unavailable: 503,
  provider_timeout: 504,
  circuit_open: 503,
};
