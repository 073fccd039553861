import type { TicketingTx } from '../../adapters/db/store';
import { lockKeyOf } from '../../domain/events';
import type { PartnerConfig } from '../../domain/partner-config';
import type { SocialEvent, SubscriptionRevoked } from '../../domain/social-events';
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

function apply(recorder: Recorder, event: SocialEvent): Promise<Outcome> {
  switch (event.kind) {
    case 'dm_received':
      return recordDmReceived(recorder, event);
    case 'dm_sent':
      return recordDmSent(recorder, event);
    case 'dm_typing':
    case 'dm_read':
      return recordIndicator(recorder, event);
    case 'mention':
    case 'reply_to_account':
    case 'quote_of_account':
      return recordInboundPost(recorder, event);
    case 'post_by_account':
    case 'reply_by_account':
    case 'quote_by_account':
      return recordOwnPost(recorder, event);
    case 'post_deleted':
      return recordPostDeleted(recorder, event);
    case 'repost_of_account':
    case 'like_of_account':
    case 'follow_of_account':
    case 'unfollow_of_account':
      return recordReaction(recorder, event);
    case 'repost_by_account':
    case 'like_by_account':
    case 'follow_by_account':
    case 'unfollow_by_account':
      return recordOwnReaction(recorder, event);
    case 'block':
    case 'unblock':
    case 'mute':
    case 'unmute':
      return recordContactAction(recorder, event);
    case 'subscription_revoked':
      return recordRevoke(recorder, event);
  }
}

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
