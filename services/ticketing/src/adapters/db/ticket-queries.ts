import type { ActivityEdit } from './activities';
import type { MediaAttachment } from '../../domain/social-events';
import type { Queryable } from './queryable';
import type { TicketStatus } from '@crm/contracts';
import { searchSubstring, type TicketSearch } from '../../domain/ticket-search';

/** A ticket as read for the API, with its contact's names and, for DMs, the conversation's state. */
export interface TicketRow {
  id: string;
  account_id: string;
  status: TicketStatus;
  channel: 'dm' | 'public';
  queue: string;
  folder: string;
  routing_rule: string | null;
  opened_by_kind: string | null;
  contact_id: string | null;
  contact_screen_name: string | null;
  contact_name: string | null;
  subject: string;
  created_at: Date;
  updated_at: Date;
  last_activity_at: Date;
  first_response_due_at: Date | null;
  resolution_due_at: Date | null;
  resolved_at: Date | null;
  first_response_at: Date | null;
  sla_breached: boolean;
  sla_at_risk: boolean;
  /** Breaches that fired, oldest first. */
  sla_breaches: { kind: 'first_response' | 'resolution'; at: string }[];
  /** The linked order (null columns when none). */
  order_client_id: string | null;
  order_task_id: string | null;
  order_linked_at: Date | null;
  order_tracking_available: boolean | null;
  order_tracking_reason: string | null;
  order_tracking_message: string | null;
  order_tracking_checked_at: Date | null;
  order_linked_by: 'agent' | 'auto' | null;
  order_reference: string | null;
  order_status: string | null;
  order_eta: Date | null;
  contact_typing_at: Date | null;
  account_typing_at: Date | null;
  contact_read_event_id: string | null;
  contact_read_at: Date | null;
  account_read_event_id: string | null;
  account_read_at: Date | null;
  /** created_at to the microsecond, as paging needs it (a JS Date keeps milliseconds only). */
  created_at_key: string;
  assignee: string | null;
  team: string | null;
  priority: string;
  tags: string[];
  merged_into: string | null;
  merge_rule: string | null;
  /** last_activity_at to the microsecond (paging in `lastActivity` order). */
  last_activity_key: string;
  /** The text of the conversation's latest message (inbound or outbound, not deleted), for lists. */
  snippet: string | null;
}

export interface ActivityRow {
  id: string;
  ticket_id: string | null;
  kind: string;
  direction: 'inbound' | 'outbound' | 'event' | 'internal';
  text: string | null;
  platform_event_id: string | null;
  occurred_at: Date;
  deleted: boolean;
  attachments: MediaAttachment[] | null;
  send_status: string | null;
  send_error: string | null;
  send_error_code: string | null;
  send_error_platform_code: number | null;
  author_id: string | null;
  author_screen_name: string | null;
  author_name: string | null;
  /** Who made an internal entry (a principal's id, or `system`). */
  actor: string | null;
  /** The actor's name as last recorded (table `actors`); null when none was. */
  actor_name: string | null;
  data: Record<string, unknown> | null;
  /** null: a webhook delivery; 'search': found by the search query `search_query`. */
  source: 'search' | null;
  search_query: string | null;
  edited_at: Date | null;
  edits: ActivityEdit[] | null;
}

/** Position in the (created_at desc, id desc) order, or (last_activity_at desc, id desc) for `lastActivity`: list what comes after it. */
export interface Position {
  createdAt: string;
  id: string;
  order?: 'lastActivity';
}

export interface TicketFilter {
  accountId?: string;
  /** Only these accounts (an API credential limited to some). */
  accountIds?: string[];
  queue?: string;
  folder?: string;
  /** The tickets of one contact (the customer). */
  contactId?: string;
  /** Any of these statuses (`status=open,pending`). */
  statuses?: TicketStatus[];
  /** An agent's id; null: tickets nobody is assigned. */
  assignee?: string | null;
  priority?: string;
  /** Tickets carrying this tag. */
  tag?: string;
  updatedSince?: Date;
  /** Only tickets whose SLA is breached. */
  breached?: boolean;
  /** Newest activity first instead of newest ticket first. */
  order?: 'lastActivity';
  /** Order numbers, handles and words to find in the ticket's search document (`q`). */
  q?: TicketSearch;
  after?: Position;
  limit: number;
}

const CREATED_AT_KEY = (alias: string) => `to_char(${alias}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_key`;

