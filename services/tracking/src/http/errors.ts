import type { ErrorRequestHandler, Request } from 'express';
import { TRACKING_ERROR_KIND } from '@crm/contracts';
import { Refusal, type RequestPart } from '@crm/http';
import { MissingApiKey } from '../adapters/clients-store';
import { TrackingError } from '../domain/errors';
import { describeFieldErrors } from '../domain/field-errors';
import { InvalidTaskSeed } from '../lookups';

/**
 * Turns tracking's errors into HTTP answers; anything else goes on to the shared handler (500).
 * A create's validation errors list every field.
 */
export const domainErrors: ErrorRequestHandler = (error: unknown, _req, _res, next) => {
  next(translate(error));
};

function translate(error: unknown): unknown {
  if (error instanceof InvalidTaskSeed) return new Refusal('invalid', 'invalid_task', describeFieldErrors(error.errors), { fields: error.errors });
  if (error instanceof TrackingError) {
    const headers: Record<string, string> = error.retryAfterSeconds ? { 'retry-after': String(error.retryAfterSeconds) } : {};
    return new Refusal(TRACKING_ERROR_KIND[error.code], error.code, error.message, { headers });
  }
  if (error instanceof MissingApiKey) return new Refusal('invalid', 'invalid_client', error.message);
  return error;
}

/** The code of a request the OpenAPI document refuses: tracking's own codes for a bad parameter, settings or task seed. */
export function invalidRequestCode(part: RequestPart, req: Request): string {
  if (part !== 'body') return 'invalid_parameter';
  return req.method === 'PUT' ? 'invalid_client' : 'invalid_task';
}
