import { AnyObject, defineContract, describeErrors, Nullable, type Contract } from '@crm/contracts';
import { Type, type Static, type TProperties, type TSchema } from '@sinclair/typebox';

/**
 * What ticketing understands of a social account's activity: one typed domain event per
 * thing that happened, whatever delivery shape it came in. Ids are always strings; times
 * are ISO 8601. Each kind is a contract (`social.event.<kind>.v1`), so the same events can
 * be validated in process and, later, published.
 */

/** Every kind of account activity, named from the account's point of view. */
export const SOCIAL_EVENT_KINDS = [
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

const platformId = Type.String({ pattern: '^[0-9]{1,30}$' });
const nullableId = Nullable(platformId);
const nullableString = Nullable(Type.String());

/** A platform user as a user object describes it: the source of a contact. */
const socialUserSchema = Type.Object(
  {
    id: platformId,
    screenName: nullableString,
    name: nullableString,
    avatarUrl: Nullable(Type.String({ format: 'uri' })),
    followersCount: Nullable(Type.Integer({ minimum: 0 })),
    verified: Nullable(Type.Boolean()),
    /** The user object as received; null when the delivery named the user by id only. */
    raw: Nullable(AnyObject()),
  },
  { additionalProperties: false },
);
export type SocialUser = Static<typeof socialUserSchema>;

/** A photo, video or GIF attached to a post or DM. */
const mediaAttachmentSchema = Type.Object(
  { type: Type.String({ minLength: 1 }), url: Nullable(Type.String({ format: 'uri' })), mediaId: nullableString },
  { additionalProperties: false },
);
export type MediaAttachment = Static<typeof mediaAttachmentSchema>;
const mediaSchema = Type.Array(mediaAttachmentSchema);

/** Another post an event refers to (the liked, reposted or quoted one). */
const postRefSchema = Type.Object({ id: platformId, text: nullableString, author: Type.Union([Type.Null(), socialUserSchema]) }, { additionalProperties: false });
export type PostRef = Static<typeof postRefSchema>;

const postSchema = Type.Object(
  {
    id: platformId,
    text: Type.String(),
    lang: nullableString,
    author: socialUserSchema,
    inReplyToPostId: nullableId,
    inReplyToUserId: nullableId,
    inReplyToScreenName: nullableString,
    quotedPost: Type.Union([Type.Null(), postRefSchema]),
    /** Ids of the users the post mentions. */
    mentionedUserIds: Type.Array(platformId),
    media: mediaSchema,
  },
  { additionalProperties: false },
);
export type Post = Static<typeof postSchema>;

/** The schema of one kind: the common fields plus the kind's own. */
function eventSchema<K extends SocialEventKind, P extends TProperties>(kind: K, properties: P) {
  return Type.Object(
    {
      kind: Type.Literal(kind),
      /** The connected account the activity belongs to. */
      accountId: platformId,
      /** The platform's id of the event, or one derived from its content where the platform gives none. */
      platformEventId: Type.String({ minLength: 1, maxLength: 200 }),
      occurredAt: Type.String({ format: 'date-time' }),
      /** The platform event as received, kept with what it becomes. */
      raw: AnyObject(),
      ...properties,
    },
    { additionalProperties: false },
  );
}

const postProperties = { post: postSchema };
const repostProperties = { ...postProperties, original: postRefSchema };
const likeProperties = { liker: socialUserSchema, likedPost: postRefSchema };
const followProperties = { source: socialUserSchema, target: socialUserSchema };
/** The account blocked, unblocked, muted or unmuted `target`. */
const contactActionProperties = { target: socialUserSchema };
const directMessageProperties = {
  senderId: platformId,
  recipientId: platformId,
  /** The other party of the conversation (not the account). */
  counterpart: socialUserSchema,
  text: Type.String(),
  attachments: mediaSchema,
  sourceAppId: nullableId,
  /** An end-to-end encrypted DM (XChat): the server never has its text, and `text` says so. */
  encrypted: Type.Optional(Type.Boolean()),
};
const indicatorProperties = {
  senderId: platformId,
  recipientId: platformId,
  counterpartId: platformId,
  /** True when the account itself is typing / has read. */
  byAccount: Type.Boolean(),
};

const EVENT_SCHEMAS = {
  post_by_account: eventSchema('post_by_account', postProperties),
  reply_by_account: eventSchema('reply_by_account', postProperties),
  quote_by_account: eventSchema('quote_by_account', postProperties),
  repost_by_account: eventSchema('repost_by_account', repostProperties),
  /** `authorBlockedByAccount`: the delivery's `user_has_blocked` (the account has blocked the author; null when not said). */
  mention: eventSchema('mention', { ...postProperties, authorBlockedByAccount: Nullable(Type.Boolean()) }),
  reply_to_account: eventSchema('reply_to_account', postProperties),
  quote_of_account: eventSchema('quote_of_account', postProperties),
  repost_of_account: eventSchema('repost_of_account', repostProperties),
  post_deleted: eventSchema('post_deleted', { postId: platformId, authorId: nullableId }),
  like_by_account: eventSchema('like_by_account', likeProperties),
  /** `liker` null: the platform did not say who liked the post (the X Activity API names no liker). */
  like_of_account: eventSchema('like_of_account', { ...likeProperties, liker: Nullable(socialUserSchema) }),
  follow_by_account: eventSchema('follow_by_account', followProperties),
  follow_of_account: eventSchema('follow_of_account', followProperties),
  unfollow_by_account: eventSchema('unfollow_by_account', followProperties),
  unfollow_of_account: eventSchema('unfollow_of_account', followProperties),
  block: eventSchema('block', contactActionProperties),
  unblock: eventSchema('unblock', contactActionProperties),
  mute: eventSchema('mute', contactActionProperties),
  unmute: eventSchema('unmute', contactActionProperties),
  dm_received: eventSchema('dm_received', directMessageProperties),
  dm_sent: eventSchema('dm_sent', directMessageProperties),
  dm_typing: eventSchema('dm_typing', indicatorProperties),
  dm_read: eventSchema('dm_read', { ...indicatorProperties, lastReadEventId: platformId }),
  subscription_revoked: eventSchema('subscription_revoked', { appId: nullableId }),
} satisfies Record<SocialEventKind, TSchema>;

export type EventOf<K extends SocialEventKind> = Static<(typeof EVENT_SCHEMAS)[K]>;

export type SocialEvent = EventOf<SocialEventKind>;
export type PostByAccount = EventOf<'post_by_account'>;
export type ReplyByAccount = EventOf<'reply_by_account'>;
export type QuoteByAccount = EventOf<'quote_by_account'>;
export type ReplyToAccount = EventOf<'reply_to_account'>;
export type QuoteOfAccount = EventOf<'quote_of_account'>;
export type Mention = EventOf<'mention'>;
export type RepostByAccount = EventOf<'repost_by_account'>;
export type RepostOfAccount = EventOf<'repost_of_account'>;
export type PostDeleted = EventOf<'post_deleted'>;
export type LikeByAccount = EventOf<'like_by_account'>;
export type LikeOfAccount = EventOf<'like_of_account'>;
export type FollowKind = 'follow_by_account' | 'follow_of_account' | 'unfollow_by_account' | 'unfollow_of_account';
export type FollowEvent<K extends FollowKind = FollowKind> = EventOf<K>;
export type ContactActionKind = 'block' | 'unblock' | 'mute' | 'unmute';
export type ContactActionEvent<K extends ContactActionKind = ContactActionKind> = EventOf<K>;
export type DmReceived = EventOf<'dm_received'>;
export type DmSent = EventOf<'dm_sent'>;
export type DmTyping = EventOf<'dm_typing'>;
export type DmRead = EventOf<'dm_read'>;
export type SubscriptionRevoked = EventOf<'subscription_revoked'>;

/** The message type of a kind: `social.event.dm-received.v1`. */
const socialEventType = (kind: SocialEventKind) => `social.event.${kind.replace(/_/g, '-')}.v1`;

const SocialEventContracts = Object.fromEntries(
  SOCIAL_EVENT_KINDS.map((kind) => [kind, defineContract(socialEventType(kind), EVENT_SCHEMAS[kind])]),
) as Record<SocialEventKind, Contract<SocialEvent>>;

/** The problems of an event against its kind's schema, each naming the field; empty when valid. */
export function checkSocialEvent(event: { kind?: unknown }): string[] {
  if (!(SOCIAL_EVENT_KINDS as readonly unknown[]).includes(event.kind)) return [`/kind must be one of ${SOCIAL_EVENT_KINDS.join(', ')}`];
  const contract = SocialEventContracts[event.kind as SocialEventKind];
  return contract.validatePayload(event) ? [] : describeErrors(contract.validatePayload.errors);
}
