import { createHash } from 'node:crypto';
import { DEFAULT_APP, type PlatformApp } from './deliveries';
import { nextEventId } from './ids';
import { platformUser, resolveUser, type PlatformUser, type UserRef } from './users';

/**
 * Builders of every other kind of Account Activity delivery (posts, likes, follows, blocks,
 * mutes, typing, read receipts, deletes, revokes), shaped like libs/testing/fixtures/social: the
 * platform's quirks included (post ids as inexact JSON numbers beside exact `id_str`, users
 * inside follow/block/mute events with a string `id` and no `id_str`, `timestamp_ms` as a string).
 */

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** The platform's `created_at` form: `Mon Nov 16 18:09:36 +0000 2020`. */
export function platformDate(ms: number): string {
  const d = new Date(ms);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000 ${d.getUTCFullYear()}`;
}

const millisOf = (at: Date | number | undefined) => (at === undefined ? Date.now() : new Date(at).getTime());

/** A v1.1 user object as posts and likes carry it: `id` a JSON number, `id_str` the string to key on. */
export function postUser(ref: UserRef): Record<string, unknown> {
  const user = platformUser(ref);
  const { id, created_timestamp: created, ...rest } = user;
  return { id: Number(id), id_str: id, ...rest, created_at: platformDate(Number(created)) };
}

/** Users inside follow/block/mute events: a string `id` and no `id_str`. */
export function relationUser(ref: UserRef): Record<string, unknown> {
  const { created_timestamp: created, ...rest } = platformUser(ref);
  return { ...rest, created_at: platformDate(Number(created)) };
}

/** A post another event refers to (a reply's parent, a quoted, reposted or liked post). */
export interface PostTarget {
  id: string;
  author: UserRef;
  text?: string;
}

export interface MediaInput {
  type?: 'photo' | 'video' | 'animated_gif';
  url: string;
}

export interface PostInput {
  /** The subscribed account the delivery is for. */
  account: UserRef;
  /** Who posted: the account itself for its own posts. */
  author: UserRef;
  text: string;
  /** A reply: the post it answers. */
  inReplyTo?: PostTarget;
  /** A quote of this post. */
  quoteOf?: PostTarget;
  /** A repost of this post (the text becomes `RT @author: ...`). */
  repostOf?: PostTarget;
  /** Users the post mentions (entities.user_mentions). */
  mentions?: UserRef[];
  media?: MediaInput[];
  lang?: string;
  /** The delivery's top-level `user_has_blocked` (seen as a boolean and as a string). */
  userHasBlocked?: boolean | 'true' | 'false';
  eventId?: string;
  createdAt?: Date | number;
}

function mediaEntities(media: MediaInput[], postId: string): Record<string, unknown>[] {
  return media.map((item, index) => {
    const mediaId = (BigInt(postId) + BigInt(index + 1)).toString();
    return { id: Number(mediaId), id_str: mediaId, type: item.type ?? 'photo', media_url_https: item.url, url: `https://t.co/${mediaId.slice(-10)}`, indices: [0, 0] };
  });
}

/** A v1.1 post ("tweet") object. */
export function tweetObject(input: Omit<PostInput, 'account' | 'userHasBlocked'>): Record<string, unknown> {
  const atMs = millisOf(input.createdAt);
  const id = input.eventId ?? nextEventId(atMs);
  const replyTo = input.inReplyTo ? resolveUser(input.inReplyTo.author) : null;
  const original = input.repostOf ? resolveUser(input.repostOf.author) : null;
  const text = original ? `RT @${original.screenName}: ${input.repostOf!.text ?? input.text}` : input.text;
  const mentions = (input.mentions ?? []).map((ref) => {
    const user = resolveUser(ref);
    const start = text.indexOf(`@${user.screenName}`);
    return { screen_name: user.screenName, name: user.name, id: Number(user.id), id_str: user.id, indices: start < 0 ? [0, 0] : [start, start + user.screenName.length + 1] };
  });
  const media = mediaEntities(input.media ?? [], id);
  const target = (post: PostTarget) => tweetObject({ author: post.author, text: post.text ?? '', eventId: post.id, createdAt: atMs - 60_000 });
  return {
    created_at: platformDate(atMs),
    id: Number(id),
    id_str: id,
    text,
    truncated: false,
    source: `<a href="${DEFAULT_APP.url}" rel="nofollow">${DEFAULT_APP.name}</a>`,
    in_reply_to_status_id: input.inReplyTo ? Number(input.inReplyTo.id) : null,
    in_reply_to_status_id_str: input.inReplyTo?.id ?? null,
    in_reply_to_user_id: replyTo ? Number(replyTo.id) : null,
    in_reply_to_user_id_str: replyTo?.id ?? null,
    in_reply_to_screen_name: replyTo?.screenName ?? null,
    user: postUser(input.author),
    ...(input.quoteOf ? { quoted_status_id: Number(input.quoteOf.id), quoted_status_id_str: input.quoteOf.id, quoted_status: target(input.quoteOf) } : {}),
    ...(input.repostOf ? { retweeted_status: target(input.repostOf) } : {}),
    is_quote_status: input.quoteOf !== undefined,
    entities: { hashtags: [], urls: [], user_mentions: mentions, symbols: [], ...(media.length ? { media } : {}) },
    ...(media.length ? { extended_entities: { media } } : {}),
    favorited: false,
    retweeted: false,
    lang: input.lang ?? 'en',
    timestamp_ms: String(atMs),
  };
}