const TICKET_COLUMNS = `
  t.id, t.account_id, t.status, t.channel, t.queue, t.folder, t.routing_rule, t.opened_by_kind, t.contact_id,
  c.screen_name AS contact_screen_name, c.name AS contact_name,
  t.subject, t.created_at, t.updated_at, t.last_activity_at, t.first_response_due_at, t.resolution_due_at, t.resolved_at, t.first_response_at,
  t.sla_breached, t.sla_at_risk,
  (SELECT COALESCE(json_agg(json_build_object('kind', s.clock, 'at', s.due_at) ORDER BY s.due_at), '[]'::json)
     FROM sla_timers s WHERE s.ticket_id = t.id AND s.stage = 'breach' AND s.fired_at IS NOT NULL) AS sla_breaches,
  o.client_id AS order_client_id, o.task_id AS order_task_id, o.linked_at AS order_linked_at, o.tracking_available AS order_tracking_available,
  o.tracking_reason AS order_tracking_reason, o.tracking_message AS order_tracking_message, o.tracking_checked_at AS order_tracking_checked_at,
  o.linked_by AS order_linked_by, o.reference AS order_reference, o.status AS order_status, o.eta AS order_eta,
  d.contact_typing_at, d.account_typing_at, d.contact_read_event_id, d.contact_read_at, d.account_read_event_id, d.account_read_at,
  ${CREATED_AT_KEY('t')},
  t.assignee, t.team, t.priority, t.tags, t.merged_into, t.merge_rule,
  to_char(t.last_activity_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS last_activity_key,
  (SELECT left(a.text, 200) FROM activities a
    WHERE a.ticket_id = t.id AND a.direction IN ('inbound', 'outbound') AND NOT a.deleted AND a.text IS NOT NULL
    ORDER BY a.occurred_at DESC, a.id DESC LIMIT 1) AS snippet`;

const TICKET_FROM = `tickets t
  LEFT JOIN contacts c ON c.id = t.contact_id
  LEFT JOIN ticket_orders o ON o.ticket_id = t.id
  LEFT JOIN dm_conversations d ON t.channel = 'dm' AND d.account_id = t.account_id AND d.counterpart_id = c.platform_user_id`;

/** `text` as a LIKE pattern that matches it literally anywhere. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** Collects query parameters, answering their `$n` placeholders. */
function parameters() {
  const values: unknown[] = [];
  return {
    values,
    add(value: unknown) {
      values.push(value);
      return `$${values.length}`;
    },
  };
}

const ACTIVITY_COLUMNS = `a.id, a.ticket_id, a.kind, a.direction, a.text, a.platform_event_id, a.occurred_at, a.deleted, a.attachments,
  a.send_status, a.send_error, a.send_error_code, a.send_error_platform_code, a.source, a.search_query, au.id AS author_id, au.screen_name AS author_screen_name, au.name AS author_name,
  a.actor, (SELECT name FROM actors WHERE actors.id = a.actor) AS actor_name, a.data, a.edited_at, a.edits`;

/** Timeline order: oldest first; ties by platform id, then by when recorded. */
const TIMELINE_ORDER = 'a.occurred_at, a.platform_event_id, a.created_at, a.id';
const TIMELINE_ORDER_DESC = 'a.occurred_at DESC, a.platform_event_id DESC, a.created_at DESC, a.id DESC';

export interface ContactRow {
  id: string;
  account_id: string;
  platform_user_id: string;
  screen_name: string | null;
  name: string | null;
  avatar_url: string | null;
  followers_count: number | null;
  verified: boolean | null;
  blocked: boolean;
  blocked_changed_at: Date | null;
  muted: boolean;
  muted_changed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  created_at_key: string;
}

export interface ContactFilter {
  accountId?: string;
  /** Only these accounts (an API credential limited to some). */
  accountIds?: string[];
  /** Case-insensitive exact screen name. */
  screenName?: string;
  platformUserId?: string;
  after?: Position;
  limit: number;
}

const CONTACT_COLUMNS = `k.id, k.account_id, k.platform_user_id, k.screen_name, k.name, k.avatar_url, k.followers_count, k.verified,
  k.blocked, k.blocked_changed_at, k.muted, k.muted_changed_at, k.created_at, k.updated_at, ${CREATED_AT_KEY('k')}`;

/**
 * What a search matches in a search document (alias `s`): every order number and handle as an
 * exact key, the words as a text-search query, or (for what that misses, such as part of a word)
 * as a substring of the subject or contact names (trigram index).
 */
