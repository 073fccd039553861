import type { Envelope, RawActivityPayload } from '@crm/contracts';
import type { TicketingStore } from '../adapters/db/store';
import type { Interpretation } from '../domain/events';
import { recordEvents } from './recording/record-events';
import { emptyCounts, type Counts, type DeliverySource } from './recording/recorder';

export type { Counts } from './recording/recorder';

/** A delivery is held (its account has no partner configuration yet) or recorded. */
export interface DeliveryOutcome {
  held: boolean;
  counts: Counts;
}

/** The delivery as a source of activity. */
export const sourceOf = (envelope: Envelope<RawActivityPayload>): DeliverySource => ({ envelopeId: envelope.id, receivedAt: new Date(envelope.payload.receivedAt) });

/** A revoke needs no configuration; everything else is recorded per the account's partner configuration. */
const needsConfiguration = (interpretation: Interpretation) => interpretation.events.some((event) => event.kind !== 'subscription_revoked');

/**
 * Records one delivery's events (tickets, activities, contacts) in one transaction, per the
 * account's partner configuration; without one, the delivery is held in that transaction
 * (released once the account is configured). Nothing is dropped. A conversation another
 * transaction is recording throws ConversationBusy (nothing written): the caller tries later.
 */
export async function recordDelivery(store: TicketingStore, envelope: Envelope<RawActivityPayload>, interpretation: Interpretation): Promise<DeliveryOutcome> {
  const { accountId, events } = interpretation;
  if (events.length === 0) return { held: false, counts: emptyCounts() };
  return store.transaction(async (tx) => {
    if (!needsConfiguration(interpretation)) return { held: false, counts: await recordEvents(tx, events, null, sourceOf(envelope), 'refuse') };
    await tx.locks.accountShared(accountId);
    const config = await tx.partnerConfigs.load(accountId);
    if (!config) {
      await tx.held.hold(envelope, accountId, events.length);
      return { held: true, counts: emptyCounts() };
    }
    return { held: false, counts: await recordEvents(tx, events, config, sourceOf(envelope), 'refuse') };
  });
}
