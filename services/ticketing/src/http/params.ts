import { HttpError } from '@crm/http';
import type { TicketFilter } from '../adapters/db/ticket-queries';
import { TICKET_STATUSES, type TicketStatus } from '../domain/tickets';
import { decodeCursor } from './cursor';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

const invalid = (message: string) => new HttpError(400, 'invalid_parameter', message);

/** One query parameter as a string: absent or empty is undefined, a repeated one is an error. */
function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`${name} must be given once, as a plain value`);
  return value === '' ? undefined : value;
}

function text(query: Record<string, unknown>, name: string, maxLength: number): string | undefined {
  const value = single(query, name);
  if (value !== undefined && value.length > maxLength) throw invalid(`${name} must be at most ${maxLength} characters`);
  return value;
}

/** Validates the query of `GET /v1/tickets`; a bad value answers 400 naming the parameter. */
export function parseTicketListQuery(query: Record<string, unknown>): TicketFilter {
  const filter: TicketFilter = { limit: DEFAULT_LIMIT };

  const accountId = single(query, 'accountId');
  if (accountId !== undefined) {
    if (!/^[0-9]{1,30}$/.test(accountId)) throw invalid('accountId must be the account\'s platform id (digits)');
    filter.accountId = accountId;
  }
  const queue = text(query, 'queue', 100);
  if (queue !== undefined) filter.queue = queue;
  const folder = text(query, 'folder', 100);
  if (folder !== undefined) filter.folder = folder;

  const status = single(query, 'status');
  if (status !== undefined) {
    if (!(TICKET_STATUSES as readonly string[]).includes(status)) throw invalid(`status must be one of ${TICKET_STATUSES.join(', ')}`);
    filter.status = status as TicketStatus;
  }

  const q = text(query, 'q', 200)?.trim();
  if (q) filter.q = q;

  const limit = single(query, 'limit');
  if (limit !== undefined) {
    const value = /^[0-9]{1,4}$/.test(limit) ? Number(limit) : Number.NaN;
    if (!(value >= 1 && value <= MAX_LIMIT)) throw invalid(`limit must be a whole number from 1 to ${MAX_LIMIT}`);
    filter.limit = value;
  }

  const cursor = single(query, 'cursor');
  if (cursor !== undefined) {
    const position = decodeCursor(cursor);
    if (!position) throw invalid('cursor is not valid; pass the nextCursor of a previous page');
    filter.after = position;
  }
  return filter;
}
