import type { ErrorRequestHandler } from 'express';
import { HttpError } from '@crm/http';
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
  TicketNotFound,
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

/** Turns the use cases' errors into HTTP answers; anything else goes on to the shared handler (500). */
export function domainErrors(): ErrorRequestHandler {
  return (error: unknown, _req, _res, next) => {
    const answer = ANSWERS.find(([type]) => error instanceof type);
    next(answer ? new HttpError(answer[1], answer[2], (error as Error).message) : error);
  };
}
