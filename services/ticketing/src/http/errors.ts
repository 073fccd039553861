import type { ErrorRequestHandler, Request } from 'express';
import { TRACKING_ERROR_KIND } from '@crm/contracts';
import { Refusal, type RefusalKind, type RequestPart } from '@crm/http';
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
  SearchBusy,
  SearchTimedOut,
  TicketNotFound,
  TrackingLookupFailed,
  TrackingUnavailable,
} from '../operations/errors';

/** Each error a use case throws, as the refusal it is: kind and code. */
const ANSWERS: [new (...args: never[]) => Error, RefusalKind, string][] = [
  [TicketNotFound, 'not_found', 'ticket_not_found'],
  [ContactNotFound, 'not_found', 'contact_not_found'],
  [PartnerConfigNotFound, 'not_found', 'partner_config_not_found'],
  [AccountNotFound, 'not_found', 'account_not_found'],
  [InvalidReply, 'invalid', 'invalid_reply'],
  [InvalidOrderLink, 'invalid', 'invalid_order_link'],
  [InvalidPartnerConfig, 'invalid', 'invalid_partner_config'],
  [AccountUnavailable, 'conflict', 'account_unavailable'],
  [NoRecipient, 'conflict', 'no_recipient'],
  [NothingToReplyTo, 'conflict', 'nothing_to_reply_to'],
];

/** Turns the use cases' errors into refusals (libs/http answers them); anything else goes on to the shared handler (500). */
export function domainErrors(): ErrorRequestHandler {
  return (error: unknown, _req, _res, next) => {
    if (error instanceof TrackingLookupFailed) return next(new Refusal(TRACKING_ERROR_KIND[error.code], error.code, error.message));
    if (error instanceof SearchBusy) return next(new Refusal('rate_limited', 'search_busy', error.message, { headers: { 'retry-after': '1' } }));
    if (error instanceof SearchTimedOut) return next(new Refusal('unavailable', 'search_timeout', error.message, { headers: { 'retry-after': '5' } }));
    if (error instanceof TrackingUnavailable) return next(new Refusal('unavailable', 'tracking_unavailable', error.message, { headers: { 'retry-after': '5' } }));
    const answer = ANSWERS.find(([type]) => error instanceof type);
    next(answer ? new Refusal(answer[1], answer[2], (error as Error).message) : error);
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
