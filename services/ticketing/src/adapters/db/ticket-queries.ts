import type { Pool } from '@crm/db';
import type { TicketStatus } from '../../domain/tickets';

/** A ticket as read for the API, with its contact's names. */
export interface TicketRow {
  id: string;
  account_id: string;
  status: TicketStatus;
  channel: 'dm' | 'public';
  queue: string;
  folder: string;
  contact_id: string | null;
  contact_screen_name: string | null;
  contact_name: string | null;
  subject: string;
  created_at: Date;
  updated_at: Date;
  last_activity_at: Date;
  first_response_due_at: Date | null;
  resolution_due_at: Date | null;
  /** created_at to the microsecond, as paging needs it (a JS Date keeps milliseconds only). */
  created_at_key: string;
}

export interface ActivityRow {
  id: string;
  kind: string;
  direction: 'inbound' | 'outbound' | 'event';
  text: string | null;
  platform_event_id: string | null;
  occurred_at: Date;
  deleted: boolean;
}

/** Position in the (created_at desc, id desc) order: list what comes after it. */
export interface TicketPosition {
  createdAt: string;
  id: string;
}

export interface TicketFilter {
  accountId?: string;
  queue?: string;
  folder?: string;
  status?: TicketStatus;
  /** Case-insensitive text to find in the subject or any activity's text. */
  q?: string;
  after?: TicketPosition;
  limit: number;
}

const TICKET_COLUMNS = `
  t.id, t.account_id, t.status, t.channel, t.queue, t.folder, t.contact_id,
  c.screen_name AS contact_screen_name, c.name AS contact_name,
  t.subject, t.created_at, t.updated_at, t.last_activity_at, t.first_response_due_at, t.resolution_due_at,
  to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_key`;

/** `text` as a LIKE pattern that matches it literally anywhere. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** One page of tickets, newest first; `more` says whether another page follows. */
export async function listTickets(pool: Pool, filter: TicketFilter): Promise<{ rows: TicketRow[]; more: boolean }> {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filter.accountId !== undefined) conditions.push(`t.account_id = ${param(filter.accountId)}`);
  if (filter.queue !== undefined) conditions.push(`t.queue = ${param(filter.queue)}`);
  if (filter.folder !== undefined) conditions.push(`t.folder = ${param(filter.folder)}`);
  if (filter.status !== undefined) conditions.push(`t.status = ${param(filter.status)}`);
  if (filter.q !== undefined) {
    const pattern = param(containsPattern(filter.q));
    conditions.push(
      `(t.subject ILIKE ${pattern} OR EXISTS (SELECT 1 FROM activities a WHERE a.ticket_id = t.id AND a.text ILIKE ${pattern}))`,
    );
  }
  if (filter.after) {
    conditions.push(`(t.created_at, t.id) < (${param(filter.after.createdAt)}::timestamptz, ${param(filter.after.id)}::uuid)`);
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const { rows } = await pool.query<TicketRow>(
    `SELECT ${TICKET_COLUMNS}
       FROM tickets t LEFT JOIN contacts c ON c.id = t.contact_id
       ${where}
      ORDER BY t.created_at DESC, t.id DESC
      LIMIT ${param(filter.limit + 1)}`,
    params,
  );
  return { rows: rows.slice(0, filter.limit), more: rows.length > filter.limit };
}

export async function findTicket(pool: Pool, id: string): Promise<TicketRow | null> {
  const { rows } = await pool.query<TicketRow>(
    `SELECT ${TICKET_COLUMNS} FROM tickets t LEFT JOIN contacts c ON c.id = t.contact_id WHERE t.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** A ticket's timeline, oldest first. */
export async function listActivities(pool: Pool, ticketId: string): Promise<ActivityRow[]> {
  const { rows } = await pool.query<ActivityRow>(
    `SELECT id, kind, direction, text, platform_event_id, occurred_at, deleted
       FROM activities WHERE ticket_id = $1
      ORDER BY occurred_at, created_at, id`,
    [ticketId],
  );
  return rows;
}
