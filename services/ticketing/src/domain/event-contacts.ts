import { userById } from './users';
import type { SocialEvent, SocialUser } from './social-events';

/** The customer an event is about, if any: the other party, never the account itself. */
export function contactOf(event: SocialEvent): SocialUser | null {
  switch (event.kind) {
    case 'dm_received':
    case 'dm_sent':
      return event.counterpart;
    case 'mention':
    case 'reply_to_account':
    case 'quote_of_account':
    case 'repost_of_account':
      return event.post.author;
    case 'reply_by_account':
      return event.post.inReplyToUserId && event.post.inReplyToUserId !== event.accountId
        ? userById(event.post.inReplyToUserId, event.post.inReplyToScreenName)
        : null;
    case 'quote_by_account':
      return event.post.quotedPost?.author ?? null;
    case 'repost_by_account':
      return event.original.author;
    case 'like_by_account':
      return event.likedPost.author;
    case 'like_of_account':
      return event.liker;
    case 'follow_by_account':
    case 'unfollow_by_account':
      return event.target;
    case 'follow_of_account':
    case 'unfollow_of_account':
      return event.source;
    case 'block':
    case 'unblock':
    case 'mute':
    case 'unmute':
      return event.target;
    default:
      return null;
  }
}
