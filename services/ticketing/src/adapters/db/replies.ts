import type { PoolClient } from '@crm/db';

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
}

export async function findReplyTarget(client: PoolClient, ticketId: string): Promise<ReplyTarget | null> {
  const { rows } = await client.query<ReplyTarget>(
    `SELECT t.id, t.account_id, t.channel, t.conversation_key, t.contact_id, c.platform_user_id AS contact_user_id, acc.status AS account_status
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
export async function lastInboundPost(client: PoolClient, ticketId: string): Promise<{ postId: string; authorContactId: string | null } | null> {
  const { rows } = await client.query<{ platform_event_id: string; author_contact_id: string | null }>(
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
export async function touchTicket(client: PoolClient, ticketId: string, at: Date): Promise<void> {
  await client.query('UPDATE tickets SET updated_at = $2, last_activity_at = GREATEST(last_activity_at, $2) WHERE id = $1', [ticketId, at]);
}
