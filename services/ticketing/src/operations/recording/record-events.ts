import type { TicketingTx } from '../../adapters/db/store';
import { lockKeyOf } from '../../domain/event-kinds';
import type { PartnerConfig } from '../../domain/partner-config';
import type { EventOf, SocialEvent, SocialEventKind, SubscriptionRevoked } from '../../domain/social-events';
import { recordContactAction } from './contact-actions';
import { recordIndicator } from './conversation-state';
import { activeJoinOf, recordDmReceived, recordDmSent } from './direct-messages';
import { recordInboundPost, recordOwnPost, recordPostDeleted } from './posts';
import { recordOwnReaction, recordReaction } from './reactions';
import { autoMerge } from '../auto-merge';
import { emptyCounts, Recorder, type Counts, type DeliverySource, type Outcome } from './recorder';
import { inTimeOrder, RecordingWindow } from './window';

/** The account's owner revoked the app: the accounts mirror says so (the revoke beats the connection it revokes). */
async function recordRevoke({ tx }: Recorder, event: SubscriptionRevoked): Promise<Outcome> {
  await tx.accounts.recordChange({ accountId: event.accountId, status: 'revoked', at: new Date(event.occurredAt), consumerKeyMasked: null, accessTokenMasked: null });
  return 'state';
}

/** The recorder of each kind of activity (its family's, under recording/): a kind without one does not compile. */
export type RecorderTable = { [K in SocialEventKind]: (recorder: Recorder, event: EventOf<K>) => Promise<Outcome> };

export const RECORDERS: RecorderTable = {
  dm_received: recordDmReceived,
  dm_sent: recordDmSent,
  dm_typing: recordIndicator,
  dm_read: recordIndicator,
  mention: recordInboundPost,
  reply_to_account: recordInboundPost,
  quote_of_account: recordInboundPost,
  post_by_account: recordOwnPost,
  reply_by_account: recordOwnPost,
  quote_by_account: recordOwnPost,
  post_deleted: recordPostDeleted,
  repost_of_account: recordReaction,
  like_of_account: recordReaction,
  follow_of_account: recordReaction,
  unfollow_of_account: recordReaction,
  repost_by_account: recordOwnReaction,
  like_by_account: recordOwnReaction,
  follow_by_account: recordOwnReaction,
  unfollow_by_account: recordOwnReaction,
  block: recordContactAction,
  unblock: recordContactAction,
  mute: recordContactAction,
  unmute: recordContactAction,
  subscription_revoked: recordRevoke,
};

/** Records one event with its kind's recorder (TypeScript cannot relate `event.kind` to the recorder's parameter by itself). */
const apply = (recorder: Recorder, event: SocialEvent): Promise<Outcome> => (RECORDERS[event.kind] as RecorderTable[SocialEventKind] as (recorder: Recorder, event: SocialEvent) => Promise<Outcome>)(recorder, event);

/** One delivery's recording in the window: a Recorder for it, its CRM events after those of the deliveries before. */
export const recorderIn = (window: RecordingWindow, events: SocialEvent[], config: PartnerConfig | null, source: DeliverySource): Recorder =>
  new Recorder(window, events[0]?.accountId ?? '', config, source);

/**
 * What can be recorded for all the deliveries at once before their events are applied one by
 * one: the activities of DMs joining their conversations' open tickets (activeJoinOf).
 */
export async function prerecord(window: RecordingWindow, deliveries: { recorder: Recorder; events: SocialEvent[] }[]): Promise<void> {
  const activities = deliveries.flatMap(({ recorder, events }) => (recorder.configuration ? events.flatMap((event) => activeJoinOf(recorder, event) ?? []) : []));
  await window.prerecord(activities);
}

/**
 * Records the events of one delivery of the window's transaction, in time order. A partner
 * configuration that merges tickets automatically looks at the tickets the delivery opened once
 * it is recorded: the window is finished first (summaries, CRM events), and what the merge
 * moved is read again by the next delivery.
 */
export async function recordInWindow(recorder: Recorder, events: SocialEvent[]): Promise<Counts> {
  const counts = emptyCounts();
  for (const event of inTimeOrder(events)) counts[await apply(recorder, event)] += 1;
  if (recorder.configuration?.merge.enabled && recorder.opened.length > 0) {
    await recorder.settle();
    await autoMerge(recorder);
    recorder.forgetHolders();
  }
  return counts;
}

/**
 * Records the events of one delivery in the caller's transaction: takes the locks of their
 * conversations (sorted), upserts their contacts, applies each event in time order, then
 * brings the summary of each ticket it changed up to date and tells the CRM. `locksTaken`: the
 * caller holds the conversations' locks already (else they are waited for, bounded by the lock timeout).
 */
export async function recordEvents(tx: TicketingTx, events: SocialEvent[], config: PartnerConfig | null, source: DeliverySource, { locksTaken = false } = {}): Promise<Counts> {
  if (!locksTaken) await tx.locks.keys(events.map(lockKeyOf));
  const window = new RecordingWindow(tx, await tx.now());
  await window.prepare([events]);
  const counts = await recordInWindow(recorderIn(window, events, config, source), events);
  await window.finish();
  return counts;
}
