import type { TicketPriority, TicketStatus } from '@crm/contracts';
import type { TicketChange } from '../../domain/workflow';
import type { Queryable } from './queryable';

/** What a person's change needs to know of a ticket, locked for the transaction. */
export interface ChangeTarget {
  id: string;
  account_id: string;
  status: TicketStatus;
  assignee: string | null;
  team: string | null;
  priority: TicketPriority;
  queue: string;
  folder: string;
  tags: string[];
  contact_id: string | null;
  merged_into: string | null;
  subject: string;
}

export interface InternalEntry {
  accountId: string;
  ticketId: string;
  /** note, evidence_snapshot, status_changed, ticket_updated, merged, unmerged, reopened, action */
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

/** People's work on tickets: changes, internal timeline entries (notes, changes, merges, actions). */
export class TicketLifeRepository {
  constructor(private readonly db: Queryable) {}

  /** The tickets, locked in id order (so two bulk changes never wait on each other crosswise); missing ids are absent. */
  async lock(ids: string[]): Promise<ChangeTarget[]> {
    const { rows } = await this.db.query<ChangeTarget>(
      `SELECT id, account_id, status, assignee, team, priority, queue, folder, tags, contact_id, merged_into, subject
         FROM tickets WHERE id = ANY ($1::uuid[]) ORDER BY id FOR UPDATE`,
      [ids],
    );
    return rows;
  }

  /** Applies a change; moving queue or folder by hand stops routing from moving the ticket again. */
  async apply(ticketId: string, change: TicketChange, now: Date): Promise<void> {
    const given = (field: keyof TicketChange) => field in change;
    await this.db.query(
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
        ...(['status', 'assignee', 'team', 'priority', 'queue', 'folder', 'tags'] as const).flatMap((field) => [given(field), change[field] ?? null]),
      ],
    );
  }

  /** A timeline entry made here (never sent to the platform): `internal`, with who made it and what it holds. */
  async addEntry(entry: InternalEntry): Promise<InternalActivity> {
    const { rows } = await this.db.query<{ id: string }>(
      `INSERT INTO activities (account_id, ticket_id, kind, direction, text, occurred_at, contact_id, actor, data)
       VALUES ($1, $2, $3, 'internal', $4, $5, $6, $7, $8::jsonb) RETURNING id`,
      [entry.accountId, entry.ticketId, entry.kind, entry.text, entry.occurredAt, entry.contactId, entry.actor, entry.data === null ? null : JSON.stringify(entry.data)],
    );
    await this.db.query('UPDATE tickets SET updated_at = GREATEST(updated_at, $2) WHERE id = $1', [entry.ticketId, entry.occurredAt]);
    return { id: rows[0]!.id, kind: entry.kind, direction: 'internal', text: entry.text, occurredAt: entry.occurredAt.toISOString(), data: entry.data };
  }

  /** An action entry waits for auth's result. */
  async markActionPending(activityId: string): Promise<void> {
    await this.db.query(`UPDATE activities SET send_status = 'pending' WHERE id = $1`, [activityId]);
  }

  /**
   * Auth's result of an action asked from a ticket: the entry's outcome (sent = done, failed,
   * unknown), once; the ticket to announce it on, or null when the result changes nothing.
   */
  async settleAction(activityId: string, outcome: 'sent' | 'failed' | 'unknown', failure: { code: string; message: string; platformCode: number | null } | null): Promise<string | null> {
    const { rows } = await this.db.query<{ ticket_id: string }>(
      `UPDATE activities SET send_status = $2, send_error_code = $3, send_error = $4, send_error_platform_code = $5
        WHERE id = $1 AND direction = 'internal' AND kind = 'action' AND send_status = 'pending' RETURNING ticket_id`,
      [activityId, outcome, failure?.code ?? null, failure?.message ?? null, failure?.platformCode ?? null],
    );
    return rows[0]?.ticket_id ?? null;
  }
}
