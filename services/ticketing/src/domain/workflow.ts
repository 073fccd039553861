import { SETTABLE_TICKET_STATUSES, TICKET_PRIORITIES, type TicketPriority, type TicketStatus } from '@crm/contracts';

/**
 * The ticket workflow: which status a person may move a ticket to. `merged` is reached by a
 * merge only (and left by an unmerge); `closed` is final. A customer's message reopens a
 * pending or resolved ticket (recording does that, see `placeInbound`).
 */
export const ALLOWED_MOVES: Record<TicketStatus, readonly TicketStatus[]> = {
  open: ['pending', 'resolved', 'closed'],
  pending: ['open', 'resolved', 'closed'],
  resolved: ['open', 'closed'],
  closed: [],
  merged: [],
};

/** Null when the move is allowed (staying where it is counts as allowed); otherwise why not, naming the current status. */
export function forbiddenMove(from: TicketStatus, to: TicketStatus): string | null {
  if (from === to) return null;
  if (ALLOWED_MOVES[from].includes(to)) return null;
  const allowed = ALLOWED_MOVES[from];
  const next = allowed.length > 0 ? `it can move to ${allowed.join(', ')}` : 'it cannot move to any other status';
  return `the ticket is ${from}: ${next}, not ${to}`;
}

/** What a person may change on a ticket (PATCH); every field optional, at least one given. */
export interface TicketChange {
  status?: TicketStatus;
  assignee?: string | null;
  team?: string | null;
  priority?: TicketPriority;
  queue?: string;
  folder?: string;
  tags?: string[];
}

export const CHANGE_FIELDS = ['status', 'assignee', 'team', 'priority', 'queue', 'folder', 'tags'] as const;
export const MAX_TAGS = 50;
const NAME_MAX = 100;
const TAG_MAX = 50;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function name(value: unknown, field: string, nullable: boolean, problems: string[]): string | null | undefined {
  if (value === null && nullable) return null;
  if (typeof value !== 'string' || value.trim() === '' || value.length > NAME_MAX) {
    problems.push(`/${field} must be a non-blank string of at most ${NAME_MAX} characters${nullable ? ' or null' : ''}`);
    return undefined;
  }
  return value.trim();
}

function tags(value: unknown, problems: string[]): string[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_TAGS) {
    problems.push(`/tags must be an array of at most ${MAX_TAGS} tags`);
    return undefined;
  }
  const read = value.map((tag) => (typeof tag === 'string' ? tag.trim() : ''));
  if (read.some((tag) => tag === '' || tag.length > TAG_MAX || /[,\s]/.test(tag))) {
    problems.push(`/tags must hold non-blank tags of at most ${TAG_MAX} characters without commas or spaces`);
    return undefined;
  }
  return [...new Set(read)];
}

/** Reads a change body: the change, or every problem naming its field (JSON pointer). */
export function readTicketChange(body: unknown): { change: TicketChange } | { problems: string[] } {
  if (!isObject(body)) return { problems: ['send the change as a JSON object'] };
  const problems: string[] = [];
  const unknown = Object.keys(body).filter((key) => !(CHANGE_FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) problems.push(`unknown field(s) ${unknown.map((key) => `/${key}`).join(', ')}; a change may hold ${CHANGE_FIELDS.join(', ')}`);
  if (Object.keys(body).length === 0) problems.push(`give at least one of ${CHANGE_FIELDS.join(', ')}`);
  const change: TicketChange = {};
  if ('status' in body) {
    if ((SETTABLE_TICKET_STATUSES as readonly unknown[]).includes(body.status)) change.status = body.status as TicketStatus;
    else problems.push(`/status must be one of ${SETTABLE_TICKET_STATUSES.join(', ')} (merge with POST /v1/tickets/{id}/merge)`);
  }
  if ('priority' in body) {
    if ((TICKET_PRIORITIES as readonly unknown[]).includes(body.priority)) change.priority = body.priority as TicketPriority;
    else problems.push(`/priority must be one of ${TICKET_PRIORITIES.join(', ')}`);
  }
  for (const field of ['assignee', 'team'] as const) if (field in body) change[field] = name(body[field], field, true, problems);
  for (const field of ['queue', 'folder'] as const) if (field in body) change[field] = name(body[field], field, false, problems) ?? undefined;
  if ('tags' in body) change.tags = tags(body.tags, problems);
  return problems.length > 0 ? { problems } : { change };
}

/** The fields a change really changes, with their values before and after (equal values left out). */
export function changedFields(current: Required<TicketChange>, change: TicketChange): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of CHANGE_FIELDS) {
    const to = change[field];
    if (to === undefined) continue;
    const from = current[field];
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to };
  }
  return changes;
}

export const MAX_BULK = 100;

/** Reads a bulk change: `{ids: [...], change: {...}}`, 1 to 100 distinct ticket ids. */
export function readBulkChange(body: unknown, isId: (id: string) => boolean): { ids: string[]; change: TicketChange } | { problems: string[] } {
  if (!isObject(body)) return { problems: ['send {"ids": [...], "change": {...}} as a JSON object'] };
  const problems: string[] = [];
  const extra = Object.keys(body).filter((key) => key !== 'ids' && key !== 'change');
  if (extra.length > 0) problems.push(`unknown field(s) ${extra.map((key) => `/${key}`).join(', ')}`);
  const { ids } = body;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_BULK || !ids.every((id) => typeof id === 'string' && isId(id))) {
    problems.push(`/ids must be an array of 1 to ${MAX_BULK} ticket ids`);
  }
  const read = readTicketChange(body.change);
  if ('problems' in read) problems.push(...read.problems.map((problem) => (problem.startsWith('/') ? `/change${problem}` : `/change: ${problem}`)));
  if (problems.length > 0 || 'problems' in read) return { problems };
  return { ids: [...new Set(ids as string[])], change: read.change };
}

/** Who made what the platform's activity did (a reopen, a rule's merge): no person. */
export const SYSTEM_ACTOR = 'system';
