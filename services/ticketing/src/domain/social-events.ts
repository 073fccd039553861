import { defineContract, describeErrors, type Contract } from '@crm/contracts';

/**
 * What ticketing understands of a social account's activity: one typed domain event per
 * thing that happened, whatever delivery shape it came in. Ids are always strings; times
 * are ISO 8601. Each kind is a contract (`social.event.<kind>.v1`), so the same events can
 * be validated in process and, later, published.
 */

/** Every kind of account activity, named from the account's point of view. */
const SOCIAL_EVENT_KINDS = [
  // posts
  'post_by_account',
  'reply_by_account',
  'quote_by_account',
  'repost_by_account',
  'mention',
  'reply_to_account',
  'quote_of_account',
  'repost_of_account',
  'post_deleted',
  // likes and relations
  'like_by_account',
  'like_of_account',
  'follow_by_account',
  'follow_of_account',
  'unfollow_by_account',
  'unfollow_of_account',
  'block',
  'unblock',
  'mute',
  'unmute',
  // direct messages
  'dm_received',
  'dm_sent',
  'dm_typing',
  'dm_read',
  // the subscription
  'subscription_revoked',
] as const;

export type SocialEventKind = (typeof SOCIAL_EVENT_KINDS)[number];

/** A platform user as a user object describes it: the source of a contact. */
export interface SocialUser {
  id: string;
  screenName: string | null;
  name: string | null;
  avatarUrl: string | null;
  followersCount: number | null;
  verified: boolean | null;
  /** The user object as received; null when the delivery named the user by id only. */
  raw: Record<string, unknown> | null;
}

/** A photo, video or GIF attached to a post or DM. */
export interface MediaAttachment {
  type: string;
  url: string | null;
  mediaId: string | null;
}

/** Another post an event refers to (the liked, reposted or quoted one). */
export interface PostRef {
  id: string;
  text: string | null;
  author: SocialUser | null;
}

export interface Post {
  id: string;
  text: string;
  lang: string | null;
  author: SocialUser;
  inReplyToPostId: string | null;
  inReplyToUserId: string | null;
  inReplyToScreenName: string | null;
  quotedPost: PostRef | null;
  /** Ids of the users the post mentions. */
  mentionedUserIds: string[];
  media: MediaAttachment[];
}

interface EventBase<K extends SocialEventKind> {
  kind: K;
  /** The connected account the activity belongs to. */
  accountId: string;
  /** The platform's id of the event, or one derived from its content where the platform gives none. */
  platformEventId: string;
  occurredAt: string;
  /** The platform event as received, kept with what it becomes. */
  raw: Record<string, unknown>;
}

export interface PostEvent<K extends SocialEventKind> extends EventBase<K> {
  post: Post;
}

export type PostByAccount = PostEvent<'post_by_account'>;
export type ReplyByAccount = PostEvent<'reply_by_account'>;
export type QuoteByAccount = PostEvent<'quote_by_account'>;
export type ReplyToAccount = PostEvent<'reply_to_account'>;
export type QuoteOfAccount = PostEvent<'quote_of_account'>;

export interface Mention extends PostEvent<'mention'> {
  /** The delivery's `user_has_blocked`: the account has blocked the author (null when not said). */
  authorBlockedByAccount: boolean | null;
}

export interface RepostEvent<K extends 'repost_by_account' | 'repost_of_account'> extends PostEvent<K> {
  original: PostRef;
}
export type RepostByAccount = RepostEvent<'repost_by_account'>;
export type RepostOfAccount = RepostEvent<'repost_of_account'>;

export interface PostDeleted extends EventBase<'post_deleted'> {
  postId: string;
  authorId: string | null;
}

export interface LikeEvent<K extends 'like_by_account' | 'like_of_account'> extends EventBase<K> {
  liker: SocialUser;
  likedPost: PostRef;
}
export type LikeByAccount = LikeEvent<'like_by_account'>;
export type LikeOfAccount = LikeEvent<'like_of_account'>;

export type FollowKind = 'follow_by_account' | 'follow_of_account' | 'unfollow_by_account' | 'unfollow_of_account';
export interface FollowEvent<K extends FollowKind = FollowKind> extends EventBase<K> {
  source: SocialUser;
  target: SocialUser;
}

export type ContactActionKind = 'block' | 'unblock' | 'mute' | 'unmute';
/** The account blocked, unblocked, muted or unmuted `target`. */
export interface ContactActionEvent<K extends ContactActionKind = ContactActionKind> extends EventBase<K> {
  target: SocialUser;
}

interface DirectMessageBase<K extends 'dm_received' | 'dm_sent'> extends EventBase<K> {
  senderId: string;
  recipientId: string;
  /** The other party of the conversation (not the account). */
  counterpart: SocialUser;
  text: string;
  attachments: MediaAttachment[];
  sourceAppId: string | null;
}
export type DmReceived = DirectMessageBase<'dm_received'>;
export type DmSent = DirectMessageBase<'dm_sent'>;

interface IndicatorBase<K extends 'dm_typing' | 'dm_read'> extends EventBase<K> {
  senderId: string;
  recipientId: string;
  counterpartId: string;
  /** True when the account itself is typing / has read. */
  byAccount: boolean;
}
export type DmTyping = IndicatorBase<'dm_typing'>;
export interface DmRead extends IndicatorBase<'dm_read'> {
  lastReadEventId: string;
}

export interface SubscriptionRevoked extends EventBase<'subscription_revoked'> {
  appId: string | null;
}

