import { Type, type Static } from '@sinclair/typebox';
import { ajv } from './ajv';
import type { DeliveryKind } from './delivery';
import { describeErrors } from './envelope';
import { AnyObject, StringEnum } from './schema';

/**
 * The platform's X Activity API (XAA) delivers the activity the Account Activity API (AAA)
 * delivers, one event per delivery: `{data: {event_uuid, filter, event_type, tag, payload,
 * includes}}`. Consumers work on one shape: `accountActivityForm` gives the AAA delivery of the
 * same activity, so an activity makes the same tickets whichever API brought it
 * (docs/architecture.md, "The social platform").
 */
export const XAA_EVENT_TYPES = [
  'post.create',
  'post.mention.create',
  'post.reply.create',
  'post.quote.create',
  'post.repost.create',
  'post.delete',
  'like.create',
  'follow.create',
  'follow.delete',
  'block.create',
  'block.delete',
  'mute.create',
  'mute.delete',
  'dm.received',
  'dm.sent',
  'dm.read',
  'dm.indicate_typing',
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
  'follow.create': 'follow_events',
  'follow.delete': 'follow_events',
  'block.create': 'block_events',
  'block.delete': 'block_events',
  'mute.create': 'mute_events',
  'mute.delete': 'mute_events',
  'dm.received': 'direct_message_events',
  'dm.sent': 'direct_message_events',
  'dm.read': 'direct_message_mark_read_events',
  'dm.indicate_typing': 'direct_message_indicate_typing_events',
  'oauth.revoke': 'user_event',
};

const platformId = Type.String({ pattern: '^[0-9]{1,20}$' });

export const XaaDeliverySchema = Type.Object(
  {
    data: Type.Object({
      event_uuid: Type.String({ pattern: '^[A-Za-z0-9-]{1,64}$' }),
      event_type: StringEnum(XAA_EVENT_TYPES),
      filter: Type.Object({ user_id: Type.Optional(platformId), keyword: Type.Optional(Type.String()), direction: Type.Optional(StringEnum(['in', 'out'] as const)) }),
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

/** The v1.1 post of a v2 post, with the users and posts it refers to taken from `includes`. */
function v1Post(post: Json, includes: Json, depth = 0): Json {
  const users = new Map(list(includes.users).map((u) => [text(u.id), u]));
  const tweets = new Map(list(includes.tweets).map((t) => [text(t.id), t]));
  const refs = new Map(list(post.referenced_tweets).map((r) => [text(r.type), text(r.id)]));
  const author = users.get(text(post.author_id)) ?? { id: post.author_id };
  const target = (type: string) => {
    const found = tweets.get(refs.get(type));
    return found && depth === 0 ? v1Post(found, includes, 1) : undefined;
  };
  const quoted = target('quoted');
  const reposted = target('retweeted');
  const replyUser = text(post.in_reply_to_user_id);
  const media = v1Media(record(post.attachments).media_keys, includes);
  const mentions = list(record(post.entities).mentions).map((m) => ({ screen_name: m.username, id_str: text(m.id), indices: [m.start, m.end] }));
  return {
    id_str: text(post.id),
    text: post.text,
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

function dmEvent(payload: Json, includes: Json): Json {
  const participants = (Array.isArray(payload.participant_ids) ? payload.participant_ids : []).map(text);
  const sender = text(payload.sender_id);
  const recipient = participants.find((id) => id !== sender) ?? text(String(payload.dm_conversation_id ?? '').split('-').find((id) => id !== sender));
  const media = v1Media(record(payload.attachments).media_keys, includes)[0];
  const encrypted = payload.encrypted === true;
  return {
    type: 'message_create',
    id: text(payload.id),
    created_timestamp: millis(payload.created_at),
    message_create: {
      target: { recipient_id: recipient },
      sender_id: sender,
      message_data: {
        text: encrypted ? '' : payload.text,
        entities: { hashtags: [], symbols: [], user_mentions: [], urls: [] },
        ...(media ? { attachment: { type: 'media', media } } : {}),
        ...(encrypted ? { encrypted: true } : {}),
      },
    },
  };
}

const usersMap = (includes: Json) => Object.fromEntries(list(includes.users).map((u) => [text(u.id), v1User(u)]));

const RELATION_TYPES: Record<string, [string, string]> = { follow: ['follow', 'unfollow'], block: ['block', 'unblock'], mute: ['mute', 'unmute'] };

function relationForm(eventType: string, payload: Json, includes: Json): Json {
  const [family, change] = eventType.split('.') as [string, string];
  const users = new Map(list(includes.users).map((u) => [text(u.id), u]));
  const user = (id: unknown) => ({ ...v1User(users.get(text(id)) ?? { id }), id: text(id), id_str: undefined });
  const [create, remove] = RELATION_TYPES[family]!;
  return { [`${family}_events`]: [{ type: change === 'create' ? create : remove, created_timestamp: millis(payload.created_at), source: user(payload.source_user_id), target: user(payload.target_user_id) }] };
}

/** The kinds' bodies, by XAA event type family. */
function eventForm(eventType: XaaEventType, payload: Json, includes: Json): Json {
  if (eventType === 'post.delete') return { tweet_delete_events: [{ status: { id: text(payload.id), user_id: text(payload.author_id) }, timestamp_ms: millis(payload.deleted_at) }] };
  if (eventType.startsWith('post.')) return { tweet_create_events: [v1Post(payload, includes)] };
  if (eventType === 'like.create') {
    const liked = list(includes.tweets).find((t) => text(t.id) === text(payload.liked_tweet_id)) ?? { id: payload.liked_tweet_id };
    const liker = list(includes.users).find((u) => text(u.id) === text(payload.liking_user_id)) ?? { id: payload.liking_user_id };
    return { favorite_events: [{ id: text(payload.id), timestamp_ms: millis(payload.created_at), favorited_status: v1Post(liked, includes), user: v1User(liker) }] };
  }
  if (eventType === 'dm.received' || eventType === 'dm.sent') return { direct_message_events: [dmEvent(payload, includes)], users: usersMap(includes) };
  if (eventType === 'dm.read' || eventType === 'dm.indicate_typing') {
    const sender = text(payload.sender_id);
    const recipient = String(payload.dm_conversation_id ?? '')
      .split('-')
      .find((id) => id !== sender);
    const event = { created_timestamp: millis(payload.created_at), sender_id: sender, target: { recipient_id: recipient }, ...(payload.last_read_event_id ? { last_read_event_id: text(payload.last_read_event_id) } : {}) };
    return { [eventType === 'dm.read' ? 'direct_message_mark_read_events' : 'direct_message_indicate_typing_events']: [event], users: usersMap(includes) };
  }
  return relationForm(eventType, payload, includes);
}

/**
 * The Account Activity delivery of the same activity as an XAA delivery (checked by
 * checkXaaDelivery). An encrypted DM (XChat) keeps no text: its `message_data` says `encrypted`.
 */
export function accountActivityForm(delivery: XaaDelivery): Json {
  const { data } = delivery;
  const includes = record(data.includes);
  if (data.event_type === 'oauth.revoke') {
    return { user_event: { revoke: { date_time: String(data.payload.revoked_at), target: { app_id: text(data.payload.client_app_id) }, source: { user_id: text(data.payload.user_id) } } } };
  }
  return { for_user_id: data.filter.user_id, ...eventForm(data.event_type, data.payload, includes) };
}
