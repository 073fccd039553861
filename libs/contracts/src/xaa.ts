import { Type, type Static } from '@sinclair/typebox';
import { ajv } from './ajv';
import type { DeliveryKind } from './delivery';
import { describeErrors } from './envelope';
import { AnyObject, StringEnum } from './schema';

/**
 * The platform's X Activity API (XAA) delivers the activity the Account Activity API (AAA)
 * delivers, one event per delivery: `{data: {event_uuid, filter, event_type, tag, payload,
 * includes}}`, in the shapes the platform documents for each event type (docs/architecture.md,
 * "The social platform"). Consumers work on one shape: `accountActivityForm` gives the AAA
 * delivery of the same activity, so an activity makes the same tickets whichever API brought it.
 */
export const XAA_EVENT_TYPES = [
  'post.create',
  'post.mention.create',
  'post.reply.create',
  'post.quote.create',
  'post.repost.create',
  'post.delete',
  'like.create',
  'follow.follow',
  'follow.unfollow',
  'block.block',
  'block.unblock',
  'mute.mute',
  'mute.unmute',
  'dm.received',
  'dm.sent',
  'dm.read',
  'dm.indicate_typing',
  'chat.received',
  'chat.sent',
  'oauth.revoke',
] as const;

export type XaaEventType = (typeof XAA_EVENT_TYPES)[number];

/** The AAA payload kind that carries each XAA event type (the routing key's first word on `social.activity`). */
export const XAA_DELIVERY_KINDS: Record<XaaEventType, DeliveryKind> = {
  'post.create': 'tweet_create_events',
  'post.mention.create': 'tweet_create_events',
  'post.reply.create': 'tweet_create_events',
  'post.quote.create': 'tweet_create_events',
  'post.repost.create': 'tweet_create_events',
  'post.delete': 'tweet_delete_events',
  'like.create': 'favorite_events',
  'follow.follow': 'follow_events',
  'follow.unfollow': 'follow_events',
  'block.block': 'block_events',
  'block.unblock': 'block_events',
  'mute.mute': 'mute_events',
  'mute.unmute': 'mute_events',
  'dm.received': 'direct_message_events',
  'dm.sent': 'direct_message_events',
  'dm.read': 'direct_message_mark_read_events',
  'dm.indicate_typing': 'direct_message_indicate_typing_events',
  'chat.received': 'direct_message_events',
  'chat.sent': 'direct_message_events',
  'oauth.revoke': 'user_event',
};

/** The like direction filter: likes the account's posts receive, or likes the account makes. */
export const XAA_LIKE_DIRECTIONS = ['inbound', 'outbound'] as const;

const platformId = Type.String({ pattern: '^[0-9]{1,20}$' });

export const XaaDeliverySchema = Type.Object(
  {
    data: Type.Object({
      event_uuid: Type.String({ pattern: '^[A-Za-z0-9-]{1,64}$' }),
      event_type: StringEnum(XAA_EVENT_TYPES),
      filter: Type.Object({ user_id: Type.Optional(platformId), keyword: Type.Optional(Type.String()), direction: Type.Optional(StringEnum(XAA_LIKE_DIRECTIONS)) }),
      tag: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      payload: AnyObject(),
      includes: Type.Optional(AnyObject()),
    }),
  },
  { description: 'An X Activity API delivery: one event of an account, for one subscription.' },
);
export type XaaDelivery = Static<typeof XaaDeliverySchema>;

const validateXaaDelivery = ajv.compile(XaaDeliverySchema);

export type XaaDeliveryCheck =
  | { ok: true; eventType: XaaEventType; kind: DeliveryKind; forUserId: string; eventUuid: string }
  | { ok: false; problems: string[] };

/** Says whether a parsed body is an XAA delivery we know, and whose activity it is. */
export function checkXaaDelivery(body: unknown): XaaDeliveryCheck {
  if (!validateXaaDelivery(body)) return { ok: false, problems: describeErrors(validateXaaDelivery.errors) };
  const { data } = body as XaaDelivery;
  const revoking = data.event_type === 'oauth.revoke' ? text(data.payload.user_id) : undefined;
  const forUserId = data.filter.user_id ?? revoking;
  if (!forUserId || !/^[0-9]{1,20}$/.test(forUserId)) return { ok: false, problems: ['/data/filter/user_id is required: XAA deliveries are taken for subscriptions on an account'] };
  return { ok: true, eventType: data.event_type, kind: XAA_DELIVERY_KINDS[data.event_type], forUserId, eventUuid: data.event_uuid };
}

type Json = Record<string, unknown>;

/** Deliveries that are the platform's notices to the app, not an account's activity (a replay job finished). */
export const XAA_NOTICE_TYPES = ['replay_job_status'] as const;

