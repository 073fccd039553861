import type { PoolClient } from '@crm/db';
import { emitCrmEvent } from '../adapters/db/crm-events';
import { insertInternalActivity } from '../adapters/db/ticket-life';
import { reopenTicket } from '../adapters/db/tickets';
import { SYSTEM_ACTOR } from '../domain/workflow';

/** A customer's message reopens a pending or resolved ticket: the status, a timeline entry by `system`, and the CRM event. */
export async function recordReopen(client: PoolClient, ticketId: string, now: Date): Promise<void> {
  const before = await reopenTicket(client, ticketId, now);
  if (!before) return;
  const { rows } = await client.query<{ account_id: string; contact_id: string | null }>('SELECT account_id, contact_id FROM tickets WHERE id = $1', [ticketId]);
  const ticket = rows[0]!;
  await insertInternalActivity(client, {
    accountId: ticket.account_id,
    ticketId,
    kind: 'reopened',
    text: `reopened by the customer's message (was ${before})`,
    actor: SYSTEM_ACTOR,
    data: { from: before },
    contactId: ticket.contact_id,
    occurredAt: now,
  });
  await emitCrmEvent(client, 'ticket.updated', ticketId, SYSTEM_ACTOR, { changes: { status: { from: before, to: 'open' } } });
}
