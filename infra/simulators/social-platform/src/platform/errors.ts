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
  ) {
    super(message);
  }
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
      res.set(error.headers).status(error.status).json({ errors: [{ code: error.code, message: error.message }] });
      return;
    }
    onUnexpected(error);
    res.status(500).json({ errors: [{ code: 131, message: 'Internal error' }] });
  };
}