/** `tweet_create_events`: a post, reply, mention, quote or repost, by the account or of it. */
export function postCreated(input: PostInput): Record<string, unknown> {
  const account = resolveUser(input.account);
  return {
    for_user_id: account.id,
    ...(input.userHasBlocked !== undefined ? { user_has_blocked: input.userHasBlocked } : {}),
    tweet_create_events: [tweetObject(input)],
  };
}

/** `tweet_delete_events`: a post was deleted. */
export function postDeleted(input: { account: UserRef; postId: string; author: UserRef; createdAt?: Date | number }): Record<string, unknown> {
  return {
    for_user_id: resolveUser(input.account).id,
    tweet_delete_events: [{ status: { id: input.postId, user_id: resolveUser(input.author).id }, timestamp_ms: String(millisOf(input.createdAt)) }],
  };
}

/** `favorite_events`: `liker` liked `post` (the account liking, or a customer liking the account's post). */
export function postLiked(input: { account: UserRef; liker: UserRef; post: PostTarget; eventId?: string; createdAt?: Date | number }): Record<string, unknown> {
  const atMs = millisOf(input.createdAt);
  const liker = resolveUser(input.liker);
  // The platform's like ids are 32 hex digits; derived here from liker and post, so a resend is the same like.
  const id = input.eventId ?? createHash('sha256').update(`like:${liker.id}:${input.post.id}`).digest('hex').slice(0, 32);
  return {
    for_user_id: resolveUser(input.account).id,
    favorite_events: [
      {
        id,
        created_at: platformDate(atMs),
        timestamp_ms: atMs,
        favorited_status: tweetObject({ author: input.post.author, text: input.post.text ?? '', eventId: input.post.id, createdAt: atMs - 60_000 }),
        user: postUser(input.liker),
      },
    ],
  };
}

export type RelationKind = 'follow_events' | 'block_events' | 'mute_events';

/** follow/unfollow, block/unblock, mute/unmute by `source` of `target`. */
export function userRelation(
  kind: RelationKind,
  input: { account: UserRef; type: string; source: UserRef; target: UserRef; createdAt?: Date | number },
): Record<string, unknown> {
  return {
    for_user_id: resolveUser(input.account).id,
    [kind]: [{ type: input.type, created_timestamp: String(millisOf(input.createdAt)), source: relationUser(input.source), target: relationUser(input.target) }],
  };
}

function indicator(input: { account: UserRef; sender: UserRef; recipient: UserRef; createdAt?: Date | number }) {
  const sender = platformUser(input.sender);
  const recipient = platformUser(input.recipient);
  return {
    for_user_id: resolveUser(input.account).id,
    event: { created_timestamp: String(millisOf(input.createdAt)), sender_id: sender.id, target: { recipient_id: recipient.id } },
    users: { [sender.id]: sender, [recipient.id]: recipient } as Record<string, PlatformUser>,
  };
}

/** `direct_message_indicate_typing_events`: `sender` is typing a DM to `recipient`. */
export function typingIndicated(input: { account: UserRef; sender: UserRef; recipient: UserRef; createdAt?: Date | number }): Record<string, unknown> {
  const { for_user_id: forUserId, event, users } = indicator(input);
  return { for_user_id: forUserId, direct_message_indicate_typing_events: [event], users };
}

/** `direct_message_mark_read_events`: `sender` read the conversation with `recipient` up to a DM. */
export function markedRead(input: { account: UserRef; sender: UserRef; recipient: UserRef; lastReadEventId: string; createdAt?: Date | number }): Record<string, unknown> {
  const { for_user_id: forUserId, event, users } = indicator(input);
  return { for_user_id: forUserId, direct_message_mark_read_events: [{ ...event, last_read_event_id: input.lastReadEventId }], users };
}

/** `user_event` revoke: the account's owner removed the app. Delivered without `for_user_id`. */
export function appRevoked(input: { account: UserRef; app?: PlatformApp; createdAt?: Date | number }): Record<string, unknown> {
  const at = new Date(millisOf(input.createdAt)).toISOString().replace(/\.\d{3}Z$/, '+00:00');
  return { user_event: { revoke: { date_time: at, target: { app_id: (input.app ?? DEFAULT_APP).id }, source: { user_id: resolveUser(input.account).id } } } };
}
