import type { NewActivity } from '../../adapters/db/activities';
import { contactOf } from '../../domain/event-kinds';
import { eventConversationKey, postConversationKey } from '../../domain/events';
import { dispositionOf } from '../../domain/partner-config';
import type { FollowEvent, LikeByAccount, LikeOfAccount, RepostByAccount, RepostOfAccount } from '../../domain/social-events';
import type { Outcome, Recorder } from './recorder';

/** Text and related post of a reaction's timeline entry: the post it is about. */
function reactionFields(event: RepostOfAccount | RepostByAccount | LikeOfAccount | LikeByAccount | FollowEvent): Partial<NewActivity> {
  if ('likedPost' in event) return { text: event.likedPost.text, relatedPostId: event.likedPost.id };
  if ('original' in event) return { text: event.original.text ?? event.post.text, relatedPostId: event.original.id };
  return {};
}

/** Repost, like, follow or unfollow of the account: the contact's timeline, or a ticket of its own if the policy says so. */
export async function recordReaction(recorder: Recorder, event: RepostOfAccount | LikeOfAccount | FollowEvent): Promise<Outcome> {
  const disposition = dispositionOf(event.kind, recorder.partner);
  if (disposition === 'ignore') return 'ignored';
  const fields = reactionFields(event);
  const recorded = await recorder.record(recorder.activity(event, 'event', fields));
  if (!('id' in recorded)) return recorded.outcome;
  const activityId = recorded.id;
  if (disposition !== 'ticket') return 'timeline';
  const contact = contactOf(event);
  const conversationKey = 'post' in event ? postConversationKey(event.accountId, event.post.id) : eventConversationKey(event.accountId, event.platformEventId);
  const text = fields.text ?? `${event.kind.replace(/_/g, ' ')} by @${contact?.screenName ?? contact?.id ?? 'unknown'}`;
  // The ticket holds this activity alone: open() wrote its summary.
  await recorder.open(event, activityId, { channel: 'public', conversationKey, text, sender: contact, lang: 'post' in event ? event.post.lang : null });
  return 'opened';
}

/** The account's own repost, like, follow or unfollow: an entry on the contact's timeline. */
export async function recordOwnReaction(recorder: Recorder, event: RepostByAccount | LikeByAccount | FollowEvent): Promise<Outcome> {
  const recorded = await recorder.record(recorder.activity(event, 'event', reactionFields(event)));
  return 'id' in recorded ? 'timeline' : recorded.outcome;
}
