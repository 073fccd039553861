import { randomBytes } from 'node:crypto';
import { platformDate } from '../activity-deliveries';
import { DEFAULT_APP } from '../deliveries';
import { platformUser } from '../users';
import type { Collection, DirectMessage, List, PlatformState, Post, Settings, UserRecord } from './state';

/** The JSON the v1.1 REST routes (and tweet-shaped deliveries) answer with. */

const INTEGER_MARK = `int${randomBytes(6).toString('hex')}`;
const MARKED_INTEGER = new RegExp(`"${INTEGER_MARK}([0-9]+)${INTEGER_MARK}"`, 'g');

/**
 * A 64-bit platform id as the platform writes it, an exact JSON integer: a JS number would round
 * a 19-digit id, and a client that keys on `id` (tweepy does) would then ask for another object.
 * Written out by exactJson (every platform route answers through it).
 */
export function jsonInteger(digits: string): unknown {
  return { toJSON: () => `${INTEGER_MARK}${digits}${INTEGER_MARK}` };
}

/** JSON.stringify, with the ids made by jsonInteger written as exact integers. */
export function exactJson(body: unknown): string {
  return JSON.stringify(body).replace(MARKED_INTEGER, '$1');
}

/** A v1.1 user object. Like the platform, `id` is an exact JSON integer and `id_str` the same as a string. */
export function userObject(user: UserRecord): Record<string, unknown> {
  const base = platformUser(user);
  return {
    id: jsonInteger(user.id),
    id_str: user.id,
    name: base.name,
    screen_name: base.screen_name,
    location: user.location ?? '',
    description: user.description ?? '',
    url: user.url ?? null,
    protected: user.protected,
    verified: base.verified,
    followers_count: base.followers_count,
    friends_count: base.friends_count,
    statuses_count: base.statuses_count,
    created_at: platformDate(Number(base.created_timestamp)),
    profile_image_url_https: base.profile_image_url_https,
  };
}

const noEntities = () => ({ hashtags: [], symbols: [], user_mentions: [], urls: [] });

/**
 * How a v1.1 route writes a post's text: `compat` (the default) in `text`; `extended` (the
 * request's `tweet_mode=extended`) in `full_text`, with `display_text_range` (the code points to
 * show: all of them, the simulator's posts carry no media or quoted-post link), and no `text`.
 */
export type TweetMode = 'compat' | 'extended';

/** The text of a post in `mode`. */
function textFields(text: string, mode: TweetMode): Record<string, unknown> {
  return mode === 'extended' ? { full_text: text, display_text_range: [0, [...text].length] } : { text };
}

/**
 * A v1.1 post ("tweet") object. Post ids are 19 digits, beyond a double's precision, so
 * `id` is inexact as on the real platform; `id_str` is exact.
 */
export function postObject(state: PlatformState, post: Post, viewerId?: string, mode: TweetMode = 'compat'): Record<string, unknown> {
  const author = state.user({ id: post.authorId });
  const replyTo = post.inReplyTo ? state.user({ id: post.inReplyTo.userId }) : undefined;
  const original = post.repostOf ? state.posts.get(post.repostOf) : undefined;
  return {
    created_at: platformDate(post.createdAt),
    id: jsonInteger(post.id),
    id_str: post.id,
    ...textFields(original ? `RT @${state.user({ id: original.authorId }).screenName}: ${original.text}` : post.text, mode),
    truncated: false,
    entities: { ...noEntities(), user_mentions: original ? [] : mentionsOf(state, post.text) },
    source: `<a href="${DEFAULT_APP.url}" rel="nofollow">${DEFAULT_APP.name}</a>`,
    in_reply_to_status_id: post.inReplyTo ? jsonInteger(post.inReplyTo.postId) : null,
    in_reply_to_status_id_str: post.inReplyTo?.postId ?? null,
    in_reply_to_user_id: replyTo ? jsonInteger(replyTo.id) : null,
    in_reply_to_user_id_str: replyTo?.id ?? null,
    in_reply_to_screen_name: replyTo?.screenName ?? null,
    user: userObject(author),
    ...(original ? { retweeted_status: postObject(state, original, viewerId, mode) } : {}),
    is_quote_status: false,
    retweet_count: [...state.posts.values()].filter((p) => p.repostOf === post.id).length,
    favorite_count: [...state.likes.values()].filter((liked) => liked.has(post.id)).length,
    favorited: viewerId ? state.setOf(state.likes, viewerId).has(post.id) : false,
    retweeted: viewerId ? [...state.posts.values()].some((p) => p.repostOf === post.id && p.authorId === viewerId) : false,
    lang: 'en',
  };
}

