/**
 * The X Activity API (XAA) form of the same activity: every Account Activity delivery the
 * simulator builds (deliveries.ts, activity-deliveries.ts, the platform's own) is turned into the
 * XAA events a subscription on its account receives, so one activity reaches either API.
 *
 * A delivery is `{data: {event_uuid, filter, event_type, tag, payload, includes}}`. Posts are v2
 * objects (`author_id`, `conversation_id`, `in_reply_to_user_id`, `referenced_tweets`,
 * `entities.mentions`, `edit_history_tweet_ids`); `dm.*` carry the v2 DM event; `includes` holds
 * the users and the posts referred to. Each post gets its most specific type for the account
 * (its own post, a repost, quote or reply of one of its posts, else a mention). A delivery made
 * without the whole thread has `conversation_id` set to the post it answers (or its own id).
 */
import { createHash } from 'node:crypto';

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
export type Direction = 'in' | 'out';

/** One event of an account's activity, before it is matched to subscriptions. */
export interface XaaEvent {
  eventType: XaaEventType;
  /** The account whose activity it is (a subscription's `filter.user_id`). */
  userId: string;
  /** For likes, follows, blocks and mutes: towards the account (`in`) or by it (`out`). */
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
    const payload = { id: str(status.id), author_id: str(status.user_id), deleted_at: iso(Number(event.timestamp_ms)) };
    return { eventType: 'post.delete' as const, userId: account, uuid: eventUuid('post.delete', account, String(payload.id)), payload, includes: {} };
  });
}

function likeEvents(delivery: Json, account: string): XaaEvent[] {
  return ((delivery.favorite_events ?? []) as Json[]).map((event) => {
    const liker = event.user as Json;
    const liked = event.favorited_status as Json;
    const likerId = str(liker.id_str) ?? str(liker.id)!;
    const payload = { id: str(event.id), liking_user_id: likerId, liked_tweet_id: str(liked.id_str), created_at: iso(Number(event.timestamp_ms)) };
    const users = new Map([[likerId, v2User(liker)], [str((liked.user as Json).id_str)!, v2User(liked.user as Json)]]);
    const direction: Direction = likerId === account ? 'out' : 'in';
    return { eventType: 'like.create' as const, userId: account, direction, uuid: eventUuid('like.create', account, String(payload.id)), payload, includes: { users: [...users.values()], tweets: [v2Post(liked)] } };
  });
}

const RELATIONS: Record<string, { create: string; kind: 'follow' | 'block' | 'mute' }> = {
  follow_events: { create: 'follow', kind: 'follow' },
  block_events: { create: 'block', kind: 'block' },
  mute_events: { create: 'mute', kind: 'mute' },
};

function relationEvents(delivery: Json, account: string): XaaEvent[] {
  return Object.entries(RELATIONS).flatMap(([key, { create, kind }]) =>
    ((delivery[key] ?? []) as Json[]).map((event) => {
      const source = event.source as Json;
      const target = event.target as Json;
      const eventType = `${kind}.${event.type === create ? 'create' : 'delete'}` as XaaEventType;
      const at = Number(event.created_timestamp);
      const payload = { source_user_id: str(source.id), target_user_id: str(target.id), created_at: iso(at) };
      const direction: Direction = payload.source_user_id === account ? 'out' : 'in';
      return { eventType, userId: account, direction, uuid: eventUuid(eventType, account, String(payload.source_user_id), String(payload.target_user_id), String(at)), payload, includes: { users: [v2User(source), v2User(target)] } };
    }),
  );
}

const conversationId = (a: string, b: string) => (BigInt(a) < BigInt(b) ? `${a}-${b}` : `${b}-${a}`);

function dmUsers(delivery: Json): Json[] {
  return Object.values((delivery.users ?? {}) as Record<string, Json>).map(v2User);
}