/** The notice a delivery is, or null when it is not one. */
export function xaaNoticeOf(body: unknown): { eventType: (typeof XAA_NOTICE_TYPES)[number]; payload: Json } | null {
  const data = record(record(body).data);
  const eventType = XAA_NOTICE_TYPES.find((type) => type === data.event_type);
  return eventType && typeof data.payload === 'object' && data.payload !== null ? { eventType, payload: record(data.payload) } : null;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined);
const record = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(record) : []);
const millis = (iso: unknown): string => String(Date.parse(String(iso)));

/** A v2 user as the platform nests it: bare in `includes.users` of posts, wrapped as `{data: user}` elsewhere (DM `users` maps, follow `source`/`target`). */
const unwrapped = (user: unknown): Json => {
  const value = record(user);
  return typeof value.data === 'object' && value.data !== null && value.id === undefined ? record(value.data) : value;
};

/** `includes` with its users unwrapped. */
const normalIncludes = (includes: Json): Json => ({ ...includes, users: list(includes.users).map(unwrapped) });

/** The AAA (v1.1) user of a v2 user. */
function v1User(user: Json): Json {
  const metrics = record(user.public_metrics);
  return {
    id: text(user.id),
    id_str: text(user.id),
    name: user.name,
    screen_name: user.username,
    protected: user.protected === true,
    verified: user.verified === true,
    ...(user.profile_image_url ? { profile_image_url_https: user.profile_image_url } : {}),
    ...(metrics.followers_count !== undefined ? { followers_count: metrics.followers_count, friends_count: metrics.following_count } : {}),
    ...(user.created_at ? { created_timestamp: millis(user.created_at) } : {}),
  };
}

/** The v1.1 media entities of v2 media keys, from `includes.media`. */
function v1Media(keys: unknown, includes: Json): Json[] {
  const media = new Map(list(includes.media).map((m) => [text(m.media_key), m]));
  return list(Array.isArray(keys) ? keys.map((key) => ({ key })) : []).flatMap(({ key }) => {
    const item = media.get(text(key));
    const id = text(key)?.replace(/^[0-9]+_/, '');
    return item && id ? [{ id_str: id, type: item.type ?? 'photo', media_url_https: item.url }] : [];
  });
}

/**
 * The v1.1 post of a v2 post, with the users and posts it refers to taken from `includes`.
 * `ownTarget` names the reference the event type says is the account's post (a quote or a
 * repost of it): the platform sends such deliveries with empty `includes`, and the AAA form
 * needs to know whose post it quotes or reposts.
 */
function v1Post(post: Json, includes: Json, depth = 0, ownTarget?: { type: 'quoted' | 'retweeted'; accountId: string | undefined }): Json {
  const users = new Map(list(includes.users).map((u) => [text(u.id), u]));
  const tweets = new Map(list(includes.tweets).map((t) => [text(t.id), t]));
  const refs = new Map(list(post.referenced_tweets).map((r) => [text(r.type), text(r.id)]));
  const author = users.get(text(post.author_id)) ?? { id: post.author_id };
  const target = (type: string) => {
    const found = tweets.get(refs.get(type));
    if (found && depth === 0) return v1Post(found, includes, 1);
    if (ownTarget?.type === type && refs.has(type)) return { id_str: refs.get(type), user: v1User(users.get(ownTarget.accountId) ?? { id: ownTarget.accountId }) };
    return undefined;
  };
  const quoted = target('quoted');
  const reposted = target('retweeted');
  const replyUser = text(post.in_reply_to_user_id);
  const media = v1Media(record(post.attachments).media_keys, includes);
  const mentions = list(record(post.entities).mentions).map((m) => ({ screen_name: m.username, id_str: text(m.id), indices: [m.start, m.end] }));
  // A long post's whole text is in `note_tweet`; `text` is its first part.
  const fullText = text(record(post.note_tweet).text) ?? post.text;
  return {
    id_str: text(post.id),
    text: fullText,
    created_at: new Date(Date.parse(String(post.created_at))).toUTCString(),
    timestamp_ms: millis(post.created_at),
    user: v1User(author),
    in_reply_to_status_id_str: refs.get('replied_to') ?? null,
    in_reply_to_user_id_str: replyUser ?? null,
    in_reply_to_screen_name: replyUser ? (text(users.get(replyUser)?.username) ?? null) : null,
    is_quote_status: refs.has('quoted'),
    ...(refs.has('quoted') ? { quoted_status_id_str: refs.get('quoted') } : {}),
    ...(quoted ? { quoted_status: quoted } : {}),
    ...(reposted ? { retweeted_status: reposted } : {}),
    entities: { hashtags: [], urls: [], symbols: [], user_mentions: mentions, ...(media.length ? { media } : {}) },
    ...(media.length ? { extended_entities: { media } } : {}),
    lang: post.lang,
  };
}

/** A DM `users` map (id to `{data: v2 user}`) as the AAA map of v1.1 users. */
const usersMap = (users: unknown): Json => Object.fromEntries(Object.entries(record(users)).map(([id, user]) => [id, v1User({ id, ...unwrapped(user) })]));

