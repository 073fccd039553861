import type { SocialCommandResultPayload } from '@crm/contracts';
import type { TicketingStore } from '../adapters/db/store';
import { SYSTEM_ACTOR } from '../domain/workflow';

/** Auth's result of an action from a ticket: the timeline entry's outcome, announced; a result seen again changes nothing. */
export function recordActionOutcome(store: TicketingStore, activityId: string, result: SocialCommandResultPayload): Promise<boolean> {
  const outcome = result.outcome === 'succeeded' ? 'sent' : result.outcome;
  const failure = result.outcome === 'succeeded' ? null : (result.error ?? { code: 'outcome_unknown', message: 'auth gave no reason', platformCode: null });
  return store.transaction(async (tx) => {
    const ticketId = await tx.life.settleAction(activityId, outcome, failure && { code: failure.code, message: failure.message, platformCode: failure.platformCode });
    if (ticketId) await tx.crmEvents.emitAll([{ type: 'ticket.activity', ticketId, actor: SYSTEM_ACTOR, activityId }]);
    return ticketId !== null;
  });
}
