import { context, type Context } from '@opentelemetry/api';
import type { Envelope, RawActivityPayload } from '@crm/contracts';
import { inSpan, linkTo } from '@crm/telemetry';
import type { TicketingStore } from '../adapters/db/store';
import { deliveryRecorded } from '../adapters/metrics';
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

/** The first batch of the waiting deliveries: at most MOST_EVENTS_PER_BATCH events (a larger delivery alone). */
function firstBatchOf(waiting: Waiting[]): Waiting[] {
  let events = 0;
  let count = 0;
  for (const one of waiting) {
    const size = one.interpretation?.events.length ?? 0;
    if (count > 0 && events + size > MOST_EVENTS_PER_BATCH) break;
    events += size;
    count += 1;
  }
  return waiting.splice(0, count);
}

export interface BatchOptions extends RecordOptions {
  /** Called with each delivery's envelope id once its raw log entry is committed (when `logRaw`). */
  onLogged?: (envelopeId: string) => void;
  /** Recording transactions open at once (default 2); deliveries that come meanwhile wait and share the next. */
  transactions?: number;
}

/**
 * Records the deliveries handed in together in one transaction: the accounts' locks,
 * configurations, BEGIN and COMMIT once for all, instead of once per delivery. At most
 * `transactions` batches are recorded at once; what comes while they run waits and goes in the
 * next batch. So a lone delivery on a quiet consumer is recorded at once, and under load the
 * batches grow with the backlog (up to MOST_EVENTS_PER_BATCH events) instead of the database
 * getting ever more small transactions. Each caller still gets its own outcome; a batch that
 * fails as a whole is recorded again one delivery at a time, so one delivery's failure is its
 * own (retried or dead-lettered alone). Hand-written: it is a few lines of bookkeeping around
 * setImmediate and a counter, which no batching library makes shorter.
 */
export class DeliveryBatches {
  private waiting: Waiting[] = [];
  private running = 0;
  private flushing = false;
  private readonly mostRunning: number;

  constructor(
    private readonly store: TicketingStore,
    private readonly options: BatchOptions = {},
  ) {
    this.mostRunning = options.transactions ?? 2;
  }

  /**
   * Recorded or held with the others handed in meanwhile (only logged when `interpretation` is
   * null: refused); a busy conversation rejects with ConversationBusy.
   */
  record(envelope: Envelope<RawActivityPayload>, interpretation: Interpretation | null): Promise<DeliveryOutcome> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ envelope, interpretation, trace: context.active(), resolve, reject });
      this.scheduleFlush();
    });
  }

  /** Starts batches on the next turn of the event loop, so what the current one brings goes in together. */
  private scheduleFlush(): void {
    if (this.flushing || this.waiting.length === 0 || this.running >= this.mostRunning) return;
    this.flushing = true;
    setImmediate(() => {
      this.flushing = false;
      while (this.waiting.length > 0 && this.running < this.mostRunning) {
        const batch = firstBatchOf(this.waiting);
        this.running += 1;
        void this.run(batch).finally(() => {
          this.running -= 1;
          this.scheduleFlush();
        });
      }
    });
  }

  private async run(batch: Waiting[]): Promise<void> {
    let outcomes: BatchOutcome[];
    try {
      outcomes = await this.commit(batch);
    } catch (error) {
      if (batch.length === 1) await this.logAlone(batch[0]!, error);
      else await Promise.all(batch.map((one) => this.run([one])));
      return;
    }
    for (const one of batch) if (this.options.logRaw) this.options.onLogged?.(one.envelope.id);
    const committedAt = Date.now();
    batch.forEach((one, i) => {
      const outcome = outcomes[i]!;
      if (outcome === 'busy') one.reject(new ConversationBusy('a conversation of this delivery is being recorded by another transaction'));
      else {
        // A held delivery waits for its account's configuration on purpose; a refused one is dead-lettered (counted there).
        if (!outcome.held && !outcome.refused) deliveryRecorded.observe(Math.max(0, committedAt - Date.parse(one.envelope.payload.receivedAt)) / 1000);
        one.resolve(outcome);
      }
    });
  }

  /**
   * The batch's transaction in a span of its own: the child of the first delivery's message span,
   * linked to every delivery's, so each delivery's trace shows where its ticket was committed.
   */
  private commit(batch: Waiting[]): Promise<BatchOutcome[]> {
    const attributes = { 'crm.deliveries': batch.length, 'crm.events': batch.reduce((n, one) => n + (one.interpretation?.events.length ?? 0), 0) };
    return inSpan('ticketing commit deliveries', { parent: batch[0]!.trace, links: batch.flatMap((one) => linkTo(one.trace)), attributes }, () => recordDeliveries(this.store, batch, this.options));
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
