/**
 * Why a use case on tickets refused, independent of the transport: http/ maps the kind to a
 * status code (invalid 400, not_found 404, conflict 409), the code and message go to the caller.
 */
export type RefusalKind = 'invalid' | 'not_found' | 'conflict';

export class Refused extends Error {
  override name = 'Refused';
  constructor(
    readonly kind: RefusalKind,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const invalid = (code: string, problems: string[]) => new Refused('invalid', code, problems.join('; '));
export const ticketNotFound = (id: string) => new Refused('not_found', 'ticket_not_found', `no ticket with id '${id.slice(0, 100)}'`);
export const conflict = (code: string, message: string) => new Refused('conflict', code, message);
