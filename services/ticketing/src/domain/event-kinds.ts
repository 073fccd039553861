import { dmConversationKey, publicTimelineLockKey } from './events';
import type { EventOf, SocialEvent, SocialEventKind, SocialUser } from './social-events';
import { userById } from './users';

/** What ticketing knows of one kind of activity, wherever it is recorded. */
export interface EventKind<K extends SocialEventKind> {
  /**
   * The lock that serialises the work on an event of this kind, across replicas. DMs lock their
   * conversation. Public posts, reposts, likes and deletes lock the account's public timeline: a
   * reply chain can link any two of its posts, so it is the smallest unit known before reading
   * the database. Relation events only touch one contact.
   */
  lockKey: (event: EventOf<K>) => string;
  /** The customer the event is about, if any: the other party, never the account itself. */
  contact: (event: EventOf<K>) => SocialUser | null;
  /**
   * The text of its activity is the event's own (a post's, a DM's): the same event delivered
   * again with another text is an edit. A reaction's text is the post it is about, not its own.
   */
  ownText: boolean;
}

/** One entry per kind: a kind added to SOCIAL_EVENT_KINDS without its entry here does not compile. */
export type EventKindTable = { [K in SocialEventKind]: EventKind<K> };

const publicTimeline = (event: SocialEvent) => publicTimelineLockKey(event.accountId);
const contactLock = (accountId: string, user: SocialUser) => `contact:${accountId}:${user.id}`;
const noContact = () => null;
const post = { lockKey: publicTimeline, ownText: true } as const;
const reaction = { lockKey: publicTimeline, ownText: false } as const;
/** Follows, blocks and mutes by the account: the contact it acted on. */
const byTarget = { lockKey: (event: { accountId: string; target: SocialUser }) => contactLock(event.accountId, event.target), contact: (event: { target: SocialUser }) => event.target, ownText: false };
/** Follows of the account: the contact who acted. */
const bySource = { lockKey: (event: { accountId: string; source: SocialUser }) => contactLock(event.accountId, event.source), contact: (event: { source: SocialUser }) => event.source, ownText: false };
const directMessage = { lockKey: (event: { accountId: string; counterpart: SocialUser }) => dmConversationKey(event.accountId, event.counterpart.id), contact: (event: { counterpart: SocialUser }) => event.counterpart, ownText: true };
const indicator = { lockKey: (event: { accountId: string; counterpartId: string }) => dmConversationKey(event.accountId, event.counterpartId), contact: noContact, ownText: false };

export const EVENT_KINDS: EventKindTable = {
  post_by_account: { ...post, contact: noContact },
  reply_by_account: {
    ...post,
    contact: (event) => (event.post.inReplyToUserId && event.post.inReplyToUserId !== event.accountId ? userById(event.post.inReplyToUserId, event.post.inReplyToScreenName) : null),
  },
  quote_by_account: { ...post, contact: (event) => event.post.quotedPost?.author ?? null },
  repost_by_account: { ...reaction, contact: (event) => event.original.author },
  mention: { ...post, contact: (event) => event.post.author },
  reply_to_account: { ...post, contact: (event) => event.post.author },
  quote_of_account: { ...post, contact: (event) => event.post.author },
  repost_of_account: { ...reaction, contact: (event) => event.post.author },
  post_deleted: { lockKey: publicTimeline, contact: noContact, ownText: false },
  like_by_account: { ...reaction, contact: (event) => event.likedPost.author },
  like_of_account: { ...reaction, contact: (event) => event.liker },
  follow_by_account: byTarget,
  follow_of_account: bySource,
  unfollow_by_account: byTarget,
  unfollow_of_account: bySource,
  block: byTarget,
  unblock: byTarget,
  mute: byTarget,
  unmute: byTarget,
  dm_received: directMessage,
  dm_sent: directMessage,
  dm_typing: indicator,
  dm_read: indicator,
  subscription_revoked: { lockKey: (event) => `account:${event.accountId}:subscription`, contact: noContact, ownText: false },
};

/** The entry of an event's kind, taking any event (TypeScript cannot relate `event.kind` to the entry's parameter by itself). */
const kindOf = (event: SocialEvent) => EVENT_KINDS[event.kind] as EventKind<SocialEventKind>;

/** The lock that serialises the work on an event (EventKind.lockKey). */
export const lockKeyOf = (event: SocialEvent): string => kindOf(event).lockKey(event);

/** The customer an event is about, if any (EventKind.contact). */
export const contactOf = (event: SocialEvent): SocialUser | null => kindOf(event).contact(event);

/** Whether an activity of this kind carries its own text (EventKind.ownText); false for a kind that is no event's. */
export const hasOwnText = (kind: string): boolean => Object.hasOwn(EVENT_KINDS, kind) && EVENT_KINDS[kind as SocialEventKind].ownText;
