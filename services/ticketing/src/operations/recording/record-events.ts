import type { TicketingTx } from '../../adapters/db/store';
import { contactOf } from '../../domain/event-contacts';
import { lockKeyOf } from '../../domain/events';
import type { PartnerConfig } from '../../domain/partner-config';
import type { SocialEvent, SocialUser, SubscriptionRevoked } from '../../domain/social-events';
import { recordContactAction } from './contact-actions';
import { recordIndicator } from './conversation-state';
import { recordDmReceived, recordDmSent } from './direct-messages';
import { recordInboundPost, recordOwnPost, recordPostDeleted } from './posts';
import { recordOwnReaction, recordReaction } from './reactions';
import { autoMerge } from '../auto-merge';
import { emptyCounts, Recorder, type Counts, type DeliverySource, type Outcome } from './recorder';

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

/**
 * The user objects worth upserting, in time order: of the same user seen several times with
 * the same profile, only the latest sighting (the earlier ones change nothing the latest does
 * not), so a long conversation in one delivery upserts its contact once.
 */
function sightings(ordered: SocialEvent[]): { user: SocialUser; at: Date; accountId: string }[] {
  const latest = new Map<string, { user: SocialUser; at: Date; accountId: string }>();
  for (const event of ordered) {
    const user = contactOf(event);
    if (user === null || user.id === event.accountId) continue;
    latest.set(`${user.id}\u0000${JSON.stringify(user)}`, { user, at: new Date(event.occurredAt), accountId: event.accountId });
  }
  return [...latest.values()];
}

/** Upserts the contacts of the events, sorted by user id (so concurrent transactions never wait on each other crosswise); their ids by user id. */
async function upsertContacts(tx: TicketingTx, ordered: SocialEvent[]): Promise<Map<string, string>> {
  const profiles = sightings(ordered).sort((a, b) => a.user.id.localeCompare(b.user.id) || a.at.getTime() - b.at.getTime());
  const contacts = new Map<string, string>();
  for (const { user, at, accountId } of profiles) contacts.set(user.id, await tx.contacts.upsert(accountId, user, at));
  return contacts;
}

/**
 * Records the events of one delivery in the caller's transaction: takes the locks of their
 * conversations (sorted), upserts their contacts, applies each event in time order, then
 * brings the summary of each ticket it changed up to date. `locksTaken`: the caller holds the
 * conversations' locks already (else they are waited for, bounded by the lock timeout).
 */
export async function recordEvents(tx: TicketingTx, events: SocialEvent[], config: PartnerConfig | null, source: DeliverySource, { locksTaken = false } = {}): Promise<Counts> {
  if (!locksTaken) await tx.locks.keys(events.map(lockKeyOf));
  const now = await tx.now();
  const ordered = [...events].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.platformEventId.localeCompare(b.platformEventId));
  const recorder = new Recorder(tx, config, source, now, await upsertContacts(tx, ordered));
  const counts = emptyCounts();
  for (const event of ordered) counts[await apply(recorder, event)] += 1;
  await recorder.refreshChangedTickets();
  await recorder.announcePlaced();
  await autoMerge(recorder);
  return counts;
}
