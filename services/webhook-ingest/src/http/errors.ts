import type { ErrorRequestHandler } from 'express';
import { Refusal } from '@crm/http';
import type { Logger } from '@crm/logging';
import { PublishError } from '@crm/messaging';
import { SIGNATURE_HEADER } from '@crm/webhook-signature';
import { KeyUnavailable, UnknownEnvironment } from '../adapters/webhook-keys';

export const invalidSignature = () => new Refusal('unauthorized', 'invalid_signature', `${SIGNATURE_HEADER} does not match the body`);

/** Turns webhook-ingest's errors into HTTP answers; anything else goes on to the shared handler (500). */
export function domainErrors(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, _res, next) => {
    next(translateError(error, { envName: String(req.params.envName), delivery: req.method === 'POST' }, logger));
  };
}

/** webhook-ingest's errors as Refusals; anything else is returned as it is. */
export function translateError(error: unknown, request: { envName: string; delivery: boolean }, logger: Logger): unknown {
  // A delivery to an unknown environment is answered exactly as a bad signature: a stranger learns nothing from it.
  if (error instanceof UnknownEnvironment) return request.delivery ? invalidSignature() : new Refusal('not_found', 'unknown_environment', `no webhook environment '${request.envName.slice(0, 64)}'`);
  if (error instanceof KeyUnavailable) return new Refusal('unavailable', 'key_unavailable', 'the webhook key cannot be read right now; retry later', { headers: { 'retry-after': '5' } });
  if (error instanceof PublishError) {
    logger.warn('delivery not confirmed by the broker; answering 503 so the platform redelivers', { reason: error.message });
    return new Refusal('unavailable', 'broker_unavailable', 'the delivery could not be stored; retry later', { headers: { 'retry-after': '5' } });
  }
  return error;
}
