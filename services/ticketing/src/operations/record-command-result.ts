import { SocialCommand, type SocialCommandResultPayload } from '@crm/contracts';
import type { OutboxRow } from '@crm/messaging';
import type { TicketingStore, TicketingTx } from '../adapters/db/store';
import { replyOf, type ReplyContext } from '../domain/replies';
import { reevaluateSlaIn } from './sla';

/**
 * The outcome of a reply sent from a ticket. Succeeded: the pending activity becomes sent with
 * the platform's id (folding in its echo if the echo came first, under the conversation's
 * lock, so the reply is one activity either way). Failed: failed with auth's code and the
 * platform's message. Unknown: unknown with the reason (it may have been sent; it is not sent
 * again). A result seen again changes nothing; returns whether this one changed anything.
 */
export function recordCommandResult(store: TicketingStore, { activityId }: ReplyContext, result: SocialCommandResultPayload): Promise<boolean> {
  return store.transaction(async (tx) => {
    if (result.outcome === 'succeeded') {
      if (result.platformId) {
        const sent = await tx.outbound.markSent(activityId, result.platformId);
        // A first response stops its clock (and clears an at-risk flag) now, not when its timer comes.
        const ticketId = await tx.sla.ticketOfActivity(activityId);
        if (ticketId) await reevaluateSlaIn(tx, ticketId, await tx.now());
        return sent;
      }
      return tx.outbound.markFailed(activityId, 'unknown', { code: 'outcome_unknown', message: 'the platform accepted the reply but auth reported no id for it', platformCode: null });
    }
    const error = result.error ?? { code: 'outcome_unknown', message: 'auth gave no reason', platformCode: null };
    return tx.outbound.markFailed(activityId, result.outcome, { code: error.code, message: error.message, platformCode: error.platformCode });
  });
}

/**
 * A queued command the broker contract refuses can never be sent (only possible after a change
 * of code): its reply fails, with the reason, in the outbox relay's transaction.
 */
export async function recordUnsendableCommand(tx: TicketingTx, row: OutboxRow, reason: string): Promise<void> {
  if (row.envelope.type !== SocialCommand.type) return;
  const command = row.envelope.payload as { action?: unknown; context?: Record<string, string> };
  const reply = typeof command.action === 'string' ? replyOf(command.action, command.context) : null;
  if (!reply) return;
  await tx.outbound.markFailed(reply.activityId, 'failed', { code: 'not_sent', message: `the command could not be sent: ${reason}`, platformCode: null });
}
