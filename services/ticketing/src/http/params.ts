import { TICKET_PRIORITIES, TICKET_STATUSES, type TicketStatus } from '@crm/contracts';
import { Refusal } from '@crm/http';
import type { ContactFilter, Position, TicketFilter } from '../adapters/db/ticket-queries';
import { InvalidSearch, MAX_SEARCH_LENGTH, parseTicketSearch, type TicketSearch } from '../domain/ticket-search';
import { decodeCursor, decodeIdCursor } from './cursor';

export const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

type Query = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const invalid = (message: string) => new Refusal('invalid', 'invalid_parameter', message);

/**
 * One query parameter as a string: absent or empty is undefined, a repeated one is an error. A
 * number or boolean is the request validator's reading of a parameter the document types so.
 */
function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') throw invalid(`${name} must be given once, as a plain value`);
  return value === '' ? undefined : value;
}

function text(query: Query, name: string, maxLength: number): string | undefined {
  const value = single(query, name);
  if (value !== undefined && value.length > maxLength) throw invalid(`${name} must be at most ${maxLength} characters`);
  return value;
}

/** A platform id parameter (`accountId`, `platformUserId`). */
export function platformIdParam(query: Query, name: string): string | undefined {
  const value = single(query, name);
  if (value !== undefined && !/^[0-9]{1,30}$/.test(value)) throw invalid(`${name} must be a platform id (digits)`);
  return value;
}

function limitParam(query: Query): number {
  const limit = single(query, 'limit');
  if (limit === undefined) return DEFAULT_LIMIT;
  const value = /^[0-9]{1,4}$/.test(limit) ? Number(limit) : Number.NaN;
  if (!(value >= 1 && value <= MAX_LIMIT)) throw invalid(`limit must be a whole number from 1 to ${MAX_LIMIT}`);
  return value;
}

function positionParam(query: Query): Position | undefined {
  const cursor = single(query, 'cursor');
  if (cursor === undefined) return undefined;
  const position = decodeCursor(cursor);
  if (!position) throw invalid('cursor is not valid; pass the nextCursor of a previous page');
  return position;
}

/** Validates the query of `GET /v1/tickets`; a bad value answers 400 naming the parameter. */
/** `me` is the asking principal's id, for `assignee=me`. */
export function parseTicketListQuery(query: Query, me?: string): TicketFilter {
  const filter: TicketFilter = { limit: limitParam(query) };
  const accountId = platformIdParam(query, 'accountId');
  if (accountId !== undefined) filter.accountId = accountId;
  const queue = text(query, 'queue', 100);
  if (queue !== undefined) filter.queue = queue;
  const folder = text(query, 'folder', 100);
  if (folder !== undefined) filter.folder = folder;
  const contactId = single(query, 'contactId');
  if (contactId !== undefined) {
    if (!UUID.test(contactId)) throw invalid("contactId must be a contact's id (a UUID, as a ticket's contact.id gives it)");
    filter.contactId = contactId.toLowerCase();
  }
  lifeFilters(query, filter, me);
  const q = text(query, 'q', MAX_SEARCH_LENGTH);
  if (q !== undefined) filter.q = searchParam(q);
  const after = positionParam(query);
  if (after && (after.order ?? null) !== (filter.order ?? null)) throw invalid('cursor belongs to another order; pass the nextCursor of a page in the same order');
  if (after) filter.after = after;
  return filter;
}

/** `q`: a search; one too short or too long answers 400 with what to type instead. */
function searchParam(q: string): TicketSearch {
  try {
    return parseTicketSearch(q);
  } catch (error) {
    if (error instanceof InvalidSearch) throw new Refusal('invalid', 'invalid_search', error.message);
    throw error;
  }
}

/** `status` (one or a comma-separated set), `assignee` (an agent, `me` or `none`), `priority`, `tag`, `updatedSince`, `breached`, `order`. */
function lifeFilters(query: Query, filter: TicketFilter, me: string | undefined): void {
  const status = single(query, 'status');
  if (status !== undefined) {
    const statuses = [...new Set(status.split(','))];
    if (!statuses.every((one) => (TICKET_STATUSES as readonly string[]).includes(one))) throw invalid(`status must be one or more (comma-separated) of ${TICKET_STATUSES.join(', ')}`);
    filter.statuses = statuses as TicketStatus[];
  }
  const assignee = text(query, 'assignee', 100);
  // `me`: the asking agent; `none`: nobody (both names are kept from being an agent's id).
  if (assignee === 'me' && me === undefined) throw invalid('assignee=me needs a signed-in agent');
  if (assignee !== undefined) filter.assignee = assignee === 'none' ? null : assignee === 'me' ? me! : assignee;
  const priority = single(query, 'priority');
  if (priority !== undefined) {
    if (!(TICKET_PRIORITIES as readonly string[]).includes(priority)) throw invalid(`priority must be one of ${TICKET_PRIORITIES.join(', ')}`);
    filter.priority = priority;
  }
  const tag = text(query, 'tag', 50);
  if (tag !== undefined) filter.tag = tag;
  const updatedSince = single(query, 'updatedSince');
  if (updatedSince !== undefined) {
    if (!/^\d{4}-\d\d-\d\dT[0-9:.]+(Z|[+-]\d\d:\d\d)$/.test(updatedSince) || Number.isNaN(Date.parse(updatedSince))) throw invalid('updatedSince must be a date-time (RFC 3339)');
    filter.updatedSince = new Date(updatedSince);
  }
  const breached = single(query, 'breached');
  if (breached !== undefined) {
    if (breached !== 'true' && breached !== 'false') throw invalid('breached must be true or false');
    filter.breached = breached === 'true';
  }
  const order = single(query, 'order');
  if (order !== undefined) {
    if (order !== 'lastActivity' && order !== 'created') throw invalid('order must be created (the default) or lastActivity');
    if (order === 'lastActivity') filter.order = 'lastActivity';
  }
}

/** Validates the query of `GET /v1/contacts`. */
export function parseContactListQuery(query: Query): ContactFilter {
  const filter: ContactFilter = { limit: limitParam(query) };
  const accountId = platformIdParam(query, 'accountId');
  if (accountId !== undefined) filter.accountId = accountId;
  const platformUserId = platformIdParam(query, 'platformUserId');
  if (platformUserId !== undefined) filter.platformUserId = platformUserId;
  const screenName = single(query, 'screenName')?.replace(/^@/, '');
  if (screenName !== undefined) {
    if (!/^[A-Za-z0-9_]{1,15}$/.test(screenName)) throw invalid('screenName must be a screen name (1-15 letters, digits or underscores, @ optional)');
    filter.screenName = screenName;
  }
  const after = positionParam(query);
  if (after) filter.after = after;
  return filter;
}

/** Validates the query of `GET /v1/held-deliveries`. */
export function parseHeldListQuery(query: Query): { accountId?: string; afterId?: number; limit: number } {
  const filter: { accountId?: string; afterId?: number; limit: number } = { limit: limitParam(query) };
  const accountId = platformIdParam(query, 'accountId');
  if (accountId !== undefined) filter.accountId = accountId;
  const cursor = single(query, 'cursor');
  if (cursor !== undefined) {
    const afterId = decodeIdCursor(cursor);
    if (afterId === null) throw invalid('cursor is not valid; pass the nextCursor of a previous page');
    filter.afterId = afterId;
  }
  return filter;
}
