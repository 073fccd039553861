import type { SocialEvent } from './social-events';

/** Something in a delivery that is understood but deliberately not acted on. */
export interface IgnoredActivity {
  reason: string;
}

/** One platform event of a delivery that cannot be used, while its neighbours can. */
export interface RejectedEvent {
  /** Its place in the delivery's list of events. */
  index: number;
  reason: string;
  /** The delivery with this event alone in its list (what its dead letter holds). */
  delivery: Record<string, unknown>;
}

/** The result of interpreting one delivery. */
export interface Interpretation {
  accountId: string;
  events: SocialEvent[];
  ignored: IgnoredActivity[];
  /** Events that cannot be used, each dead-lettered on its own; never every event of the delivery. */
  rejected: RejectedEvent[];
}

/** Threads DMs: one conversation per account and counterpart. */
export const dmConversationKey = (accountId: string, counterpartId: string) => `dm:${accountId}:${counterpartId}`;

/** The conversation of a public ticket: the post that opened it. */
export const postConversationKey = (accountId: string, postId: string) => `post:${accountId}:${postId}`;

/** The conversation of a ticket opened by a like, follow or unfollow (when the policy says so). */
export const eventConversationKey = (accountId: string, platformEventId: string) => `event:${accountId}:${platformEventId}`;

/**
 * The lock of an account's public timeline: posts, reposts, likes and deletes. A reply chain
 * can link any two of its posts, so it is the smallest unit known before reading the database.
 */
export const publicTimelineLockKey = (accountId: string) => `public:${accountId}`;

/**
 * The lock a reply sent from a ticket settles under: the one its echo is recorded under
 * (a DM's conversation key is its lock key; a public reply's is the public timeline).
 */
export const lockKeyOfReply = (accountId: string, conversationKey: string | null) => conversationKey ?? publicTimelineLockKey(accountId);
