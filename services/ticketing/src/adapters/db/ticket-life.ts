import type { PoolClient } from '@crm/db';
import type { TicketStatus } from '../../domain/tickets';
import type { Priority, TicketChange } from '../../domain/workflow';

/** What a person's change needs to know of a ticket, locked for the transaction. */
export interface ChangeTarget {
  id: string;
  account_id: string;
  status: TicketStatus;
  assignee: string | null;
  team: string | null;
  priority: Priority;
  queue: string;
  folder: string;
  tags: string[];
  contact_id: string | null;
  merged_into: string | null;
}

/** The tickets, locked in id order (so two bulk changes never wait on each other crosswise); missing ids are absent. */
export async function lockTickets(client: PoolClient, ids: string[]): Promise<ChangeTarget[]> {
  const { rows } = await client.query<ChangeTarget>(
    `SELECT id, account_id, status, assignee, team, priority, queue, folder, tags, contact_id, merged_into
       FROM tickets WHERE id = ANY ($1::uuid[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
  return rows;
}

/** Applies a change; moving queue or folder by hand stops routing from moving the ticket again. */
export async function applyTicketChange(client: PoolClient, ticketId: string, change: TicketChange, now: Date): Promise<void> {
  const set = (field: keyof TicketChange) => field in change;
  await client.query(
    `UPDATE tickets SET updated_at = $2,
       status = CASE WHEN $3 THEN $4 ELSE status END,
       assignee = CASE WHEN $5 THEN $6 ELSE assignee END,
       team = CASE WHEN $7 THEN $8 ELSE team END,
       priority = CASE WHEN $9 THEN $10 ELSE priority END,
       queue = CASE WHEN $11 THEN $12 ELSE queue END,
       folder = CASE WHEN $13 THEN $14 ELSE folder END,
       tags = CASE WHEN $15 THEN $16::text[] ELSE tags END,
       auto_routed = auto_routed AND NOT ($11 OR $13)
     WHERE id = $1`,
    [
      ticketId,
      now,
      set('status'),
      change.status ?? null,
      set('assignee'),
      change.assignee ?? null,
      set('team'),
      change.team ?? null,
      set('priority'),
      change.priority ?? null,
      set('queue'),
      change.queue ?? null,
      set('folder'),
      change.folder ?? null,
      set('tags'),
      change.tags ?? null,
    ],
  );
}

export interface InternalEntry {
  accountId: string;
  ticketId: string;
  /** note, evidence_snapshot, status_changed, ticket_updated, merged, unmerged, reopened, action_requested, ... */
  kind: string;
  text: string | null;
  /** Who made it: the principal's id, or `system`. */
  actor: string;
  data: Record<string, unknown> | null;
  contactId: string | null;
  occurredAt: Date;
}

export interface InternalActivity {
  id: string;
  kind: string;
  direction: string;
  text: string | null;
  occurredAt: string;
  data: Record<string, unknown> | null;
}

/** A timeline entry made here (never sent to the platform): `internal`, with who made it and what it holds. */
export async function insertInternalActivity(client: PoolClient, entry: InternalEntry): Promise<InternalActivity> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO activities (account_id, ticket_id, kind, direction, text, occurred_at, contact_id, actor, data)
     VALUES ($1, $2, $3, 'internal', $4, $5, $6, $7, $8::jsonb) RETURNING id`,
    [entry.accountId, entry.ticketId, entry.kind, entry.text, entry.occurredAt, entry.contactId, entry.actor, entry.data === null ? null : JSON.stringify(entry.data)],
  );
  return { id: rows[0]!.id, kind: entry.kind, direction: 'internal', text: entry.text, occurredAt: entry.occurredAt.toISOString(), data: entry.data };
}

/** The transaction's clock (the same `now` every row of the transaction gets). */
export async function transactionNow(client: PoolClient): Promise<Date> {
  return (await client.query<{ now: Date }>('SELECT now() AS now')).rows[0]!.now;
}

/** An action entry waits for auth's result. */
export async function markActionPending(client: PoolClient, activityId: string): Promise<void> {
  await client.query(`UPDATE activities SET send_status = 'pending' WHERE id = $1`, [activityId]);
}

/**
 * Auth's result of an action asked from a ticket: the entry's outcome (sent = done, failed,
 * unknown), once; the ticket to announce it on, or null when the result changes nothing.
 */
export async function settleAction(
  client: PoolClient,
  activityId: string,
  outcome: 'sent' | 'failed' | 'unknown',
  failure: { code: string; message: string; platformCode: number | null } | null,
): Promise<string | null> {
  const { rows } = await client.query<{ ticket_id: string }>(
    `UPDATE activities SET send_status = $2, send_error_code = $3, send_error = $4, send_error_platform_code = $5
      WHERE id = $1 AND direction = 'internal' AND kind = 'action' AND send_status = 'pending' RETURNING ticket_id`,
    [activityId, outcome, failure?.code ?? null, failure?.message ?? null, failure?.platformCode ?? null],
  );
  return rows[0]?.ticket_id ?? null;
}