export type SocialEvent =
  | PostByAccount
  | ReplyByAccount
  | QuoteByAccount
  | RepostByAccount
  | Mention
  | ReplyToAccount
  | QuoteOfAccount
  | RepostOfAccount
  | PostDeleted
  | LikeByAccount
  | LikeOfAccount
  | FollowEvent
  | ContactActionEvent
  | DmReceived
  | DmSent
  | DmTyping
  | DmRead
  | SubscriptionRevoked;

// ---------------------------------------------------------------------------------------
// Schemas

const platformId = { type: 'string', pattern: '^[0-9]{1,30}$' } as const;
const nullableId = { type: ['string', 'null'], pattern: '^[0-9]{1,30}$' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const rawObject = { type: 'object' } as const;

const socialUserSchema = {
  type: 'object',
  required: ['id', 'screenName', 'name', 'avatarUrl', 'followersCount', 'verified', 'raw'],
  additionalProperties: false,
  properties: {
    id: platformId,
    screenName: nullableString,
    name: nullableString,
    avatarUrl: { type: ['string', 'null'], format: 'uri' },
    followersCount: { type: ['integer', 'null'], minimum: 0 },
    verified: { type: ['boolean', 'null'] },
    raw: { type: ['object', 'null'] },
  },
} as const;

const mediaSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['type', 'url', 'mediaId'],
    additionalProperties: false,
    properties: { type: { type: 'string', minLength: 1 }, url: { type: ['string', 'null'], format: 'uri' }, mediaId: nullableString },
  },
} as const;

const postRefSchema = {
  type: 'object',
  required: ['id', 'text', 'author'],
  additionalProperties: false,
  properties: { id: platformId, text: nullableString, author: { oneOf: [{ type: 'null' }, socialUserSchema] } },
} as const;

const postSchema = {
  type: 'object',
  required: ['id', 'text', 'lang', 'author', 'inReplyToPostId', 'inReplyToUserId', 'inReplyToScreenName', 'quotedPost', 'mentionedUserIds', 'media'],
  additionalProperties: false,
  properties: {
    id: platformId,
    text: { type: 'string' },
    lang: nullableString,
    author: socialUserSchema,
    inReplyToPostId: nullableId,
    inReplyToUserId: nullableId,
    inReplyToScreenName: nullableString,
    quotedPost: { oneOf: [{ type: 'null' }, postRefSchema] },
    mentionedUserIds: { type: 'array', items: platformId },
    media: mediaSchema,
  },
} as const;

/** The schema of one kind: the common fields plus the kind's own. */
function eventSchema(kind: SocialEventKind, properties: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'object',
    required: ['kind', 'accountId', 'platformEventId', 'occurredAt', 'raw', ...Object.keys(properties)],
    additionalProperties: false,
    properties: {
      kind: { const: kind },
      accountId: platformId,
      platformEventId: { type: 'string', minLength: 1, maxLength: 200 },
      occurredAt: { type: 'string', format: 'date-time' },
      raw: rawObject,
      ...properties,
    },
  };
}

const postProperties = { post: postSchema };
const directMessageProperties = {
  senderId: platformId,
  recipientId: platformId,
  counterpart: socialUserSchema,
  text: { type: 'string' },
  attachments: mediaSchema,
  sourceAppId: nullableId,
};
const indicatorProperties = { senderId: platformId, recipientId: platformId, counterpartId: platformId, byAccount: { type: 'boolean' } };

const PROPERTIES: Record<SocialEventKind, Record<string, unknown>> = {
  post_by_account: postProperties,
  reply_by_account: postProperties,
  quote_by_account: postProperties,
  repost_by_account: { ...postProperties, original: postRefSchema },
  mention: { ...postProperties, authorBlockedByAccount: { type: ['boolean', 'null'] } },
  reply_to_account: postProperties,
  quote_of_account: postProperties,
  repost_of_account: { ...postProperties, original: postRefSchema },
  post_deleted: { postId: platformId, authorId: nullableId },
  like_by_account: { liker: socialUserSchema, likedPost: postRefSchema },
  like_of_account: { liker: socialUserSchema, likedPost: postRefSchema },
  follow_by_account: { source: socialUserSchema, target: socialUserSchema },
  follow_of_account: { source: socialUserSchema, target: socialUserSchema },
  unfollow_by_account: { source: socialUserSchema, target: socialUserSchema },
  unfollow_of_account: { source: socialUserSchema, target: socialUserSchema },
  block: { target: socialUserSchema },
  unblock: { target: socialUserSchema },
  mute: { target: socialUserSchema },
  unmute: { target: socialUserSchema },
  dm_received: directMessageProperties,
  dm_sent: directMessageProperties,
  dm_typing: indicatorProperties,
  dm_read: { ...indicatorProperties, lastReadEventId: platformId },
  subscription_revoked: { appId: nullableId },
};

/** The message type of a kind: `social.event.dm-received.v1`. */
const socialEventType = (kind: SocialEventKind) => `social.event.${kind.replace(/_/g, '-')}.v1`;

const SocialEventContracts = Object.fromEntries(
  SOCIAL_EVENT_KINDS.map((kind) => [kind, defineContract<SocialEvent>(socialEventType(kind), eventSchema(kind, PROPERTIES[kind]))]),
) as Record<SocialEventKind, Contract<SocialEvent>>;

/** The problems of an event against its kind's schema, each naming the field; empty when valid. */
export function checkSocialEvent(event: { kind?: unknown }): string[] {
  if (!(SOCIAL_EVENT_KINDS as readonly unknown[]).includes(event.kind)) return [`/kind must be one of ${SOCIAL_EVENT_KINDS.join(', ')}`];
  const contract = SocialEventContracts[event.kind as SocialEventKind];
  return contract.validatePayload(event) ? [] : describeErrors(contract.validatePayload.errors);
}
