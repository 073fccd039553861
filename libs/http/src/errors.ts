import type { ErrorRequestHandler, RequestHandler } from 'express';
import { Refusal, type RefusalKind } from '@crm/contracts';
import type { Logger } from '@crm/logging';

/** The HTTP status of each kind of refusal: the one place a service's errors become statuses. */
export const REFUSAL_STATUS: Record<RefusalKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  upstream_rejected: 422,
  rate_limited: 429,
  not_implemented: 501,
  upstream_failed: 502,
  unavailable: 503,
  upstream_timeout: 504,
};

/** The kind of refusal an HTTP status is, for an answer relayed from another API (4xx and 5xx outside the table: undefined). */
export function refusalKindOf(status: number): RefusalKind | undefined {
  return (Object.keys(REFUSAL_STATUS) as RefusalKind[]).find((kind) => REFUSAL_STATUS[kind] === status);
}

export function errorBody(code: string, message: string, fields?: unknown[]) {
  return { error: fields === undefined ? { code, message } : { code, message, fields } };
}

export const notFound: RequestHandler = (req) => {
  throw new Refusal('not_found', 'not_found', `no route for ${req.method} ${req.path}`);
};

/** Socket errors, and PostgreSQL's connection exceptions (class 08), shutdowns (57P01-57P03) and a write on a standby (25006): what a failover or a restart looks like. */
const CONNECTION_LOST_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '25006']);

function isConnectionLost(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (CONNECTION_LOST_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  // node-postgres' own words for a connection the server closed without a reason.
  return message === 'Connection terminated unexpectedly';
}

/** The answer to an error: its status, headers and `{"error":{"code","message"}}` body; internal details go to the log. */
export function errorAnswer(error: unknown, logger: Logger): { status: number; headers: Record<string, string>; body: ReturnType<typeof errorBody> } {
  if (error instanceof Refusal) return { status: REFUSAL_STATUS[error.kind], headers: error.details.headers ?? {}, body: errorBody(error.code, error.message, error.details.fields) };
  const parserError = error as { type?: string; status?: number; limit?: number };
  if (parserError.type === 'entity.too.large') {
    return { status: 413, headers: {}, body: errorBody('payload_too_large', `the body is larger than the limit of ${parserError.limit} bytes`) };
  }
  if (parserError.type === 'entity.parse.failed') return { status: 400, headers: {}, body: errorBody('invalid_json', 'the body is not valid JSON') };
  if (parserError.status && parserError.status >= 400 && parserError.status < 500) {
    return { status: parserError.status, headers: {}, body: errorBody('bad_request', (error as Error).message) };
  }
  if (isConnectionLost(error)) {
    logger.warn('request failed: a server this service depends on is unreachable', { reason: (error as Error).message });
    return { status: 503, headers: { 'retry-after': '5' }, body: errorBody('unavailable', 'the service cannot reach its database or broker right now (a failover or a restart); try again in a few seconds') };
  }
  logger.error('request failed', { err: error });
  return { status: 500, headers: {}, body: errorBody('internal', 'something went wrong on our side; try again, and report it if it persists') };
}

/** Answers every error as `{"error":{"code","message"}}`; internal details stay in the log. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, _req, res, _next) => {
    const { status, headers, body } = errorAnswer(error, logger);
    res.set(headers).status(status).json(body);
  };
}
