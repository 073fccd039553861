/**
 * The X Activity API (XAA) form of the same activity: every Account Activity delivery the
 * simulator builds (deliveries.ts, activity-deliveries.ts, the platform's own) is turned into the
 * XAA events a subscription on its account receives, so one activity reaches either API, in the
 * shapes the platform documents for each event type (platform/README.md; the repository's
 * examples are in libs/testing/fixtures/xaa):
 *
 * - a delivery is `{data: {event_uuid, filter, event_type, tag, payload, includes}}`;
 * - posts are v2 objects (`author_id`, `conversation_id`, `in_reply_to_user_id`,
 *   `referenced_tweets`, `entities.mentions`, `edit_history_tweet_ids`), `includes` holding the
 *   users (bare) and the posts referred to; each post gets its most specific type for the
 *   account (its own post, a repost, quote or reply of one of its posts, else a mention);
 * - `post.delete`: `{id, author_id}` only;
 * - `like.create`: `{id, liked_tweet_id, liked_tweet_author_id, created_at (of the liked post),
 *   timestamp_ms}`, no liker; direction `inbound` (a like of the account's post) or `outbound`;
 * - `follow.*`, `block.*`, `mute.*`: `{source, target}`, each user wrapped as `{data: user}`, no
 *   time; blocks and mutes only for the account that makes them;
 * - `dm.*`: the Account Activity form (`direct_message_events[]` with `message_create`, a
 *   `users` map of `{data: user}`); encrypted DMs are `chat.received`/`chat.sent`, ciphertext;
 * - `oauth.revoke`: `{date_time, user_id, app_id}`, an empty filter.
 */
import { createHash } from 'node:crypto';
import { XAA_EVENT_TYPES, type XaaEventType } from '@crm/contracts';

export type Direction = 'inbound' | 'outbound';

/** Event types whose subscription may name a direction. */
export const DIRECTIONAL_EVENT_TYPES: readonly XaaEventType[] = ['like.create'];
/**
 * The scope a private event's subscription needs in the monitored user's OAuth 2.0 token (the
 * API reference: `dm.read` for chat and DMs, `like.read`, `mute.read`, `block.read`, `tweet.read`
 * for the posts of others about the user). Event types not named are public: the app's bearer
 * token subscribes them.
 */
export const PRIVATE_EVENT_SCOPES: Partial<Record<XaaEventType, string>> = {
  'dm.received': 'dm.read',
  'dm.sent': 'dm.read',
  'dm.read': 'dm.read',
  'dm.indicate_typing': 'dm.read',
  'chat.received': 'dm.read',
  'chat.sent': 'dm.read',
  'like.create': 'like.read',
  'mute.mute': 'mute.read',
  'mute.unmute': 'mute.read',
  'block.block': 'block.read',
  'block.unblock': 'block.read',
  'post.mention.create': 'tweet.read',
  'post.reply.create': 'tweet.read',
  'post.quote.create': 'tweet.read',
  'post.repost.create': 'tweet.read',
};

/** Event types whose `filter.user_id` is the user acting (never the one acted on). */
export const ACTOR_ONLY_EVENT_TYPES: readonly XaaEventType[] = ['block.block', 'block.unblock', 'mute.mute', 'mute.unmute'];

/** One event of an account's activity, before it is matched to subscriptions. */
export interface XaaEvent {
  eventType: XaaEventType;
  /** The account whose activity it is (a subscription's `filter.user_id`). */
  userId: string;
  /** For likes: of the account's post (`inbound`) or by the account (`outbound`). */
  direction?: Direction;
  /** Stable per event and account: the same activity delivered again has the same uuid. */
  uuid: string;
  payload: Record<string, unknown>;
  includes: Record<string, unknown[]>;
}

export interface XaaDelivery {
  data: {
    event_uuid: string;
    filter: { user_id?: string; keyword?: string; direction?: Direction };
    event_type: XaaEventType | 'replay_job_status';
    tag: string | null;
    payload: Record<string, unknown>;
    includes?: Record<string, unknown[]>;
  };
}

type Json = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' ? String(value) : undefined);
const iso = (ms: number) => new Date(ms).toISOString();