function searchMatch(search: TicketSearch, add: (value: unknown) => string): string[] {
  const conditions: string[] = [];
  const keys = [...search.orderNumbers.map((digits) => `order:${digits}`), ...search.handles.map((handle) => `@${handle}`)];
  if (keys.length) conditions.push(`s.keys @> ${add(keys)}::text[]`);
  if (search.words !== null) {
    const substring = searchSubstring(search);
    const words = `s.document @@ ticket_search_query(${add(search.words)})`;
    conditions.push(substring === null ? words : `(${words} OR s.names ILIKE ${add(containsPattern(substring))})`);
  }
  return conditions;
}

/** The accounts a search document (alias `s`) must be of: the same as the list's. */
function searchScope(filter: TicketFilter, add: (value: unknown) => string): string[] {
  const conditions: string[] = [];
  if (filter.accountId !== undefined) conditions.push(`s.account_id = ${add(filter.accountId)}`);
  if (filter.accountIds !== undefined) conditions.push(`s.account_id = ANY(${add(filter.accountIds)}::text[])`);
  return conditions;
}

/** The tickets a search matches (in `lastActivity` order, where the planner chooses how), scoped to the list's accounts. */
function searchCondition(filter: TicketFilter, add: (value: unknown) => string): string {
  const conditions = [...searchScope(filter, add), ...searchMatch(filter.q!, add)];
  return `t.id IN (SELECT s.ticket_id FROM ticket_search s WHERE ${conditions.join(' AND ')})`;
}

/**
 * How many of the newest search documents a search tests before it takes its matches from the
 * GIN indexes instead: a word in one document of a hundred fills a page of 50 within them.
 */
export const SEARCH_WALK = 5_000;

export interface Statement {
  sql: string;
  values: unknown[];
}

/**
 * A search's page (newest ticket first) as up to two statements, chosen by how often what it asks
 * for occurs, not by the planner's guess of it. `walk`: the newest `SEARCH_WALK` documents of the
 * accounts (an index walk of ticket_search in the list's order, no ticket read), those matching
 * joined to their tickets in that order until the page is full; enough for a word in a
 * hundredth of the tickets or more. `index`, when the walk leaves the page short: every match
 * from the GIN indexes (few, since the newest documents held so few), materialized, then ordered.
 * Order numbers and handles are exact keys, rare by nature: `index` alone (walk null).
 */
export function searchStatements(filter: TicketFilter): { walk: Statement | null; index: Statement } {
  const build = (kind: 'walk' | 'index'): Statement => {
    const param = parameters();
    const scope = searchScope(filter, param.add);
    if (filter.after) scope.push(`(s.created_at, s.ticket_id) < (${param.add(filter.after.createdAt)}::timestamptz, ${param.add(filter.after.id)}::uuid)`);
    const match = searchMatch(filter.q!, param.add);
    const conditions: string[] = [];
    if (filter.queue !== undefined) conditions.push(`t.queue = ${param.add(filter.queue)}`);
    if (filter.folder !== undefined) conditions.push(`t.folder = ${param.add(filter.folder)}`);
    lifeConditions(filter, conditions, param.add);
    const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    const limit = param.add(filter.limit + 1);
    const order = 'ORDER BY s.created_at DESC, s.ticket_id DESC';
    // Without a filter on the tickets, the page's ids are known before any ticket is read: only they are joined.
    const pageOfMatches = conditions.length ? '' : `${order} LIMIT ${limit}`;
    const page = `ORDER BY m.created_at DESC, m.ticket_id DESC LIMIT ${limit}`;
    if (kind === 'walk') {
      const newest = `SELECT s.ticket_id, s.created_at, s.document, s.keys, s.names FROM ticket_search s
         ${scope.length ? `WHERE ${scope.join(' AND ')}` : ''} ${order} LIMIT ${param.add(SEARCH_WALK)}`;
      return {
        sql: `SELECT ${TICKET_COLUMNS} FROM ${TICKET_FROM}
                JOIN (SELECT s.ticket_id, s.created_at FROM (${newest}) s WHERE ${match.join(' AND ')} ${pageOfMatches}) m ON m.ticket_id = t.id
              ${where} ${page}`,
        values: param.values,
      };
    }
    // Every match first (MATERIALIZED: from the GIN indexes, never an ordered walk the planner might guess cheaper), then the page.
    return {
      sql: `WITH matches AS MATERIALIZED (SELECT s.ticket_id, s.created_at FROM ticket_search s WHERE ${[...scope, ...match].join(' AND ')})
            SELECT ${TICKET_COLUMNS} FROM ${TICKET_FROM} JOIN (SELECT s.ticket_id, s.created_at FROM matches s ${pageOfMatches}) m ON m.ticket_id = t.id
            ${where} ${page}`,
      values: param.values,
    };
  };
  const keys = filter.q!.orderNumbers.length + filter.q!.handles.length;
  return { walk: keys === 0 ? build('walk') : null, index: build('index') };
}

