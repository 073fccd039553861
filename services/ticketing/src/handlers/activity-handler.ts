import type { Envelope, RawActivityPayload } from '@crm/contracts';
import { PermanentFailure, RetryLater, type MessageContext, type MessageHandler } from '@crm/messaging';
import { interpretActivity } from '../domain/activity';
import { InvalidActivity } from '../domain/errors';
import type { Interpretation } from '../domain/events';
import { ConversationBusy } from '../operations/errors';
import { recordDelivery, type DeliveryOutcome } from '../operations/record-delivery';
import type { HandlerDeps } from './handler-deps';

/** A delivery that can never become domain events goes to the DLQ at once, with the reason. */
function interpret(payload: RawActivityPayload): Interpretation {
  try {
    return interpretActivity(payload);
  } catch (error) {
    if (error instanceof InvalidActivity) throw new PermanentFailure(`invalid ${payload.kind} delivery: ${error.message}`);
    throw error;
  }
}

/** A busy conversation is no failure: the delivery waits in the delay queue, leaving its consumer slot to other conversations. */
async function record(deps: HandlerDeps, envelope: Envelope<RawActivityPayload>, interpretation: Interpretation): Promise<DeliveryOutcome> {
  try {
    return await recordDelivery(deps.store, envelope, interpretation);
  } catch (error) {
    if (error instanceof ConversationBusy) throw new RetryLater(error.message);
    throw error;
  }
}

/** The consumer of `ticketing.activity`: raw activity -> domain events -> recorded (or held) in one transaction. */
export function createActivityHandler(deps: HandlerDeps): MessageHandler<RawActivityPayload> {
  return async (envelope: Envelope<RawActivityPayload>, context: MessageContext) => {
    const interpretation = interpret(envelope.payload);
    const { held, counts } = await record(deps, envelope, interpretation);
    counts.ignored += interpretation.ignored.length;
    for (const reason of interpretation.ignored) deps.logger.debug('activity ignored', { envelopeId: envelope.id, reason: reason.reason });
    deps.logger.info('activity handled', { envelopeId: envelope.id, kind: envelope.payload.kind, accountId: interpretation.accountId, attempt: context.attempt, held, ...counts });
    deps.onHandled?.(envelope.id);
  };
}
