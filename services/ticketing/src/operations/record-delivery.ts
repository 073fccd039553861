import type { Envelope, RawActivityPayload } from '@crm/contracts';
import type { TicketingStore, TicketingTx } from '../adapters/db/store';
import { lockKeyOf } from '../domain/event-kinds';
import type { Interpretation } from '../domain/events';
import type { PartnerConfig } from '../domain/partner-config';
import { ConversationBusy } from './errors';
import { prerecord, recordInWindow, recorderIn } from './recording/record-events';
import { RecordingWindow } from './recording/window';
import { emptyCounts, type Counts, type DeliverySource } from './recording/recorder';

export type { Counts } from './recording/recorder';

/** A delivery is held (its account has no partner configuration yet) or recorded; or refused, when its account already has as many held as it may. */
export interface DeliveryOutcome {
  held: boolean;
  counts: Counts;
  /** Why the delivery could not be held (nothing of it was written): it belongs in the DLQ with this reason. */
  refused?: string;
}

export interface RecordOptions {
  /** Held deliveries one account may have; more are refused (left to the DLQ, from which `pnpm dlq replay` brings them back). */
  heldCap?: number;
  /** Appends every delivery handed in to the raw log, in the same transaction (live consuming; a rebuild replays the log instead). */
  logRaw?: boolean;
}

/** One delivery to record: its envelope and the domain events it holds (null: interpretation refused it, it is only logged). */
export interface DeliveryInput {
  envelope: Envelope<RawActivityPayload>;
  interpretation: Interpretation | null;
}

/** A delivery with events to record. */
interface Recordable extends DeliveryInput {
  interpretation: Interpretation;
}

const hasEvents = (delivery: DeliveryInput): delivery is Recordable => (delivery.interpretation?.events.length ?? 0) > 0;

/** The envelopes to log: each delivery once, in the order handed in. */
function toLog(deliveries: DeliveryInput[], options: RecordOptions): Envelope<RawActivityPayload>[] {
  if (!options.logRaw) return [];
  const byId = new Map(deliveries.map(({ envelope }) => [envelope.id, envelope] as const));
  return [...byId.values()];
}

/** What became of each delivery of a batch: recorded or held, or not touched because another transaction holds one of its conversations. */
export type BatchOutcome = DeliveryOutcome | 'busy';

/** The delivery as a source of activity. */
export const sourceOf = (envelope: Envelope<RawActivityPayload>): DeliverySource => ({ envelopeId: envelope.id, receivedAt: new Date(envelope.payload.receivedAt) });

/** A revoke needs no configuration; everything else is recorded per the account's partner configuration. */
const needsConfiguration = (interpretation: Interpretation) => interpretation.events.some((event) => event.kind !== 'subscription_revoked');

/** What becomes of one delivery whose locks the transaction holds: recorded with a configuration (or none, a revoke), or held. */
type Plan = { record: Recordable; config: PartnerConfig | null } | { hold: Recordable } | { done: BatchOutcome };

function planOf(delivery: Recordable | null, busy: boolean, configs: Map<string, PartnerConfig>): Plan {
  if (busy) return { done: 'busy' };
  if (!delivery) return { done: { held: false, counts: emptyCounts() } };
  if (!needsConfiguration(delivery.interpretation)) return { record: delivery, config: null };
  const config = configs.get(delivery.interpretation.accountId);
  return config ? { record: delivery, config } : { hold: delivery };
}

/** Holds a delivery of an account without a configuration, or refuses it when the account has as many held as it may. */
async function hold(tx: TicketingTx, { envelope, interpretation }: Recordable, options: RecordOptions): Promise<DeliveryOutcome> {
  const held = await tx.held.hold(envelope, interpretation.accountId, interpretation.events.length, options.heldCap ?? Number.MAX_SAFE_INTEGER);
  if (held === 'full') return { held: false, counts: emptyCounts(), refused: `account ${interpretation.accountId} has no partner configuration and already ${options.heldCap} held deliveries (HELD_MAX_PER_ACCOUNT); configure it, then replay this DLQ` };
  return { held: true, counts: emptyCounts() };
}

/**
 * Records the events of several deliveries (tickets, activities, contacts) in one transaction
 * (with their raw log entries when `logRaw`, appended in the statement that takes the locks: a
 * busy delivery is logged all the same, once), each per its account's partner configuration;
 * a delivery of an account without one is held in that transaction (released once the account
 * is configured). Nothing is dropped. The
 * conversations' locks are tried first, without waiting: a delivery with a conversation another
 * transaction holds is left untouched (`busy`) for its caller to try later. The accounts' locks
 * (shared) are taken in the same statement, and their configurations read once for the batch;
 * what the recorded deliveries all need is done once for them (RecordingWindow).
 */
export async function recordDeliveries(store: TicketingStore, deliveries: DeliveryInput[], options: RecordOptions = {}): Promise<BatchOutcome[]> {
  const work = deliveries.map((delivery) => (hasEvents(delivery) ? delivery : null));
  const logged = toLog(deliveries, options);
  if (work.every((delivery) => delivery === null)) {
    await store.rawLog.append(logged);
    return deliveries.map(() => ({ held: false, counts: emptyCounts() }));
  }
  return store.transaction(async (tx) => {
    const accounts = [...new Set(work.flatMap((delivery) => (delivery && needsConfiguration(delivery.interpretation) ? [delivery.interpretation.accountId] : [])))];
    const busy = await tx.locks.forDeliveries(
      work.map((delivery) => delivery?.interpretation.events.map(lockKeyOf) ?? []),
      accounts,
      logged,
    );
    const configs = await tx.partnerConfigs.loadMany(accounts);
    const plans = work.map((delivery, i) => planOf(delivery, busy[i]!, configs));
    const window = new RecordingWindow(tx, await tx.now());
    const recordings = plans.flatMap((plan) => ('record' in plan ? [{ plan, events: plan.record.interpretation.events }] : []));
    await window.prepare(recordings.map(({ events }) => events));
    const recorders = new Map(recordings.map(({ plan, events }) => [plan, { recorder: recorderIn(window, events, plan.config, sourceOf(plan.record.envelope)), events }]));
    await prerecord(window, [...recorders.values()]);
    const outcomes: BatchOutcome[] = [];
    for (const plan of plans) {
      if ('done' in plan) outcomes.push(plan.done);
      else if ('hold' in plan) outcomes.push(await hold(tx, plan.hold, options));
      else outcomes.push({ held: false, counts: await recordInWindow(recorders.get(plan)!.recorder, plan.record.interpretation.events) });
    }
    await window.finish();
    return outcomes;
  });
}

/** One delivery on its own (recordDeliveries); a busy conversation throws ConversationBusy, nothing written. */
export async function recordDelivery(store: TicketingStore, envelope: Envelope<RawActivityPayload>, interpretation: Interpretation): Promise<DeliveryOutcome> {
  const [outcome] = await recordDeliveries(store, [{ envelope, interpretation }]);
  if (outcome === 'busy') throw new ConversationBusy('a conversation of this delivery is being recorded by another transaction');
  return outcome!;
}
