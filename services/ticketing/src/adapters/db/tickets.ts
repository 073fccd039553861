import { followMerged } from './merges';
import type { Queryable } from './queryable';
import type { TicketStatus } from '@crm/contracts';
import type { NewTicket, TicketState } from '../../domain/tickets';

interface StateRow {
  id: string;
  status: TicketStatus;
  resolved_at: Date | null;
}

const state = (row: StateRow | undefined): TicketState | null => (row ? { id: row.id, status: row.status, resolvedAt: row.resolved_at } : null);

/** What a ticket's summary is made of: its earliest inbound activity (what routing looks at) and its latest activity. */
export interface TicketSummary {
  first: { platformEventId: string; kind: string; text: string | null; senderId: string | null; senderScreenName: string | null; lang: string | null } | null;
  lastActivityAt: Date | null;
  /** Routing may run again: queue and folder are routing's, chosen on another activity than the earliest inbound one. */
  reroutable: boolean;
}

/** What a reply from a ticket needs to know about it, the ticket row locked for the transaction. */
export interface ReplyTarget {
  id: string;
  account_id: string;
  channel: 'dm' | 'public';
  conversation_key: string;
  contact_id: string | null;
  /** The contact's platform id: the recipient of a DM. */
  contact_user_id: string | null;
  /** As auth (or a revoke delivery) reported it; null when ticketing has heard nothing of the account. */
  account_status: string | null;
  status: string;
  /** The ticket it was merged into, when merged. */
  merged_into: string | null;
}