/** The filters of a ticket's life: its contact, statuses as a set, assignee, priority, tag, updated since, SLA breached. */
function lifeConditions(filter: TicketFilter, conditions: string[], add: (value: unknown) => string): void {
  if (filter.contactId !== undefined) conditions.push(`t.contact_id = ${add(filter.contactId)}`);
  if (filter.statuses !== undefined) conditions.push(`t.status = ANY (${add(filter.statuses)}::text[])`);
  if (filter.assignee === null) conditions.push('t.assignee IS NULL');
  else if (filter.assignee !== undefined) conditions.push(`t.assignee = ${add(filter.assignee)}`);
  if (filter.priority !== undefined) conditions.push(`t.priority = ${add(filter.priority)}`);
  if (filter.tag !== undefined) conditions.push(`t.tags @> ARRAY[${add(filter.tag)}::text]`);
  if (filter.updatedSince !== undefined) conditions.push(`t.updated_at >= ${add(filter.updatedSince)}`);
  if (filter.breached) conditions.push('t.sla_breached');
}

/** Which tickets the counts of the views cover: an account, or the accounts a credential may see. */
export interface CountScope {
  accountId?: string;
  accountIds?: string[];
  /** The asking agent's id (`mine`). */
  me: string;
}

/** How many open or pending tickets each view of the agents' workspace holds. */
export interface TicketCounts {
  open: number;
  mine: number;
  unassigned: number;
  breached: number;
  folders: { queue: string; folder: string; count: number }[];
}

/** A row of the views' counts: the totals (queue and folder null), then one per queue and folder. */
export interface ViewCountRow {
  queue: string | null;
  folder: string | null;
  total: string;
  mine: string;
  unassigned: string;
  breached: string;
}

/** The views' counts from their rows, the totals first. */
export function ticketCountsOf(rows: ViewCountRow[]): TicketCounts {
  const [all, ...folders] = rows;
  return {
    open: Number(all?.total ?? 0),
    mine: Number(all?.mine ?? 0),
    unassigned: Number(all?.unassigned ?? 0),
    breached: Number(all?.breached ?? 0),
    folders: folders.map((row) => ({ queue: row.queue!, folder: row.folder!, count: Number(row.total) })),
  };
}

/** The read side of tickets and contacts, as the API lists and shows them. */
export class TicketQueries {
  constructor(private readonly db: Queryable) {}

