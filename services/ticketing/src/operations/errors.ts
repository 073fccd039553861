import { Refusal } from '@crm/contracts';
import type { TrackingErrorCode } from '@crm/contracts';

/**
 * What a use case refuses, whatever asked it (HTTP, a message): each names what is wrong;
 * http/errors.ts says how the API answers it.
 */

export class TicketNotFound extends Error {
  override name = 'TicketNotFound';
  constructor(readonly ticketId: string) {
    super(`no ticket with id '${ticketId.slice(0, 100)}'`);
  }
}

export class ContactNotFound extends Error {
  override name = 'ContactNotFound';
  constructor(readonly contactId: string) {
    super(`no contact with id '${contactId.slice(0, 100)}'`);
  }
}

export class PartnerConfigNotFound extends Error {
  override name = 'PartnerConfigNotFound';
  constructor(readonly pageId: string) {
    super(`no partner configuration for page '${pageId}'`);
  }
}

export class AccountNotFound extends Error {
  override name = 'AccountNotFound';
  constructor(readonly accountId: string) {
    super(`ticketing has heard nothing of account '${accountId}'`);
  }
}

/** A reply's body (or the command it makes) is not acceptable; the message names the field. */
export class InvalidReply extends Error {
  override name = 'InvalidReply';
}

/** The account cannot act now (reconnect, revoked, disconnected); the message says what to do. */
export class AccountUnavailable extends Error {
  override name = 'AccountUnavailable';
}

/** A DM ticket without a contact: nobody to write to. */
export class NoRecipient extends Error {
  override name = 'NoRecipient';
  constructor() {
    super('this DM ticket has no contact to write to');
  }
}

/** A public ticket holding no customer post to answer (only deleted posts, or reactions). */
export class NothingToReplyTo extends Error {
  override name = 'NothingToReplyTo';
  constructor() {
    super('this ticket holds no post of a customer to reply to (only deleted posts or reactions)');
  }
}

/** An order link's body is not acceptable; the message names each bad field. */
export class InvalidOrderLink extends Error {
  override name = 'InvalidOrderLink';
}

/** Tracking could not show a linked order: `code` is tracking's (client_not_found, task_not_found, provider_timeout, ...). */
export class TrackingLookupFailed extends Error {
  override name = 'TrackingLookupFailed';
  constructor(
    readonly code: TrackingErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Tracking did not answer in time (or failed in a way of its own). */
export class TrackingUnavailable extends Error {
  override name = 'TrackingUnavailable';
}

/** A partner configuration's body is not acceptable; the message names each bad field. */
export class InvalidPartnerConfig extends Error {
  override name = 'InvalidPartnerConfig';
}

/**
 * A refusal of a ticket's life (changes, notes, merges, actions, webhook endpoints): invalid,
 * not_found, conflict or unprocessable, with the machine code; the message names the field or the current state.
 */
export const invalid = (code: string, problems: string[]) => new Refusal('invalid', code, problems.join('; '));
export const conflict = (code: string, message: string) => new Refusal('conflict', code, message);
export const notFound = (code: string, message: string) => new Refusal('not_found', code, message);
/** Well-formed, but what it names does not exist elsewhere (tracking has no such client or task): 422. */
export const unprocessable = (code: string, message: string) => new Refusal('unprocessable', code, message);

/**
 * A conversation of the delivery is being recorded by another transaction right now (a large
 * delivery, another replica): the delivery is recorded later instead of waiting in a consumer slot.
 */
export class ConversationBusy extends Error {
  override name = 'ConversationBusy';
}

/** The credential already runs as many searches as it may at a time. */
export class SearchBusy extends Error {
  override name = 'SearchBusy';
  constructor(readonly limit: number) {
    super(`this credential already runs ${limit} search${limit === 1 ? '' : 'es'} at a time; wait for one to answer, then search again`);
  }
}

/** A search ran longer than an interactive request may. */
export class SearchTimedOut extends Error {
  override name = 'SearchTimedOut';
  constructor() {
    super('the search took too long and was stopped; narrow it with an accountId, a status or more words');
  }
}
