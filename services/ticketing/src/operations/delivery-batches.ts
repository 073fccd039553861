import { context, type Context } from '@opentelemetry/api';
import type { Envelope, RawActivityPayload } from '@crm/contracts';
import { inSpan, linkTo } from '@crm/telemetry';
import type { TicketingStore } from '../adapters/db/store';
import type { Interpretation } from '../domain/events';
import { ConversationBusy } from './errors';
import { recordDeliveries, type BatchOutcome, type DeliveryInput, type DeliveryOutcome, type RecordOptions } from './record-delivery';

interface Waiting extends DeliveryInput {
  /** The trace of the message that brought it. */
  trace: Context;
  resolve: (outcome: DeliveryOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Events recorded in one transaction at most: a large delivery goes alone, so the deliveries
 * handed in beside it do not wait for it.
 */
const MOST_EVENTS_PER_BATCH = 100;

/** The waiting deliveries cut into batches of at most MOST_EVENTS_PER_BATCH events (a larger delivery alone). */
function batchesOf(waiting: Waiting[]): Waiting[][] {
  const batches: Waiting[][] = [];
  let current: Waiting[] = [];
  let events = 0;
  for (const one of waiting) {
    const size = one.interpretation.events.length;
    if (current.length > 0 && events + size > MOST_EVENTS_PER_BATCH) {
      batches.push(current);
      current = [];
      events = 0;
    }
    current.push(one);
    events += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * Records the deliveries handed in while the previous turn of the event loop ran (what a
 * prefetch window brings at once) in one transaction: the accounts' locks, configurations,
 * BEGIN and COMMIT once for all, instead of once per delivery. Each caller still gets its own
 * outcome; a batch that fails as a whole is recorded again one delivery at a time, so one
 * delivery's failure is its own (retried or dead-lettered alone). Hand-written: it is a
 * few lines of bookkeeping around setImmediate, which no batching library makes shorter.
 */
export class DeliveryBatches {
  private waiting: Waiting[] = [];

  constructor(
    private readonly store: TicketingStore,
    private readonly options: RecordOptions = {},
  ) {}

  /** Recorded or held with the others handed in meanwhile; a busy conversation rejects with ConversationBusy. */
  record(envelope: Envelope<RawActivityPayload>, interpretation: Interpretation): Promise<DeliveryOutcome> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => this.flush());
      this.waiting.push({ envelope, interpretation, trace: context.active(), resolve, reject });
    });
  }

  private flush(): void {
    for (const batch of batchesOf(this.waiting.splice(0))) void this.run(batch);
  }

  private async run(batch: Waiting[]): Promise<void> {
    let outcomes: BatchOutcome[];
    try {
      outcomes = await this.commit(batch);
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else for (const one of batch) void this.run([one]);
      return;
    }
    batch.forEach((one, i) => {
      const outcome = outcomes[i]!;
      if (outcome === 'busy') one.reject(new ConversationBusy('a conversation of this delivery is being recorded by another transaction'));
      else one.resolve(outcome);
    });
  }

  /**
   * The batch's transaction in a span of its own: the child of the first delivery's message span,
   * linked to every delivery's, so each delivery's trace shows where its ticket was committed.
   */
  private commit(batch: Waiting[]): Promise<BatchOutcome[]> {
    const attributes = { 'crm.deliveries': batch.length, 'crm.events': batch.reduce((n, one) => n + one.interpretation.events.length, 0) };
    return inSpan('ticketing commit deliveries', { parent: batch[0]!.trace, links: batch.flatMap((one) => linkTo(one.trace)), attributes }, () => recordDeliveries(this.store, batch, this.options));
  }
}