/**
 * An encrypted DM (XChat, `chat.*`): who, when and in which conversation; its text is
 * ciphertext for the app's XChat client, so the AAA form keeps none and says `encrypted`.
 */
function chatEvent(payload: Json): Json {
  const sender = text(payload.sender_id);
  const recipient = String(payload.conversation_id ?? '')
    .split(':')
    .find((id) => id !== sender);
  return {
    type: 'message_create',
    id: text(payload.id),
    created_timestamp: text(payload.created_at_msec),
    message_create: { target: { recipient_id: recipient }, sender_id: sender, message_data: { text: '', entities: { hashtags: [], symbols: [], user_mentions: [], urls: [] }, encrypted: true } },
  };
}

/**
 * A like: the liked post and its author, `timestamp_ms`, and no liker. A like the account makes
 * (the `outbound` direction, or a post by someone else) is the account's; a like of the
 * account's post names its liker only when `includes.users` holds a user besides the post's
 * author, else the AAA form has no `user`.
 */
function likeForm(accountId: string | undefined, direction: string | undefined, payload: Json, includes: Json, receivedAt: string | undefined): Json {
  const likedId = text(payload.liked_tweet_id);
  const authorId = text(payload.liked_tweet_author_id);
  const liked = list(includes.tweets).find((t) => text(t.id) === likedId) ?? { id: likedId, author_id: authorId };
  const byAccount = direction === 'outbound' || (direction !== 'inbound' && authorId !== accountId);
  const others = list(includes.users).filter((u) => text(u.id) !== authorId);
  const liker = byAccount ? (list(includes.users).find((u) => text(u.id) === accountId) ?? { id: accountId }) : others.length === 1 ? others[0] : undefined;
  const at = text(payload.timestamp_ms) ?? (receivedAt ? millis(receivedAt) : undefined);
  return { favorite_events: [{ id: text(payload.id), timestamp_ms: at, favorited_status: v1Post({ author_id: authorId, ...liked }, includes), ...(liker ? { user: v1User(liker) } : {}) }] };
}

/**
 * A follow, block or mute: `source` and `target` users wrapped in `data`, and no time: the AAA
 * form takes the time it was received, and the delivery's uuid names the event.
 */
function relationForm(eventType: XaaEventType, eventUuid: string, payload: Json, receivedAt: string | undefined): Json {
  const [family, change] = eventType.split('.') as [string, string];
  const user = (value: unknown) => ({ ...v1User(unwrapped(value)), id_str: undefined });
  return { [`${family}_events`]: [{ type: change, id: eventUuid, created_timestamp: receivedAt ? millis(receivedAt) : undefined, source: user(payload.source), target: user(payload.target) }] };
}

/** The kinds' bodies, by XAA event type family. */
function eventForm(data: XaaDelivery['data'], receivedAt: string | undefined): Json {
  const { event_type: eventType, payload } = data;
  const includes = normalIncludes(record(data.includes));
  if (eventType === 'post.delete') return { tweet_delete_events: [{ status: { id: text(payload.id), user_id: text(payload.author_id) }, timestamp_ms: receivedAt ? millis(receivedAt) : undefined }] };
  if (eventType.startsWith('post.')) {
    const ownTarget = eventType === 'post.quote.create' ? 'quoted' : eventType === 'post.repost.create' ? 'retweeted' : undefined;
    return { tweet_create_events: [v1Post(payload, includes, 0, ownTarget && { type: ownTarget, accountId: data.filter.user_id })] };
  }
  if (eventType === 'like.create') return likeForm(data.filter.user_id, data.filter.direction, payload, includes, receivedAt);
  if (eventType === 'chat.received' || eventType === 'chat.sent') return { direct_message_events: [chatEvent(payload)], users: {} };
  if (eventType.startsWith('dm.')) {
    // Legacy DMs come in the Account Activity shape already: the events, and a `users` map.
    const kind = XAA_DELIVERY_KINDS[eventType];
    return { [kind]: payload[kind], users: usersMap(payload.users) };
  }
  return relationForm(eventType, data.event_uuid, payload, receivedAt);
}

/**
 * The Account Activity delivery of the same activity as an XAA delivery (checked by
 * checkXaaDelivery). `receivedAt` (ISO) stands for the time of events whose payload has none
 * (post.delete, follows, blocks, mutes). An encrypted DM (`chat.*`) keeps no text: its
 * `message_data` says `encrypted`.
 */
export function accountActivityForm(delivery: XaaDelivery, receivedAt?: string): Json {
  const { data } = delivery;
  if (data.event_type === 'oauth.revoke') {
    return { user_event: { revoke: { date_time: text(data.payload.date_time), target: { app_id: text(data.payload.app_id) }, source: { user_id: text(data.payload.user_id) } } } };
  }
  return { for_user_id: data.filter.user_id, ...eventForm(data, receivedAt) };
}