/** A uuid (v4 layout) derived from what identifies the event, so a resend keeps it. */
export function eventUuid(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('|')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function v1Millis(post: Json): number {
  const ms = Number(post.timestamp_ms);
  return Number.isFinite(ms) ? ms : Date.parse(String(post.created_at));
}

/** A v1.1 user (as posts, likes and DM `users` maps carry them) as a v2 user. */
export function v2User(user: Json): Json {
  const id = str(user.id_str) ?? str(user.id)!;
  const created = Number(user.created_timestamp);
  return {
    id,
    name: user.name,
    username: user.screen_name,
    protected: Boolean(user.protected),
    verified: Boolean(user.verified),
    ...(user.profile_image_url_https ? { profile_image_url: user.profile_image_url_https } : {}),
    ...(user.followers_count !== undefined ? { public_metrics: { followers_count: user.followers_count, following_count: user.friends_count, tweet_count: user.statuses_count, listed_count: user.listed_count ?? 0 } } : {}),
    ...(Number.isFinite(created) ? { created_at: iso(created) } : user.created_at ? { created_at: iso(Date.parse(String(user.created_at))) } : {}),
  };
}

/** The v2 media objects (`includes.media`) of v1.1 media entities. */
function v2Media(items: Json[]): Json[] {
  return items.map((m) => ({ media_key: `3_${str(m.id_str) ?? str(m.id)}`, type: m.type ?? 'photo', url: m.media_url_https }));
}

function mediaOf(post: Json): Json[] {
  const entities = (post.extended_entities ?? post.entities ?? {}) as Json;
  return v2Media((entities.media ?? []) as Json[]);
}

/** A v1.1 post as a v2 post object. */
export function v2Post(post: Json): Json {
  const id = str(post.id_str) ?? str(post.id)!;
  const author = post.user as Json;
  const repostOf = post.retweeted_status as Json | undefined;
  const quoted = str(post.quoted_status_id_str) ?? str((post.quoted_status as Json | undefined)?.id_str);
  const repliedTo = str(post.in_reply_to_status_id_str);
  const referenced = [
    ...(repliedTo ? [{ type: 'replied_to', id: repliedTo }] : []),
    ...(quoted ? [{ type: 'quoted', id: quoted }] : []),
    ...(repostOf ? [{ type: 'retweeted', id: str(repostOf.id_str)! }] : []),
  ];
  const entities = (post.entities ?? {}) as Json;
  const mentions = ((entities.user_mentions ?? []) as Json[]).map((m) => {
    const [start, end] = (m.indices as number[] | undefined) ?? [0, 0];
    return { start, end, username: m.screen_name, id: str(m.id_str) ?? str(m.id) };
  });
  const media = mediaOf(post).map((m) => m.media_key);
  const replyUser = str(post.in_reply_to_user_id_str);
  return {
    id,
    text: (post.extended_tweet as Json | undefined)?.full_text ?? post.full_text ?? post.text,
    author_id: str(author.id_str) ?? str(author.id),
    created_at: iso(v1Millis(post)),
    conversation_id: repliedTo ?? id,
    edit_history_tweet_ids: [id],
    lang: post.lang ?? 'en',
    ...(replyUser ? { in_reply_to_user_id: replyUser } : {}),
    ...(referenced.length ? { referenced_tweets: referenced } : {}),
    ...(mentions.length ? { entities: { mentions } } : {}),
    ...(media.length ? { attachments: { media_keys: media } } : {}),
  };
}

/** The users and posts a post refers to, as v2 `includes`. */
function postIncludes(post: Json): Record<string, unknown[]> {
  const users = new Map<string, Json>();
  const tweets: Json[] = [];
  const addUser = (user: Json | undefined) => user && users.set(str(user.id_str) ?? str(user.id)!, v2User(user));
  addUser(post.user as Json);
  for (const key of ['quoted_status', 'retweeted_status']) {
    const target = post[key] as Json | undefined;
    if (!target) continue;
    tweets.push(v2Post(target));
    addUser(target.user as Json);
  }
  const media = [post, ...['quoted_status', 'retweeted_status'].map((key) => post[key] as Json | undefined)].flatMap((p) => (p ? mediaOf(p) : []));
  return { users: [...users.values()], ...(tweets.length ? { tweets } : {}), ...(media.length ? { media } : {}) };
}

/** The most specific post type for the account: its own, else a repost, quote or reply of its posts, else a mention. */
function postType(post: Json, account: string): XaaEventType {
  const authorOf = (target: unknown) => str(((target as Json | undefined)?.user as Json | undefined)?.id_str);
  if (str((post.user as Json).id_str) === account) return 'post.create';
  if (authorOf(post.retweeted_status) === account) return 'post.repost.create';
  if (authorOf(post.quoted_status) === account) return 'post.quote.create';
  if (str(post.in_reply_to_user_id_str) === account) return 'post.reply.create';
  return 'post.mention.create';
}

function postEvents(delivery: Json, account: string): XaaEvent[] {
  return ((delivery.tweet_create_events ?? []) as Json[]).map((post) => {
    const eventType = postType(post, account);
    const payload = v2Post(post);
    return { eventType, userId: account, uuid: eventUuid(eventType, account, String(payload.id)), payload, includes: postIncludes(post) };
  });
}

function deleteEvents(delivery: Json, account: string): XaaEvent[] {
  return ((delivery.tweet_delete_events ?? []) as Json[]).map((event) => {
    const status = event.status as Json;
    const payload = { id: str(status.id), author_id: str(status.user_id) };
    return { eventType: 'post.delete' as const, userId: account, uuid: eventUuid('post.delete', account, String(payload.id)), payload, includes: {} };
  });
}

function likeEvents(delivery: Json, account: string): XaaEvent[] {
  return ((delivery.favorite_events ?? []) as Json[]).map((event) => {
    const liker = event.user as Json;
    const liked = event.favorited_status as Json;
    const likerId = str(liker.id_str) ?? str(liker.id)!;
    const authorId = str((liked.user as Json).id_str) ?? str((liked.user as Json).id)!;
    const payload = { id: str(event.id), created_at: iso(v1Millis(liked)), timestamp_ms: String(event.timestamp_ms), liked_tweet_author_id: authorId, liked_tweet_id: str(liked.id_str) };
    const direction: Direction = likerId === account ? 'outbound' : 'inbound';
    // The documented like (an outbound one) includes the liked post's author; an inbound one also includes its liker (README).
    const users = [v2User(liked.user as Json), ...(direction === 'inbound' && likerId !== authorId ? [v2User(liker)] : [])];
    return { eventType: 'like.create' as const, userId: account, direction, uuid: eventUuid('like.create', account, String(payload.id)), payload, includes: { users, tweets: [v2Post(liked)] } };
  });
}

const RELATIONS: Record<string, 'follow' | 'block' | 'mute'> = { follow_events: 'follow', block_events: 'block', mute_events: 'mute' };

/** A user as follow, block and mute payloads and DM `users` maps carry it: wrapped in `data`. */
const wrapped = (user: Json) => ({ data: v2User(user) });

function relationEvents(delivery: Json, account: string): XaaEvent[] {
  return Object.entries(RELATIONS).flatMap(([key, family]) =>
    ((delivery[key] ?? []) as Json[]).flatMap((event) => {
      const source = event.source as Json;
      const target = event.target as Json;
      const sourceId = str(source.id_str) ?? str(source.id)!;
      const eventType = `${family}.${String(event.type)}` as XaaEventType;
      if (!XAA_EVENT_TYPES.includes(eventType)) return [];
      // Blocks and mutes reach the account that makes them only.
      if (ACTOR_ONLY_EVENT_TYPES.includes(eventType) && sourceId !== account) return [];
      const targetId = str(target.id_str) ?? str(target.id)!;
      const payload = { source: wrapped(source), target: wrapped(target) };
      return [{ eventType, userId: account, uuid: eventUuid(eventType, account, sourceId, targetId, String(event.created_timestamp)), payload, includes: {} }];
    }),
  );
}

/** A DM delivery's `users` map, each user wrapped in `data`. */
function dmUsers(delivery: Json): Json {
  return Object.fromEntries(Object.entries((delivery.users ?? {}) as Record<string, Json>).map(([id, user]) => [id, wrapped({ id, ...user })]));
}

/** Legacy DMs keep the Account Activity shape: one event of `direct_message_events`, and the `users` map. */
function dmEvents(delivery: Json, account: string): XaaEvent[] {
  return ((delivery.direct_message_events ?? []) as Json[]).map((event) => {
    const create = event.message_create as Json;
    const eventType: XaaEventType = str(create.sender_id) === account ? 'dm.sent' : 'dm.received';
    const payload: Json = { direct_message_events: [event], users: dmUsers(delivery) };
    return { eventType, userId: account, uuid: eventUuid(eventType, account, String(str(event.id))), payload, includes: {} };
  });
}

/** Read receipts and typing: in the DM events' shape too (the platform publishes no example; README). */
function indicatorEvents(delivery: Json, account: string): XaaEvent[] {
  const kinds: [string, XaaEventType][] = [
    ['direct_message_indicate_typing_events', 'dm.indicate_typing'],
    ['direct_message_mark_read_events', 'dm.read'],
  ];
  return kinds.flatMap(([key, eventType]) =>
    ((delivery[key] ?? []) as Json[]).map((event) => {
      const sender = str(event.sender_id)!;
      const payload: Json = { [key]: [event], users: dmUsers(delivery) };
      return { eventType, userId: account, uuid: eventUuid(eventType, account, sender, String(event.created_timestamp)), payload, includes: {} };
    }),
  );
}

function revokeEvents(delivery: Json): XaaEvent[] {
  const revoke = (delivery.user_event as Json | undefined)?.revoke as Json | undefined;
  if (!revoke) return [];
  const userId = str((revoke.source as Json).user_id)!;
  const revokedAt = new Date(String(revoke.date_time)).toISOString().replace(/\.\d{3}Z$/, '+00:00');
  const payload = { date_time: revokedAt, user_id: userId, app_id: str((revoke.target as Json).app_id) };
  return [{ eventType: 'oauth.revoke', userId, uuid: eventUuid('oauth.revoke', userId, revokedAt), payload, includes: {} }];
}

/** The XAA events of one Account Activity delivery (for its `for_user_id`, or the revoking user). */
export function xaaEventsOf(delivery: Json): XaaEvent[] {
  const revokes = revokeEvents(delivery);
  if (revokes.length) return revokes;
  const account = str(delivery.for_user_id);
  if (!account) return [];
  return [...postEvents(delivery, account), ...deleteEvents(delivery, account), ...likeEvents(delivery, account), ...relationEvents(delivery, account), ...dmEvents(delivery, account), ...indicatorEvents(delivery, account)];
}

/**
 * An encrypted DM (XChat), `chat.received` or `chat.sent`: who, when and in which conversation;
 * the message is ciphertext (`encoded_event`) only the participants' XChat clients can read.
 */
export function encryptedDmEvent(input: { account: string; sender: Json; recipient: Json; eventId: string; createdAt?: number }): XaaEvent {
  const senderId = str(input.sender.id_str) ?? str(input.sender.id)!;
  const recipientId = str(input.recipient.id_str) ?? str(input.recipient.id)!;
  const eventType: XaaEventType = senderId === input.account ? 'chat.sent' : 'chat.received';
  const digest = (what: string) => createHash('sha256').update(`${what}|${input.eventId}`).digest('base64');
  const payload: Json = {
    id: input.eventId,
    created_at_msec: String(input.createdAt ?? Date.now()),
    sender_id: senderId,
    conversation_id: `${senderId}:${recipientId}`,
    conversation_key_version: '1',
    encoded_event: digest('event'),
    message_event_signature: { public_key_version: '1', signature: digest('signature'), signature_version: '7' },
  };
  return { eventType, userId: input.account, uuid: eventUuid(eventType, input.account, input.eventId), payload, includes: {} };
}

/** The delivery body of an event for a subscription. */
export function xaaDelivery(event: XaaEvent, subscription: { tag?: string | null; filter: XaaDelivery['data']['filter'] }): XaaDelivery {
  return { data: { event_uuid: event.uuid, filter: subscription.filter, event_type: event.eventType, tag: subscription.tag ?? null, payload: event.payload, includes: event.includes } };
}