function dmEvents(delivery: Json, account: string): XaaEvent[] {
  return ((delivery.direct_message_events ?? []) as Json[]).map((event) => {
    const create = event.message_create as Json;
    const sender = str(create.sender_id)!;
    const recipient = str((create.target as Json).recipient_id)!;
    const data = create.message_data as Json;
    const media = (data.attachment as Json | undefined)?.media as Json | undefined;
    const eventType: XaaEventType = sender === account ? 'dm.sent' : 'dm.received';
    const payload: Json = {
      id: str(event.id),
      event_type: 'MessageCreate',
      text: data.text,
      sender_id: sender,
      participant_ids: [sender, recipient],
      dm_conversation_id: conversationId(sender, recipient),
      created_at: iso(Number(event.created_timestamp)),
      ...(media ? { attachments: { media_keys: [`3_${str(media.id_str)}`] } } : {}),
    };
    const includes = { users: dmUsers(delivery), ...(media ? { media: v2Media([media]) } : {}) };
    return { eventType, userId: account, uuid: eventUuid(eventType, account, String(payload.id)), payload, includes };
  });
}

function indicatorEvents(delivery: Json, account: string): XaaEvent[] {
  const kinds: [string, XaaEventType][] = [
    ['direct_message_indicate_typing_events', 'dm.indicate_typing'],
    ['direct_message_mark_read_events', 'dm.read'],
  ];
  return kinds.flatMap(([key, eventType]) =>
    ((delivery[key] ?? []) as Json[]).map((event) => {
      const sender = str(event.sender_id)!;
      const recipient = str((event.target as Json).recipient_id)!;
      const at = Number(event.created_timestamp);
      const payload: Json = { sender_id: sender, dm_conversation_id: conversationId(sender, recipient), created_at: iso(at), ...(event.last_read_event_id ? { last_read_event_id: str(event.last_read_event_id) } : {}) };
      return { eventType, userId: account, uuid: eventUuid(eventType, account, sender, String(at)), payload, includes: { users: dmUsers(delivery) } };
    }),
  );
}

function revokeEvents(delivery: Json): XaaEvent[] {
  const revoke = (delivery.user_event as Json | undefined)?.revoke as Json | undefined;
  if (!revoke) return [];
  const userId = str((revoke.source as Json).user_id)!;
  const payload = { user_id: userId, client_app_id: str((revoke.target as Json).app_id), revoked_at: new Date(String(revoke.date_time)).toISOString() };
  return [{ eventType: 'oauth.revoke', userId, uuid: eventUuid('oauth.revoke', userId, payload.revoked_at), payload, includes: {} }];
}

/** The XAA events of one Account Activity delivery (for its `for_user_id`, or the revoking user). */
export function xaaEventsOf(delivery: Json): XaaEvent[] {
  const revokes = revokeEvents(delivery);
  if (revokes.length) return revokes;
  const account = str(delivery.for_user_id);
  if (!account) return [];
  return [...postEvents(delivery, account), ...deleteEvents(delivery, account), ...likeEvents(delivery, account), ...relationEvents(delivery, account), ...dmEvents(delivery, account), ...indicatorEvents(delivery, account)];
}

/** An encrypted DM (XChat): the server sees who and when, never the text. */
export function encryptedDmEvent(input: { account: string; sender: Json; recipient: Json; eventId: string; createdAt?: number }): XaaEvent {
  const senderId = str(input.sender.id_str) ?? str(input.sender.id)!;
  const recipientId = str(input.recipient.id_str) ?? str(input.recipient.id)!;
  const eventType: XaaEventType = senderId === input.account ? 'dm.sent' : 'dm.received';
  const payload: Json = {
    id: input.eventId,
    event_type: 'MessageCreate',
    sender_id: senderId,
    participant_ids: [senderId, recipientId],
    dm_conversation_id: conversationId(senderId, recipientId),
    created_at: iso(input.createdAt ?? Date.now()),
    encrypted: true,
    encrypted_content: createHash('sha256').update(input.eventId).digest('base64'),
  };
  return { eventType, userId: input.account, uuid: eventUuid(eventType, input.account, input.eventId), payload, includes: { users: [v2User(input.sender), v2User(input.recipient)] } };
}

/** The delivery body of an event for a subscription. */
export function xaaDelivery(event: XaaEvent, subscription: { tag?: string | null; filter: XaaDelivery['data']['filter'] }): XaaDelivery {
  return { data: { event_uuid: event.uuid, filter: subscription.filter, event_type: event.eventType, tag: subscription.tag ?? null, payload: event.payload, includes: event.includes } };
}
