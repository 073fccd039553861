import type { ErrorRequestHandler, Request } from 'express';
import type { TrackingErrorCode } from '@crm/contracts';
import { HttpError, type RequestPart } from '@crm/http';
import {
  AccountNotFound,
  AccountUnavailable,
  ContactNotFound,
  InvalidOrderLink,
  InvalidPartnerConfig,
  InvalidReply,
  NoRecipient,
  NothingToReplyTo,
  PartnerConfigNotFound,
  Refused,
  SearchBusy,
  SearchTimedOut,
  TicketNotFound,
  TrackingLookupFailed,
  TrackingUnavailable,
  type RefusalKind,
} from '../operations/errors';

/** Each error a use case throws, as the API answers it: status and code. */
const ANSWERS: [new (...args: never[]) => Error, number, string][] = [
  [TicketNotFound, 404, 'ticket_not_found'],
  [ContactNotFound, 404, 'contact_not_found'],
  [PartnerConfigNotFound, 404, 'partner_config_not_found'],
  [AccountNotFound, 404, 'account_not_found'],
  [InvalidReply, 400, 'invalid_reply'],
  [InvalidOrderLink, 400, 'invalid_order_link'],
  [InvalidPartnerConfig, 400, 'invalid_partner_config'],
  [AccountUnavailable, 409, 'account_unavailable'],
  [NoRecipient, 409, 'no_recipient'],
  [NothingToReplyTo, 409, 'nothing_to_reply_to'],
];

/** The status of each failure of tracking, as tracking's own API answers it. */
const TRACKING_STATUS: Record<TrackingErrorCode, number> = {
  client_not_found: 404,
  client_disabled: 403,
  task_not_found: 404,
  provider_auth_failed: 502,
  provider_rejected: 422,
  provider_unavailable: 503,
  provider_timeout: 504,
  circuit_open: 503,
};

const REFUSAL_STATUS: Record<RefusalKind, number> = { invalid: 400, not_found: 404, conflict: 409, unprocessable: 422 };

/** Turns the use cases' errors into HTTP answers; anything else goes on to the shared handler (500). */
export function domainErrors(): ErrorRequestHandler {
  return (error: unknown, _req, _res, next) => {
    if (error instanceof Refused) return next(new HttpError(REFUSAL_STATUS[error.kind], error.code, error.message));
    if (error instanceof TrackingLookupFailed) return next(new HttpError(TRACKING_STATUS[error.code], error.code, error.message));
    if (error instanceof SearchBusy) return next(new HttpError(429, 'search_busy', error.message, { 'retry-after': '1' }));
    if (error instanceof SearchTimedOut) return next(new HttpError(503, 'search_timeout', error.message, { 'retry-after': '5' }));
    if (error instanceof TrackingUnavailable) return next(new HttpError(503, 'tracking_unavailable', error.message, { 'retry-after': '5' }));
    const answer = ANSWERS.find(([type]) => error instanceof type);
    next(answer ? new HttpError(answer[1], answer[2], (error as Error).message) : error);
  };
}

/**
 * The code of a request the OpenAPI document refuses, the same as the use case gives what the
 * document cannot say: `invalid_parameter` for a path or query parameter, `invalid_idempotency_key`
 * for the Idempotency-Key header; for a body, the
 * operation's `x-invalid-request-code` (`invalid_reply`, `invalid_partner_config`, ...).
 */
export function invalidRequestCode(part: RequestPart, req: Request): string {
  // The only header the document checks is Idempotency-Key.
  if (part === 'header') return 'invalid_idempotency_key';
  if (part !== 'body') return 'invalid_parameter';
  const operation = (req as Request & { openapi?: { schema?: Record<string, unknown> } }).openapi?.schema;
  const code = operation?.['x-invalid-request-code'];
  return typeof code === 'string' ? code : 'invalid_request';
}
