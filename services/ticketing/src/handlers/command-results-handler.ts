import type { SocialCommandResultPayload } from '@crm/contracts';
import { withTransaction, type Pool } from '@crm/db';
import type { Logger } from '@crm/logging';
import type { MessageHandler } from '@crm/messaging';
import { markOutboundFailed, markOutboundSent } from '../adapters/db/outbound';
import { isUuid } from '../domain/ids';

/** The actions ticketing sends (replies from tickets); results of other commands are not ours. */
const REPLY_ACTIONS = new Set(['send_dm', 'reply']);

/**
 * Consumes `ticketing.command-results`: the outcome of a reply sent from a ticket. Succeeded:
 * the pending activity becomes sent with the platform's id (folding in its echo if the echo
 * came first, under the conversation's lock, so the reply is one activity either way).
 * Failed: failed with auth's code and the platform's message. Unknown: unknown with the
 * reason (it may have been sent; it is not sent again). A result seen again changes nothing.
 */
export function createCommandResultsHandler({ pool, logger }: { pool: Pool; logger: Logger }): MessageHandler<SocialCommandResultPayload> {
  return async (envelope) => {
    const result = envelope.payload;
    if (!REPLY_ACTIONS.has(result.action) || !isUuid(result.commandId)) {
      logger.debug('command result not for ticketing', { commandId: result.commandId, action: result.action });
      return;
    }
    const activityId = result.commandId;
    const changed = await withTransaction(pool, async (client) => {
      if (result.outcome === 'succeeded') {
        if (result.platformId) return markOutboundSent(client, activityId, result.platformId);
        return markOutboundFailed(client, activityId, 'unknown', { code: 'outcome_unknown', message: 'the platform accepted the reply but auth reported no id for it', platformCode: null });
      }
      const error = result.error ?? { code: 'outcome_unknown', message: 'auth gave no reason', platformCode: null };
      return markOutboundFailed(client, activityId, result.outcome, { code: error.code, message: error.message, platformCode: error.platformCode });
    });
    logger.info('reply outcome recorded', { activityId, action: result.action, outcome: result.outcome, platformId: result.platformId, code: result.error?.code, changed });
  };
}
