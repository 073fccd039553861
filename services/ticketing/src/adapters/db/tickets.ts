import type { PoolClient } from '@crm/db';
import type { ActiveStatus, ActiveTicket, NewTicket } from '../../domain/tickets';

/**
 * Serialises all work on the given conversations until the transaction ends, whichever
 * replica does it. Keys are locked in sorted order, so two transactions never wait on each
 * other crosswise. Returns the transaction's clock.
 */
export async function lockConversations(client: PoolClient, conversationKeys: string[]): Promise<Date> {
  for (const key of [...new Set(conversationKeys)].sort()) {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
  }
  const { rows } = await client.query<{ now: Date }>('SELECT now() AS now');
  return rows[0]!.now;
}

/** The open or pending ticket of a conversation, locked for this transaction. */
export async function findActiveTicket(client: PoolClient, accountId: string, conversationKey: string): Promise<ActiveTicket | null> {
  const { rows } = await client.query<{ id: string; status: ActiveStatus }>(
    `SELECT id, status FROM tickets
      WHERE account_id = $1 AND conversation_key = $2 AND status IN ('open', 'pending')
      FOR UPDATE`,
    [accountId, conversationKey],
  );
  return rows[0] ?? null;
}

export async function insertTicket(client: PoolClient, ticket: NewTicket, contactId: string): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO tickets (account_id, status, channel, queue, folder, contact_id, conversation_key, subject,
                          created_at, updated_at, last_activity_at, first_response_due_at, resolution_due_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10, $11, $12)
     RETURNING id`,
    [
      ticket.accountId,
      ticket.status,
      ticket.channel,
      ticket.queue,
      ticket.folder,
      contactId,
      ticket.conversationKey,
      ticket.subject,
      ticket.createdAt,
      ticket.lastActivityAt,
      ticket.firstResponseDueAt,
      ticket.resolutionDueAt,
    ],
  );
  return rows[0]!.id;
}

/** Removes a ticket created in this transaction that ended up with nothing in it. */
export async function deleteTicket(client: PoolClient, ticketId: string): Promise<void> {
  await client.query('DELETE FROM tickets WHERE id = $1', [ticketId]);
}

/**
 * Brings a ticket up to date after an inbound activity joined it: status, last activity,
 * and the subject, which always comes from the earliest inbound message (deliveries may
 * arrive out of order).
 */
export async function noteInboundActivity(
  client: PoolClient,
  change: { ticketId: string; activityId: string; status: ActiveStatus; occurredAt: Date; subject: string; now: Date },
): Promise<void> {
  await client.query(
    `UPDATE tickets t SET
       status = $3,
       updated_at = $6,
       last_activity_at = GREATEST(t.last_activity_at, $4),
       subject = CASE
         WHEN $4 < (SELECT min(a.occurred_at) FROM activities a
                     WHERE a.ticket_id = t.id AND a.id <> $2 AND a.direction = 'inbound')
         THEN $5 ELSE t.subject END
     WHERE t.id = $1`,
    [change.ticketId, change.activityId, change.status, change.occurredAt, change.subject, change.now],
  );
}
