import type { ErrorRequestHandler } from 'express';

/** An error the platform answers in its own shape: `{"errors":[{"code","message"}]}`. */
export class PlatformError extends Error {
  override name = 'PlatformError';
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Why, for the simulator's request log (the platform's message stays terse, as the real one). */
    readonly reason?: string,
    /** Answered as it is, on every route: problem details the platform gives whatever the API version (usage cap, depleted credits). */
    readonly problem?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * The platform refusing the whole app, as problem details: a 429 `usage-capped` once the
 * monthly cap is used up (with `x-rate-limit-reset` only when a test gives the cycle's end: the
 * platform documents none), a 402 `credits-depleted` once the prepaid credits are spent.
 */
export function appRefusal(kind: 'usage-capped' | 'credits-depleted', resetAt: number | null, reason = 'credits depleted by a test'): PlatformError {
  if (kind === 'usage-capped') {
    const headers: Record<string, string> = resetAt === null ? {} : { 'x-rate-limit-reset': String(Math.floor(resetAt / 1000)) };
    return new PlatformError(429, 0, 'Usage cap exceeded: Monthly product cap', headers, 'usage cap switched on by a test', {
      title: 'UsageCapExceeded',
      detail: 'Usage cap exceeded: Monthly product cap',
      type: 'https://api.x.com/2/problems/usage-capped',
      status: 429,
      period: 'Monthly',
      scope: 'Product',
    });
  }
  return new PlatformError(402, 0, 'Your enrolled account does not have any credits to fulfill this request.', {}, reason, {
    title: 'CreditsDepleted',
    detail: 'Your enrolled account does not have any credits to fulfill this request.',
    type: 'https://api.x.com/2/problems/credits-depleted',
    status: 402,
  });
}

/** The platform's usual errors. */
export const Errors = {
  badAuthData: () => new PlatformError(400, 215, 'Bad Authentication data.', {}, 'no usable Authorization header'),
  couldNotAuthenticate: (reason: string) => new PlatformError(401, 32, 'Could not authenticate you.', {}, reason),
  timestampOutOfBounds: (reason: string) => new PlatformError(401, 135, 'Timestamp out of bounds.', {}, reason),
  invalidToken: (reason = 'unknown, revoked or expired token') => new PlatformError(401, 89, 'Invalid or expired token.', {}, reason),
  wrongCredentialKind: (reason: string) => new PlatformError(403, 220, 'Your credentials do not allow access to this resource.', {}, reason),
  badAppCredentials: () => new PlatformError(403, 99, 'Unable to verify your credentials', {}, 'consumer key or secret wrong'),
  notFound: () => new PlatformError(404, 34, 'Sorry, that page does not exist.'),
  noStatus: () => new PlatformError(404, 144, 'No status found with that ID.'),
  userNotFound: () => new PlatformError(404, 50, 'User not found.'),
  missingParameter: (name: string) => new PlatformError(400, 38, `${name} parameter is missing.`),
  invalidParameter: (name: string) => new PlatformError(400, 44, `${name} parameter is invalid.`),
};

/** Answers PlatformErrors in the platform's shape; anything else becomes its 131 internal error. */
export function platformErrorHandler(onUnexpected: (error: unknown) => void): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error instanceof PlatformError) {
      res.locals.rejection = error.reason ?? error.message;
      if (error.problem) {
        res.set(error.headers).status(error.status).json(error.problem);
        return;
      }
      res.set(error.headers).status(error.status).json({ errors: [{ code: error.code, message: error.message }] });
      return;
    }
    onUnexpected(error);
    res.status(500).json({ errors: [{ code: 131, message: 'Internal error' }] });
  };
}