/** The @handles of a post's text that name users the platform knows, as `entities.user_mentions`. */
export function mentionsOf(state: PlatformState, text: string): Record<string, unknown>[] {
  const known = new Map([...state.users.values()].map((user) => [user.screenName.toLowerCase(), user]));
  return [...text.matchAll(/@([A-Za-z0-9_]{1,15})/g)].flatMap((match) => {
    const user = known.get(match[1]!.toLowerCase());
    return user ? [{ screen_name: user.screenName, name: user.name, id: jsonInteger(user.id), id_str: user.id, indices: [match.index, match.index + match[0].length] }] : [];
  });
}

export function listObject(state: PlatformState, list: List, viewerId: string): Record<string, unknown> {
  const owner = state.user({ id: list.ownerId });
  const slug = list.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return {
    id: jsonInteger(list.id),
    id_str: list.id,
    name: list.name,
    slug,
    full_name: `@${owner.screenName}/${slug}`,
    uri: `/${owner.screenName}/lists/${slug}`,
    description: list.description,
    mode: list.mode,
    member_count: list.members.size,
    subscriber_count: list.subscribers.size,
    following: list.subscribers.has(viewerId),
    created_at: platformDate(list.createdAt),
    user: userObject(owner),
  };
}

function timelineObject(state: PlatformState, collection: Collection): Record<string, unknown> {
  const owner = state.user({ id: collection.ownerId });
  return {
    name: collection.name,
    description: collection.description,
    user_id: collection.ownerId,
    collection_url: `https://x.example/${owner.screenName}/timelines/${collection.id.replace('custom-', '')}`,
    visibility: 'public',
    timeline_order: collection.timelineOrder,
    collection_type: 'user',
  };
}

/** `collections/create|update|show`: the timeline in `objects`, its id in `response`. */
export function collectionAnswer(state: PlatformState, collection: Collection): Record<string, unknown> {
  const owner = state.user({ id: collection.ownerId });
  return {
    objects: { users: { [owner.id]: userObject(owner) }, timelines: { [collection.id]: timelineObject(state, collection) } },
    response: { timeline_id: collection.id },
  };
}

export function collectionsListAnswer(state: PlatformState, collections: Collection[]): Record<string, unknown> {
  const timelines = Object.fromEntries(collections.map((c) => [c.id, timelineObject(state, c)]));
  return { objects: { timelines }, response: { results: collections.map((c) => ({ timeline_id: c.id })), cursors: {} } };
}

export function collectionEntriesAnswer(state: PlatformState, collection: Collection, viewerId: string, count: number): Record<string, unknown> {
  const posts = collection.entries.map((id) => state.posts.get(id)).filter((p): p is Post => p !== undefined);
  const shown = posts.slice(0, count);
  return {
    objects: {
      tweets: Object.fromEntries(shown.map((p) => [p.id, postObject(state, p, viewerId)])),
      timelines: { [collection.id]: timelineObject(state, collection) },
    },
    response: { timeline_id: collection.id, timeline: shown.map((p, i) => ({ tweet: { id: p.id, sort_index: String(shown.length - i) } })), position: { was_truncated: posts.length > count } },
  };
}

export function settingsObject(user: UserRecord, settings: Settings): Record<string, unknown> {
  return {
    screen_name: user.screenName,
    protected: user.protected,
    language: settings.lang,
    time_zone: { name: settings.timeZone, tzinfo_name: settings.timeZone, utc_offset: 0 },
    sleep_time: { enabled: settings.sleepTimeEnabled, start_time: settings.startSleepTime, end_time: settings.endSleepTime },
    allow_dms_from: 'all',
  };
}

/** Where a DM's media is fetched (with the account's credentials), as the platform's DM media route has it. */
export const dmMediaUrl = (dmId: string, mediaId: string): string => `https://api.x.com/2/dm_conversations/media/${dmId}/${mediaId}/image`;

/** The media key of a media id: `3_` is the platform's prefix for photos uploaded by users. */
export const mediaKeyOf = (mediaId: string): string => `3_${mediaId}`;

/** A DM as `direct_messages/events/*` answer it (the echo delivery carries the same event id). */

export function directMessageEvent(dm: DirectMessage): Record<string, unknown> {
  return {
    type: 'message_create',
    id: dm.id,
    created_timestamp: String(dm.createdAt),
    message_create: {
      target: { recipient_id: dm.recipientId },
      sender_id: dm.senderId,
      ...(dm.sourceAppId ? { source_app_id: dm.sourceAppId } : {}),
      message_data: {
        text: dm.text,
        entities: noEntities(),
        ...(dm.mediaId ? { attachment: { type: 'media', media: { id: jsonInteger(dm.mediaId), id_str: dm.mediaId, type: 'photo', media_url_https: dmMediaUrl(dm.id, dm.mediaId) } } } : {}),
      },
    },
  };
}
