import { RawActivity, type Envelope, type RawActivityPayload } from '@crm/contracts';
import { makeEnvelope, PermanentFailure, RetryLater, type MessageContext, type MessageHandler } from '@crm/messaging';
import { interpretActivity } from '../domain/activity';
import { InvalidActivity } from '../domain/errors';
import type { Interpretation } from '../domain/events';
import { ConversationBusy } from '../operations/errors';
import { DeliveryBatches } from '../operations/delivery-batches';
import type { DeliveryOutcome } from '../operations/record-delivery';
import type { HandlerDeps } from './handler-deps';

/** Headers of an event's dead letter: the delivery it came in, and its place there. */
export const DELIVERY_ID_HEADER = 'x-delivery-id';
export const EVENT_INDEX_HEADER = 'x-event-index';

/** The delivery's domain events, or the error to throw once it is logged (a PermanentFailure with the reason when it can never become any). */
function interpret(payload: RawActivityPayload): { interpretation: Interpretation } | { refusal: unknown } {
  try {
    return { interpretation: interpretActivity(payload) };
  } catch (error) {
    if (error instanceof InvalidActivity) return { refusal: new PermanentFailure(`invalid ${payload.kind} delivery: ${error.message}`) };
    return { refusal: error };
  }
}

/** A busy conversation is no failure: the delivery waits in the delay queue, leaving its consumer slot to other conversations. */
async function record(batches: DeliveryBatches, envelope: Envelope<RawActivityPayload>, interpretation: Interpretation | null, signal: AbortSignal): Promise<DeliveryOutcome> {
  try {
    return await batches.record(envelope, interpretation, signal);
  } catch (error) {
    if (error instanceof ConversationBusy) throw new RetryLater(error.message);
    throw error;
  }
}

/**
 * Each unusable event of a delivery whose other events were recorded goes to the DLQ on its
 * own: its delivery with that event alone, its reason, the delivery's id and the event's index.
 */
async function deadLetterRejected(envelope: Envelope<RawActivityPayload>, interpretation: Interpretation, context: MessageContext): Promise<void> {
  for (const { index, reason, delivery } of interpretation.rejected) {
    const part = makeEnvelope(RawActivity, envelope.producer, { ...envelope.payload, delivery }, { id: `${envelope.id}:event:${index}`, correlationId: envelope.correlationId, occurredAt: envelope.occurredAt });
    await context.deadLetter(part, `invalid ${envelope.payload.kind} event: ${reason}`, { [DELIVERY_ID_HEADER]: envelope.id, [EVENT_INDEX_HEADER]: index });
  }
}

/**
 * The consumer of the activity partitions `ticketing.activity.<n>`: raw activity -> domain events -> recorded (or held), in
 * one transaction with the other deliveries of the same prefetch window (DeliveryBatches), and
 * logged in the raw log as it came in that transaction, whatever interpretation makes of it: a
 * delivery it refuses is logged, then dead-lettered.
 */
export function createActivityHandler(deps: HandlerDeps): MessageHandler<RawActivityPayload> {
  const batches = new DeliveryBatches(deps.store, { heldCap: deps.heldCap, logRaw: true, onLogged: deps.onRawLogged, transactions: deps.recordingTransactions });
  return async (envelope: Envelope<RawActivityPayload>, context: MessageContext) => {
    const interpreted = interpret(envelope.payload);
    if ('refusal' in interpreted) {
      await record(batches, envelope, null, context.signal);
      throw interpreted.refusal;
    }
    const { interpretation } = interpreted;
    const { held, counts, refused } = await record(batches, envelope, interpretation, context.signal);
    if (refused) throw new PermanentFailure(refused);
    await deadLetterRejected(envelope, interpretation, context);
    counts.ignored += interpretation.ignored.length;
    for (const reason of interpretation.ignored) deps.logger.debug('activity ignored', { envelopeId: envelope.id, reason: reason.reason });
    deps.logger.info('activity handled', { envelopeId: envelope.id, kind: envelope.payload.kind, accountId: interpretation.accountId, attempt: context.attempt, held, rejected: interpretation.rejected.length, ...counts });
    deps.onHandled?.(envelope.id);
  };
}
