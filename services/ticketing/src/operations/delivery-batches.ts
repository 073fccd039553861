import type { Envelope, RawActivityPayload } from '@crm/contracts';
import type { TicketingStore } from '../adapters/db/store';
import type { Interpretation } from '../domain/events';
import { ConversationBusy } from './errors';
import { recordDeliveries, type BatchOutcome, type DeliveryInput, type DeliveryOutcome, type RecordOptions } from './record-delivery';

interface Waiting extends DeliveryInput {
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
    const size = one.interpretation?.events.length ?? 0;
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

export interface BatchOptions extends RecordOptions {
  /** Called with each delivery's envelope id once its raw log entry is committed (when `logRaw`). */
  onLogged?: (envelopeId: string) => void;
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
    private readonly options: BatchOptions = {},
  ) {}

  /**
   * Recorded or held with the others handed in meanwhile (only logged when `interpretation` is
   * null: refused); a busy conversation rejects with ConversationBusy.
   */
  record(envelope: Envelope<RawActivityPayload>, interpretation: Interpretation | null): Promise<DeliveryOutcome> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => this.flush());
      this.waiting.push({ envelope, interpretation, resolve, reject });
    });
  }

  private flush(): void {
    for (const batch of batchesOf(this.waiting.splice(0))) void this.run(batch);
  }

  private async run(batch: Waiting[]): Promise<void> {
    let outcomes: BatchOutcome[];
    try {
      outcomes = await recordDeliveries(this.store, batch, this.options);
    } catch (error) {
      if (batch.length === 1) await this.logAlone(batch[0]!, error);
      else for (const one of batch) void this.run([one]);
      return;
    }
    for (const one of batch) if (this.options.logRaw) this.options.onLogged?.(one.envelope.id);
    batch.forEach((one, i) => {
      const outcome = outcomes[i]!;
      if (outcome === 'busy') one.reject(new ConversationBusy('a conversation of this delivery is being recorded by another transaction'));
      else one.resolve(outcome);
    });
  }

  /**
   * A delivery whose recording failed is still logged, in a statement of its own, so it is in
   * the raw log should its retries run out; then its caller gets the recording's failure.
   */
  private async logAlone(one: Waiting, failure: unknown): Promise<void> {
    if (this.options.logRaw) {
      try {
        await this.store.rawLog.append([one.envelope]);
        this.options.onLogged?.(one.envelope.id);
      } catch {
        // The database is unreachable too: the retry of the delivery logs it.
      }
    }
    one.reject(failure);
  }
}