/** Tickets as recording, replies and the workflow change them (rows locked for the transaction where said). */
export class TicketRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * The ticket a conversation's next message belongs with: its open or pending ticket, else its
   * most recent one (resolved, closed, ...), locked for this transaction.
   */
  async conversationHolder(accountId: string, conversationKey: string): Promise<TicketState | null> {
    const { rows } = await this.db.query<StateRow>(
      `SELECT id, status, resolved_at FROM tickets
        WHERE account_id = $1 AND conversation_key = $2
        ORDER BY status IN ('open', 'pending') DESC, created_at DESC, id DESC
        LIMIT 1
        FOR UPDATE`,
      [accountId, conversationKey],
    );
    // A merged ticket's conversation continues on the ticket it was merged into.
    return followMerged(this.db, state(rows[0]));
  }

  /**
   * conversationHolder of several conversations in one statement (each locked for this
   * transaction; a merged one followed to its target), by conversation key.
   */
  async conversationHolders(conversations: { accountId: string; conversationKey: string }[]): Promise<Map<string, TicketState | null>> {
    const holders = new Map<string, TicketState | null>();
    if (conversations.length === 0) return holders;
    const sorted = [...new Map(conversations.map((c) => [c.conversationKey, c] as const)).values()].sort((a, b) => a.conversationKey.localeCompare(b.conversationKey));
    const { rows } = await this.db.query<StateRow & { conversation_key: string }>(
      `SELECT k.conversation_key, t.id, t.status, t.resolved_at
         FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(account_id, conversation_key, n)
         LEFT JOIN LATERAL (
           SELECT id, status, resolved_at FROM tickets
            WHERE account_id = k.account_id AND conversation_key = k.conversation_key
            ORDER BY status IN ('open', 'pending') DESC, created_at DESC, id DESC
            LIMIT 1
            FOR UPDATE) t ON true
        ORDER BY k.n`,
      [sorted.map((c) => c.accountId), sorted.map((c) => c.conversationKey)],
    );
    for (const row of rows) holders.set(row.conversation_key, await followMerged(this.db, row.id === null ? null : state(row)));
    return holders;
  }

  /** The ticket holding a post (as any of its activities), locked for this transaction. */
  async holdingPost(accountId: string, postId: string): Promise<TicketState | null> {
    const { rows } = await this.db.query<StateRow>(
      `SELECT t.id, t.status, t.resolved_at FROM activities a JOIN tickets t ON t.id = a.ticket_id
        WHERE a.account_id = $1 AND a.platform_event_id = $2
        FOR UPDATE OF t`,
      [accountId, postId],
    );
    return state(rows[0]);
  }

  async open(ticket: NewTicket, contactId: string | null): Promise<string> {
    const { rows } = await this.db.query<{ id: string }>(
      `INSERT INTO tickets (account_id, status, channel, queue, folder, routing_rule, routed_by_event_id, opened_by_kind, contact_id, conversation_key,
                            subject, created_at, updated_at, last_activity_at, first_response_due_at, resolution_due_at, awaiting_post_id)
       VALUES ($1, 'open', $2, $3, $4, $5, $15, $6, $7, $8, $9, $10, $10, $11, $12, $13, $14)
       RETURNING id`,
      [
        ticket.accountId,
        ticket.channel,
        ticket.queue,
        ticket.folder,
        ticket.routingRule,
        ticket.openedByKind,
        contactId,
        ticket.conversationKey,
        ticket.subject,
        ticket.createdAt,
        ticket.lastActivityAt,
        ticket.firstResponseDueAt,
        ticket.resolutionDueAt,
        ticket.awaitingPostId,
        ticket.routedByEventId,
      ],
    );
    return rows[0]!.id;
  }

  /** A customer wrote again: a pending or resolved ticket is open again; returns the status it had, null when it was not reopened. */
  async reopen(ticketId: string, now: Date): Promise<TicketStatus | null> {
    const { rows } = await this.db.query<{ before: TicketStatus }>(
      `UPDATE tickets t SET status = 'open', updated_at = $2 FROM tickets b
        WHERE t.id = $1 AND b.id = t.id AND t.status IN ('pending', 'resolved') RETURNING b.status AS before`,
      [ticketId, now],
    );
    return rows[0]?.before ?? null;
  }

  /**
   * Brings tickets' last activity time (and updated_at) up to date from their activities and
   * returns what the rest of each summary is made of, with the subject it has now, by ticket
   * id: one statement for all, for the common case, where the subject and routing stay
   * (updateSummary changes them).
   */
  async touchSummaries(ticketIds: string[], now: Date): Promise<Map<string, TicketSummary & { subject: string }>> {
    const summaries = new Map<string, TicketSummary & { subject: string }>();
    if (ticketIds.length === 0) return summaries;
    const { rows } = await this.db.query<{
      id: string;
      platform_event_id: string | null;
      kind: string | null;
      text: string | null;
      sender_id: string | null;
      sender_screen_name: string | null;
      lang: string | null;
      last_at: Date | null;
      subject: string;
      reroutable: boolean;
    }>(
      `UPDATE tickets t SET updated_at = $2, last_activity_at = COALESCE(l.last_at, t.last_activity_at)
         FROM unnest($1::uuid[]) AS ids(id)
         LEFT JOIN LATERAL (
           SELECT a.platform_event_id, a.kind, a.text, c.platform_user_id AS sender_id, c.screen_name AS sender_screen_name, a.raw->>'lang' AS lang
             FROM activities a LEFT JOIN contacts c ON c.id = a.author_contact_id
            WHERE a.ticket_id = ids.id AND a.direction = 'inbound'
            ORDER BY a.occurred_at, a.platform_event_id LIMIT 1) f ON true
         LEFT JOIN LATERAL (SELECT max(occurred_at) AS last_at FROM activities WHERE ticket_id = ids.id) l ON true
        WHERE t.id = ids.id
       RETURNING t.id, f.platform_event_id, f.kind, f.text, f.sender_id, f.sender_screen_name, f.lang, t.last_activity_at AS last_at, t.subject,
                 t.auto_routed AND f.platform_event_id IS DISTINCT FROM t.routed_by_event_id AS reroutable`,
      [[...new Set(ticketIds)].sort(), now],
    );
    for (const row of rows) {
      summaries.set(row.id, {
        first:
          row.kind && row.platform_event_id
            ? { platformEventId: row.platform_event_id, kind: row.kind, text: row.text, senderId: row.sender_id, senderScreenName: row.sender_screen_name, lang: row.lang }
            : null,
        lastActivityAt: row.last_at,
        reroutable: row.reroutable,
        subject: row.subject,
      });
    }
    return summaries;
  }

  /**
   * Open or pending tickets opened by a reply to `postId` before that post was seen, locked;
   * adoptable unless an agent worked on it (a reply sent, an order linked).
   */
  async awaiting(accountId: string, postId: string): Promise<{ id: string; adoptable: boolean }[]> {
    const { rows } = await this.db.query<{ id: string; adoptable: boolean }>(
      `SELECT t.id, (t.status IN ('open', 'pending')
                     AND NOT EXISTS (SELECT 1 FROM activities a WHERE a.ticket_id = t.id AND a.send_status IS NOT NULL)
                     AND NOT EXISTS (SELECT 1 FROM ticket_orders o WHERE o.ticket_id = t.id)) AS adoptable
         FROM tickets t
        WHERE t.account_id = $1 AND t.awaiting_post_id = $2
        ORDER BY t.created_at, t.id
        FOR UPDATE`,
      [accountId, postId],
    );
    return rows;
  }

  /** The parent turned up elsewhere and the ticket stays on its own (an agent worked on it): stop waiting. */
  async stopAwaiting(ticketId: string): Promise<void> {
    await this.db.query('UPDATE tickets SET awaiting_post_id = NULL WHERE id = $1', [ticketId]);
  }

  /** Removes a ticket whose activities all moved to another. */
  async delete(ticketId: string): Promise<void> {
    await this.db.query('DELETE FROM tickets WHERE id = $1', [ticketId]);
  }

  async updateSummary(
    ticketId: string,
    change: {
      now: Date;
      lastActivityAt: Date | null;
      subject: string | null;
      /** Routing again, on the activity `byEventId`; null keeps queue and folder. */
      routing: { queue: string; folder: string; rule: string | null; byEventId: string; kind: string } | null;
    },
  ): Promise<void> {
    const { routing } = change;
    await this.db.query(
      `UPDATE tickets SET updated_at = $2,
         last_activity_at = COALESCE($3, last_activity_at),
         subject = COALESCE($4, subject),
         queue = CASE WHEN $5 THEN $6 ELSE queue END,
         folder = CASE WHEN $5 THEN $7 ELSE folder END,
         routing_rule = CASE WHEN $5 THEN $8 ELSE routing_rule END,
         routed_by_event_id = CASE WHEN $5 THEN $9 ELSE routed_by_event_id END,
         opened_by_kind = CASE WHEN $5 THEN $10 ELSE opened_by_kind END
       WHERE id = $1`,
      [ticketId, change.now, change.lastActivityAt, change.subject, routing !== null, routing?.queue ?? null, routing?.folder ?? null, routing?.rule ?? null, routing?.byEventId ?? null, routing?.kind ?? null],
    );
  }

  async replyTarget(ticketId: string): Promise<ReplyTarget | null> {
    const { rows } = await this.db.query<ReplyTarget>(
      `SELECT t.id, t.account_id, t.channel, t.conversation_key, t.contact_id, c.platform_user_id AS contact_user_id, acc.status AS account_status, t.status, t.merged_into
         FROM tickets t
         LEFT JOIN contacts c ON c.id = t.contact_id
         LEFT JOIN accounts acc ON acc.account_id = t.account_id
        WHERE t.id = $1
        FOR UPDATE OF t`,
      [ticketId],
    );
    return rows[0] ?? null;
  }

  /** The post a public reply answers: the ticket's newest customer post that is not deleted. */
  async lastInboundPost(ticketId: string): Promise<{ postId: string; authorContactId: string | null } | null> {
    const { rows } = await this.db.query<{ platform_event_id: string; author_contact_id: string | null }>(
      `SELECT a.platform_event_id, a.author_contact_id FROM activities a
        WHERE a.ticket_id = $1 AND a.direction = 'inbound' AND a.kind IN ('mention', 'reply_to_account', 'quote_of_account')
          AND NOT a.deleted AND a.platform_event_id IS NOT NULL
        ORDER BY a.occurred_at DESC, a.platform_event_id DESC
        LIMIT 1`,
      [ticketId],
    );
    const row = rows[0];
    return row ? { postId: row.platform_event_id, authorContactId: row.author_contact_id } : null;
  }

  /** The reply is the ticket's newest activity for now (its summary is refreshed with the next delivery anyway). */
  async touch(ticketId: string, at: Date): Promise<void> {
    await this.db.query('UPDATE tickets SET updated_at = $2, last_activity_at = GREATEST(last_activity_at, $2) WHERE id = $1', [ticketId, at]);
  }
}
