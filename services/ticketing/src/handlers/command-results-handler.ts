import type { SocialCommandResultPayload } from '@crm/contracts';
import type { MessageHandler } from '@crm/messaging';
import type { HandlerDeps } from './handler-deps';
import { replyOf } from '../domain/replies';
import { recordCommandResult } from '../operations/record-command-result';

/** Consumes `ticketing.command-results`: results of replies sent from tickets are recorded; anyone else's are not ours. */
export function createCommandResultsHandler({ store, logger, onHandled }: HandlerDeps): MessageHandler<SocialCommandResultPayload> {
  return async (envelope) => {
    const result = envelope.payload;
    const reply = replyOf(result.action, result.context);
    if (reply) {
      const changed = await recordCommandResult(store, reply, result);
      logger.info('reply outcome recorded', { activityId: reply.activityId, action: result.action, outcome: result.outcome, platformId: result.platformId, code: result.error?.code, changed });
    } else {
      logger.debug('command result not for ticketing', { commandId: result.commandId, action: result.action });
    }
    onHandled?.(envelope.id);
  };
}
