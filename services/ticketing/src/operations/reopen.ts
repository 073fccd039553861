import type { TicketingTx } from '../adapters/db/store';
import { SYSTEM_ACTOR } from '../domain/workflow';
import { followInStep } from './order-following';

/** A customer's message reopens a pending or resolved ticket: the status, a timeline entry by `system`, and the CRM event. */
export async function recordReopen(tx: TicketingTx, ticketId: string, now: Date): Promise<void> {
  const before = await tx.tickets.reopen(ticketId, now);
  if (!before) return;
  const [ticket] = await tx.life.lock([ticketId]);
  await tx.life.addEntry({
    accountId: ticket!.account_id,
    ticketId,
    kind: 'reopened',
    text: `reopened by the customer's message (was ${before})`,
    actor: SYSTEM_ACTOR,
    data: { from: before },
    contactId: ticket!.contact_id,
    occurredAt: now,
  });
  await tx.crmEvents.emit('ticket.updated', ticketId, SYSTEM_ACTOR, { changes: { status: { from: before, to: 'open' } } });
  // Reopened from resolved, it follows its order again.
  await followInStep(tx, ticketId, 'open');
}
