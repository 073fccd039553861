import { context, type Context } from '@opentelemetry/api';
import type { Envelope, RawActivityPayload } from '@crm/contracts';
import { inSpan, linkTo } from '@crm/telemetry';
import type { TicketingStore } from '../adapters/db/store';
import { deliveryRecorded } from '../adapters/metrics';
import { lockKeyOf } from '../domain/event-kinds';
import type { Interpretation } from '../domain/events';
import { ConversationBusy } from './errors';
import { recordDeliveries, type BatchOutcome, type DeliveryInput, type DeliveryOutcome, type RecordOptions } from './record-delivery';

interface Waiting extends DeliveryInput {
  /** The trace of the message that brought it. */
  trace: Context;
  /** Aborted once its message is to go back on the queue untried (MessageContext.signal): it is then not recorded. */
  signal?: AbortSignal;
  resolve: (outcome: DeliveryOutcome) => void;
  reject: (error: unknown) => void;
  /** Times it was found busy (its conversation recorded by another process's transaction) and tried again. */
  busyTries?: number;
}

/**
 * Events recorded in one transaction at most: a large delivery goes alone, so the deliveries
 * handed in beside it do not wait for it.
 */
const MOST_EVENTS_PER_BATCH = 100;

/**
 * A delivery whose conversation another process is recording (a partition handed from one
 * replica to another finishes there while it starts here) is tried again here, this often, this
 * far apart, before it is turned away busy: such a transaction ends within a second, and a
 * delivery turned away sends every message in hand back to the queue (the broker counting a
 * delivery of each).
 */
const BUSY_TRIES = 8;
const BUSY_RETRY_MS = 250;

/** The conversations a delivery records into (the keys of the locks its transaction takes). */
const keysOf = (one: Waiting): string[] => one.interpretation?.events.map(lockKeyOf) ?? [];

/**
 * The first batch of the waiting deliveries, taken out of `waiting`: at most
 * MOST_EVENTS_PER_BATCH events (a larger delivery alone), in the order they came, passing over
 * a delivery into a conversation that a running batch records (`busy`) and every later one into
 * the same conversations: they wait for that batch, so a conversation's deliveries are recorded
 * in the order they came, never by two transactions of this process at once, while the others go on.
 */
