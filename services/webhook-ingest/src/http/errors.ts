import type { ErrorRequestHandler } from 'express';
import { HttpError } from '@crm/http';
import type { Logger } from '@crm/logging';
import { PublishError } from '@crm/messaging';
import { KeyUnavailable, UnknownEnvironment } from '../adapters/webhook-keys';

/** Turns webhook-ingest's errors into HTTP answers; anything else goes on to the shared handler (500). */
export function domainErrors(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, _res, next) => {
    next(translate(error, String(req.params.envName), logger));
  };
}

function translate(error: unknown, envName: string, logger: Logger): unknown {
  if (error instanceof UnknownEnvironment) return new HttpError(404, 'unknown_environment', `no webhook environment '${envName.slice(0, 64)}'`);
  if (error instanceof KeyUnavailable) return new HttpError(503, 'key_unavailable', 'the webhook key cannot be read right now; retry later', { 'retry-after': '5' });
  if (error instanceof PublishError) {
    logger.warn('delivery not confirmed by the broker; answering 503 so the platform redelivers', { reason: error.message });
    return new HttpError(503, 'broker_unavailable', 'the delivery could not be stored; retry later', { 'retry-after': '5' });
  }
  return error;
}