  /** How many tickets there are (a rebuild refuses a database that holds any). */
  async count(): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>('SELECT count(*) AS n FROM tickets');
    return Number(rows[0]!.n);
  }

  /** One page of tickets, newest first; `more` says whether another page follows. */
  async tickets(filter: TicketFilter): Promise<{ rows: TicketRow[]; more: boolean }> {
    if (filter.q !== undefined && filter.order !== 'lastActivity') return this.search(filter);
    const conditions: string[] = [];
    const param = parameters();
    if (filter.accountId !== undefined) conditions.push(`t.account_id = ${param.add(filter.accountId)}`);
    if (filter.accountIds !== undefined) conditions.push(`t.account_id = ANY(${param.add(filter.accountIds)}::text[])`);
    if (filter.queue !== undefined) conditions.push(`t.queue = ${param.add(filter.queue)}`);
    if (filter.folder !== undefined) conditions.push(`t.folder = ${param.add(filter.folder)}`);
    lifeConditions(filter, conditions, param.add);
    if (filter.q !== undefined) conditions.push(searchCondition(filter, param.add));
    const key = filter.order === 'lastActivity' ? 't.last_activity_at' : 't.created_at';
    if (filter.after) {
      conditions.push(`(${key}, t.id) < (${param.add(filter.after.createdAt)}::timestamptz, ${param.add(filter.after.id)}::uuid)`);
    }
    const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    const { rows } = await this.db.query<TicketRow>(
      `SELECT ${TICKET_COLUMNS} FROM ${TICKET_FROM} ${where} ORDER BY ${key} DESC, t.id DESC LIMIT ${param.add(filter.limit + 1)}`,
      param.values,
    );
    return { rows: rows.slice(0, filter.limit), more: rows.length > filter.limit };
  }

  /** A search's page (see searchStatements): the walk of the newest documents, then the index when the walk left the page short. */
  private async search(filter: TicketFilter): Promise<{ rows: TicketRow[]; more: boolean }> {
    const { walk, index } = searchStatements(filter);
    let rows: TicketRow[] = [];
    if (walk) rows = (await this.db.query<TicketRow>(walk.sql, walk.values)).rows;
    if (rows.length <= filter.limit) rows = (await this.db.query<TicketRow>(index.sql, index.values)).rows;
    return { rows: rows.slice(0, filter.limit), more: rows.length > filter.limit };
  }

  /**
   * The views' counts of open and pending tickets (merged, resolved and closed ones are in no
   * view), from the counters the tickets' trigger keeps (table ticket_view_counts): a sum over
   * the account's combinations of status, queue, folder, assignee and breach, never a count
   * over the tickets.
   */
  async counts(scope: CountScope): Promise<TicketCounts> {
    const conditions: string[] = [];
    const param = parameters();
    if (scope.accountId !== undefined) conditions.push(`c.account_id = ${param.add(scope.accountId)}`);
    if (scope.accountIds !== undefined) conditions.push(`c.account_id = ANY(${param.add(scope.accountIds)}::text[])`);
    const me = param.add(scope.me);
    const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    const { rows } = await this.db.query<ViewCountRow>(
      `SELECT c.queue, c.folder, COALESCE(sum(c.tickets), 0) AS total, COALESCE(sum(c.tickets) FILTER (WHERE c.assignee = ${me}), 0) AS mine,
              COALESCE(sum(c.tickets) FILTER (WHERE c.assignee IS NULL), 0) AS unassigned, COALESCE(sum(c.tickets) FILTER (WHERE c.breached), 0) AS breached
         FROM ticket_view_counts c ${where}
        GROUP BY GROUPING SETS ((), (c.queue, c.folder))
       HAVING GROUPING(c.queue, c.folder) = 3 OR sum(c.tickets) > 0
        ORDER BY c.queue NULLS FIRST, c.folder`,
      param.values,
    );
    return ticketCountsOf(rows);
  }

  async ticket(id: string): Promise<TicketRow | null> {
    const { rows } = await this.db.query<TicketRow>(`SELECT ${TICKET_COLUMNS} FROM ${TICKET_FROM} WHERE t.id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** A ticket's timeline, oldest first. */
  async ticketActivities(ticketId: string): Promise<ActivityRow[]> {
    const { rows } = await this.db.query<ActivityRow>(
      `SELECT ${ACTIVITY_COLUMNS} FROM activities a LEFT JOIN contacts au ON au.id = a.author_contact_id
        WHERE a.ticket_id = $1 ORDER BY ${TIMELINE_ORDER}`,
      [ticketId],
    );
    return rows;
  }

  /** A contact's timeline (with and without tickets), oldest first, at most `limit` entries from the newest. */
  async contactTimeline(contactId: string, limit: number): Promise<ActivityRow[]> {
    const { rows } = await this.db.query<ActivityRow>(
      `SELECT * FROM (
         SELECT ${ACTIVITY_COLUMNS} FROM activities a LEFT JOIN contacts au ON au.id = a.author_contact_id
          WHERE a.contact_id = $1 ORDER BY ${TIMELINE_ORDER_DESC} LIMIT $2) newest
        ORDER BY occurred_at, platform_event_id, id`,
      [contactId, limit],
    );
    return rows;
  }

  /** One page of contacts, newest first. */
  async contacts(filter: ContactFilter): Promise<{ rows: ContactRow[]; more: boolean }> {
    const conditions: string[] = [];
    const param = parameters();
    if (filter.accountId !== undefined) conditions.push(`k.account_id = ${param.add(filter.accountId)}`);
    if (filter.accountIds !== undefined) conditions.push(`k.account_id = ANY(${param.add(filter.accountIds)}::text[])`);
    if (filter.screenName !== undefined) conditions.push(`lower(k.screen_name) = lower(${param.add(filter.screenName)})`);
    if (filter.platformUserId !== undefined) conditions.push(`k.platform_user_id = ${param.add(filter.platformUserId)}`);
    if (filter.after) {
      conditions.push(`(k.created_at, k.id) < (${param.add(filter.after.createdAt)}::timestamptz, ${param.add(filter.after.id)}::uuid)`);
    }
    const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    const { rows } = await this.db.query<ContactRow>(
      `SELECT ${CONTACT_COLUMNS} FROM contacts k ${where} ORDER BY k.created_at DESC, k.id DESC LIMIT ${param.add(filter.limit + 1)}`,
      param.values,
    );
    return { rows: rows.slice(0, filter.limit), more: rows.length > filter.limit };
  }

  async contact(id: string): Promise<ContactRow | null> {
    const { rows } = await this.db.query<ContactRow>(`SELECT ${CONTACT_COLUMNS} FROM contacts k WHERE k.id = $1`, [id]);
    return rows[0] ?? null;
  }
}
