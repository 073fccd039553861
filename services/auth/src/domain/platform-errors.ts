/**
 * How a call to the platform can end other than with an answer in the 2xx range. Each says
 * whether the call could have had an effect: that decides whether it may be tried again.
 */

/** The platform refused the request (4xx other than 429), with its code and message. */
export class PlatformRejected extends Error {
  override name = 'PlatformRejected';
  constructor(
    readonly status: number,
    readonly platformCode: number | null,
    readonly platformMessage: string,
  ) {
    super(`the platform answered ${status}${platformCode === null ? '' : ` (code ${platformCode})`}: ${platformMessage}`);
  }

  /** 401 code 89: the token is invalid, expired or revoked. */
  get invalidToken(): boolean {
    return this.status === 401 && this.platformCode === 89;
  }
}

/** 429: nothing was done; the window opens again at `resetAt`. */
export class RateLimited extends Error {
  override name = 'RateLimited';
  constructor(readonly resetAt: Date) {
    super(`rate limited by the platform until ${resetAt.toISOString()}`);
  }

  retryAfterSeconds(now = Date.now()): number {
    return Math.max(1, Math.ceil((this.resetAt.getTime() - now) / 1000));
  }
}

/** The request never reached the platform (connection refused, name not found): safe to try again. */
export class PlatformNotReached extends Error {
  override name = 'PlatformNotReached';
}

/** The platform failed (5xx). Whether a send took effect cannot be told. */
export class PlatformFailed extends Error {
  override name = 'PlatformFailed';
  constructor(
    readonly status: number,
    readonly platformCode: number | null,
    message: string,
  ) {
    super(message);
  }
}

/** The request left but no answer came (timeout, connection cut): whether it took effect cannot be told. */
export class NoAnswer extends Error {
  override name = 'NoAnswer';
}

/** The platform refuses the app's own credentials (403 code 99): an operator must fix the configuration. */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}
