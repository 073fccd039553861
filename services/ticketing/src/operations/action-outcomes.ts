import type { SocialCommandResultPayload } from '@crm/contracts';
import { withTransaction, type Pool } from '@crm/db';
import { activityPart, emitCrmEvent } from '../adapters/db/crm-events';
import { settleAction } from '../adapters/db/ticket-life';
import { SYSTEM_ACTOR } from '../domain/workflow';

/** Auth's result of an action from a ticket: the timeline entry's outcome, announced; a result seen again changes nothing. */
export async function recordActionOutcome(pool: Pool, result: SocialCommandResultPayload): Promise<void> {
  const outcome = result.outcome === 'succeeded' ? 'sent' : result.outcome;
  const failure = result.outcome === 'succeeded' ? null : (result.error ?? { code: 'outcome_unknown', message: 'auth gave no reason', platformCode: null });
  await withTransaction(pool, async (client) => {
    const ticketId = await settleAction(client, result.commandId, outcome, failure);
    if (ticketId) await emitCrmEvent(client, 'ticket.activity', ticketId, SYSTEM_ACTOR, { activity: await activityPart(client, result.commandId) });
  });
}
