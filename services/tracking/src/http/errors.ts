import type { ErrorRequestHandler, Request } from 'express';
import type { TrackingErrorCode } from '@crm/contracts';
import { errorBody, HttpError, type RequestPart } from '@crm/http';
import { MissingApiKey } from '../adapters/clients-store';
import { TrackingError } from '../domain/errors';
import { describeFieldErrors } from '../domain/field-errors';
import { InvalidTaskSeed } from '../lookups';

/** The HTTP status of each tracking failure. */
const STATUS: Record<TrackingErrorCode, number> = {
  client_not_found: 404,
  client_disabled: 403,
  task_not_found: 404,
  provider_auth_failed: 502,
  provider_rejected: 422,
  provider_unavailable: 503,
  provider_timeout: 504,
  circuit_open: 503,
};

/**
 * Turns tracking's errors into HTTP answers; anything else goes on to the shared handler (500).
 * A create's validation errors list every field.
 */
export const domainErrors: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  if (error instanceof InvalidTaskSeed) {
    res.status(400).json({ error: { ...errorBody('invalid_task', describeFieldErrors(error.errors)).error, fields: error.errors } });
    return;
  }
  next(translate(error));
};

function translate(error: unknown): unknown {
  if (error instanceof TrackingError) {
    const headers: Record<string, string> = error.retryAfterSeconds ? { 'retry-after': String(error.retryAfterSeconds) } : {};
    return new HttpError(STATUS[error.code], error.code, error.message, headers);
  }
  if (error instanceof MissingApiKey) return new HttpError(400, 'invalid_client', error.message);
  return error;
}

/** The code of a request the OpenAPI document refuses: tracking's own codes for a bad parameter, settings or task seed. */
export function invalidRequestCode(part: RequestPart, req: Request): string {
  if (part !== 'body') return 'invalid_parameter';
  return req.method === 'PUT' ? 'invalid_client' : 'invalid_task';
}
