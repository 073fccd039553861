import type { TicketStatus } from '@crm/contracts';
import type { TicketState } from '../../domain/tickets';
import type { Queryable } from './queryable';

/**
 * Threading follows merges: a merged ticket's conversation continues on the ticket it was
 * merged into (and on, if that one was merged too), locked for the transaction.
 */
export async function followMerged(db: Queryable, state: TicketState | null): Promise<TicketState | null> {
  let current = state;
  for (let hops = 0; current && current.status === 'merged' && hops < 10; hops += 1) {
    const { rows } = await db.query<{ id: string; status: TicketState['status']; resolved_at: Date | null }>(
      `SELECT t.id, t.status, t.resolved_at FROM tickets s JOIN tickets t ON t.id = s.merged_into WHERE s.id = $1 FOR UPDATE OF t`,
      [current.id],
    );
    const row = rows[0];
    if (!row) return current;
    current = { id: row.id, status: row.status, resolvedAt: row.resolved_at };
  }
  return current;
}

/** Merging tickets and undoing it. */
export class MergeRepository {
  constructor(private readonly db: Queryable) {}

  /** Moves a source's whole timeline to the target, each entry remembering where it came from; returns how many moved. */
  async moveTimeline(sourceId: string, targetId: string): Promise<number> {
    const { rowCount } = await this.db.query('UPDATE activities SET ticket_id = $2, merged_from = $1 WHERE ticket_id = $1', [sourceId, targetId]);
    return rowCount ?? 0;
  }

  async markMerged(sourceId: string, targetId: string, rule: string | null, now: Date): Promise<void> {
    await this.db.query(
      `UPDATE tickets SET status_before_merge = status, status = 'merged', merged_into = $2, merged_at = $3, merge_rule = $4, updated_at = $3
        WHERE id = $1`,
      [sourceId, targetId, now, rule],
    );
  }

  /** last_activity_at from the ticket's timeline (after entries moved in or out). */
  async refreshLastActivity(ticketId: string, now: Date): Promise<void> {
    await this.db.query(
      `UPDATE tickets t SET updated_at = $2,
         last_activity_at = COALESCE((SELECT max(a.occurred_at) FROM activities a WHERE a.ticket_id = t.id AND a.direction <> 'internal'), t.last_activity_at)
       WHERE t.id = $1`,
      [ticketId, now],
    );
  }

  /** The tickets merged into `targetId`. */
  async sourcesOf(targetId: string): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(`SELECT id FROM tickets WHERE merged_into = $1 AND status = 'merged' ORDER BY id`, [targetId]);
    return rows.map((row) => row.id);
  }

  /** When the target sent a reply of its own (not one moved in by a merge) since the source was merged into it, the earliest such time. */
  async replySinceMerge(targetId: string, sourceId: string): Promise<Date | null> {
    const { rows } = await this.db.query<{ at: Date | null }>(
      `SELECT min(a.occurred_at) AS at FROM activities a, tickets s
        WHERE s.id = $2 AND a.ticket_id = $1 AND a.direction = 'outbound' AND a.merged_from IS NULL AND a.occurred_at >= s.merged_at`,
      [targetId, sourceId],
    );
    return rows[0]?.at ?? null;
  }

  /**
   * Gives a source back its timeline and the status it had. An active status is not restored
   * while another ticket of the conversation is active (one opened after the merge): it comes back resolved.
   * Returns the status it has now.
   */
  async restore(sourceId: string, targetId: string, now: Date): Promise<TicketStatus> {
    await this.db.query('UPDATE activities SET ticket_id = $1, merged_from = NULL WHERE ticket_id = $2 AND merged_from = $1', [sourceId, targetId]);
    const { rows } = await this.db.query<{ status: TicketStatus }>(
      `UPDATE tickets s SET updated_at = $2, merged_into = NULL, merged_at = NULL, merge_rule = NULL, status_before_merge = NULL,
         status = CASE
           WHEN s.status_before_merge IN ('open', 'pending') AND EXISTS (
             SELECT 1 FROM tickets o WHERE o.account_id = s.account_id AND o.conversation_key = s.conversation_key AND o.id <> s.id AND o.status IN ('open', 'pending'))
           THEN 'resolved'
           ELSE COALESCE(s.status_before_merge, 'open') END
       WHERE s.id = $1 RETURNING s.status`,
      [sourceId, now],
    );
    return rows[0]!.status;
  }

  /**
   * For a ticket holding merged timelines: its newest customer DM or post (not deleted), which
   * a reply answers; null when nothing was merged into it (its own channel decides).
   */
  async latestInboundOfMerged(ticketId: string): Promise<{ kind: string; conversationKey: string | null; authorUserId: string | null; authorContactId: string | null } | null> {
    const { rows } = await this.db.query<{ kind: string; conversation_key: string | null; author_user_id: string | null; author_contact_id: string | null }>(
      `SELECT a.kind, a.conversation_key, c.platform_user_id AS author_user_id, a.author_contact_id FROM activities a
         LEFT JOIN contacts c ON c.id = a.author_contact_id
        WHERE a.ticket_id = $1 AND a.direction = 'inbound' AND NOT a.deleted AND a.platform_event_id IS NOT NULL
          AND a.kind IN ('dm_received', 'mention', 'reply_to_account', 'quote_of_account')
          AND EXISTS (SELECT 1 FROM activities m WHERE m.ticket_id = $1 AND m.merged_from IS NOT NULL)
        ORDER BY a.occurred_at DESC, a.platform_event_id DESC LIMIT 1`,
      [ticketId],
    );
    const row = rows[0];
    return row ? { kind: row.kind, conversationKey: row.conversation_key, authorUserId: row.author_user_id, authorContactId: row.author_contact_id } : null;
  }

  /**
   * The ticket a newly opened one merges into by the same-contact rule: the oldest other open or
   * pending ticket of the same contact opened within `windowMinutes` before it, locked; null when none.
   */
  async sameContactTarget(ticketId: string, windowMinutes: number): Promise<string | null> {
    const { rows } = await this.db.query<{ id: string }>(
      `SELECT o.id FROM tickets t JOIN tickets o
          ON o.account_id = t.account_id AND o.contact_id = t.contact_id AND o.id <> t.id
       WHERE t.id = $1 AND t.status IN ('open', 'pending') AND o.status IN ('open', 'pending')
         AND o.created_at <= t.created_at AND o.created_at >= t.created_at - make_interval(mins => $2)
       ORDER BY o.created_at, o.id LIMIT 1
       FOR UPDATE OF o`,
      [ticketId, windowMinutes],
    );
    return rows[0]?.id ?? null;
  }
}