function firstBatchOf(waiting: Waiting[], busy: Set<string>): Waiting[] {
  const blocked = new Set(busy);
  const batch: Waiting[] = [];
  let events = 0;
  for (const one of waiting) {
    const keys = keysOf(one);
    if (keys.some((key) => blocked.has(key))) {
      for (const key of keys) blocked.add(key);
      continue;
    }
    const size = one.interpretation?.events.length ?? 0;
    if (batch.length > 0 && events + size > MOST_EVENTS_PER_BATCH) break;
    events += size;
    batch.push(one);
  }
  const taken = new Set(batch);
  waiting.splice(0, waiting.length, ...waiting.filter((one) => !taken.has(one)));
  return batch;
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
  /** The conversations the running batches record, each with how many of them do. */
  private readonly recording = new Map<string, number>();
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
   * null: refused); a busy conversation rejects with ConversationBusy. Once `signal` is aborted
   * before its transaction begins, it is not recorded: it rejects with the signal's reason.
   */
  record(envelope: Envelope<RawActivityPayload>, interpretation: Interpretation | null, signal?: AbortSignal): Promise<DeliveryOutcome> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ envelope, interpretation, trace: context.active(), signal, resolve, reject });
      this.scheduleFlush();
    });
  }

  /** Starts batches on the next turn of the event loop, so what the current one brings goes in together. */
  private scheduleFlush(): void {
    if (this.flushing || this.waiting.length === 0 || this.running >= this.mostRunning) return;
    this.flushing = true;
    setImmediate(() => {
      this.flushing = false;
      this.dropPutBack();
      while (this.waiting.length > 0 && this.running < this.mostRunning) {
        const batch = firstBatchOf(this.waiting, new Set(this.recording.keys()));
        if (batch.length === 0) break; // every waiting delivery's conversation is being recorded: they go once those batches end
        const keys = batch.flatMap(keysOf);
        for (const key of keys) this.recording.set(key, (this.recording.get(key) ?? 0) + 1);
        this.running += 1;
        void this.run(batch).finally(() => {
          for (const key of keys) {
            const left = this.recording.get(key)! - 1;
            if (left === 0) this.recording.delete(key);
            else this.recording.set(key, left);
          }
          this.running -= 1;
          this.scheduleFlush();
        });
      }
    });
  }

  /**
   * The waiting deliveries whose messages go back on the queue (an earlier one of their queue
   * failed): not recorded, so that they come again after it instead of being recorded before it.
   */
  private dropPutBack(): void {
    const dropped = this.waiting.filter((one) => one.signal?.aborted);
    if (dropped.length === 0) return;
    this.waiting = this.waiting.filter((one) => !one.signal?.aborted);
    for (const one of dropped) one.reject(one.signal!.reason);
  }

  /** `tryBusyAgain`: a delivery found busy waits and goes again (not in a batch redone one by one, which holds its slot meanwhile). */
  private async run(batch: Waiting[], tryBusyAgain = true): Promise<void> {
    let outcomes: BatchOutcome[];
    try {
      outcomes = await this.commit(batch);
    } catch (error) {
      if (batch.length === 1) await this.logAlone(batch[0]!, error);
      else await this.runOneByOne(batch);
      return;
    }
    for (const one of batch) if (this.options.logRaw) this.options.onLogged?.(one.envelope.id);
    const committedAt = Date.now();
    const again: Waiting[] = [];
    batch.forEach((one, i) => {
      const outcome = outcomes[i]!;
      if (outcome === 'busy' && tryBusyAgain && (one.busyTries ?? 0) < BUSY_TRIES) again.push(one);
      else if (outcome === 'busy') this.reject(one, new ConversationBusy('a conversation of this delivery is being recorded by another transaction'));
      else {
        // A held delivery waits for its account's configuration on purpose; a refused one is dead-lettered (counted there).
        if (!outcome.held && !outcome.refused) deliveryRecorded.observe(Math.max(0, committedAt - Date.parse(one.envelope.payload.receivedAt)) / 1000);
        one.resolve(outcome);
      }
    });
    if (again.length > 0) this.tryAgain(again);
  }

  /**
   * A batch that failed as a whole, recorded again one delivery at a time, in order, so that one
   * delivery's failure is its own; a later delivery into the conversation of one that failed is
   * not recorded before it (it is turned away busy and comes back after it), nor one whose
   * message goes back on the queue meanwhile.
   */
  private async runOneByOne(batch: Waiting[]): Promise<void> {
    const failed = new Set<string>();
    for (const one of batch) {
      if (one.signal?.aborted) {
        one.reject(one.signal.reason);
        continue;
      }
      if (keysOf(one).some((key) => failed.has(key))) {
        one.reject(new ConversationBusy('an earlier delivery into this conversation failed: this one follows it'));
        continue;
      }
      const settled = await new Promise<boolean>((done) => {
        const { resolve, reject } = one;
        void this.run([{ ...one, resolve: (outcome) => (resolve(outcome), done(true)), reject: (error) => (reject(error), done(false)) }], false);
      });
      if (!settled) for (const key of keysOf(one)) failed.add(key);
    }
  }

  /**
   * Deliveries found busy go first of the waiting again, in their order, after BUSY_RETRY_MS;
   * meanwhile their conversations count as being recorded, so no later delivery into them goes
   * before them.
   */
  private tryAgain(busy: Waiting[]): void {
    const keys = busy.flatMap(keysOf);
    for (const key of keys) this.recording.set(key, (this.recording.get(key) ?? 0) + 1);
    setTimeout(() => {
      for (const key of keys) {
        const left = this.recording.get(key)! - 1;
        if (left === 0) this.recording.delete(key);
        else this.recording.set(key, left);
      }
      this.waiting.unshift(...busy.map((one) => ({ ...one, busyTries: (one.busyTries ?? 0) + 1 })));
      this.scheduleFlush();
    }, BUSY_RETRY_MS).unref();
  }

  /** Turns a delivery away, and with it the waiting deliveries into its conversations, which must not be recorded before it. */
  private reject(one: Waiting, error: ConversationBusy): void {
    one.reject(error);
    const keys = new Set(keysOf(one));
    const following = this.waiting.filter((other) => keysOf(other).some((key) => keys.has(key)));
    if (following.length === 0) return;
    this.waiting = this.waiting.filter((other) => !following.includes(other));
    for (const other of following) other.reject(new ConversationBusy('an earlier delivery into this conversation is busy: this one follows it'));
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
