import type { Response } from 'express';
import { platformUser } from '../users';
import { param } from './authn';
import { PlatformError } from './errors';
import { mediaKeyOf, mentionsOf } from './objects';
import type { DirectMessage, List, PlatformState, Post, UserRecord } from './state';

/**
 * The JSON the v2 read routes answer with, as the platform makes it: each object has its
 * default fields (a user `id, name, username`; a post `id, text, edit_history_tweet_ids`; a
 * list `id, name`; a DM event `id, event_type, text`) and the others a request names in
 * `user.fields`, `tweet.fields`, `list.fields` or `dm_event.fields`; what `expansions` names
 * comes in `includes` (`users`, `tweets`), each object once.
 */

type Json = Record<string, unknown>;

/** ISO 8601 to the second, as v2 writes times (`2026-11-25T09:57:53.000Z`). */
const isoSeconds = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString();

/** The names a comma-separated field or expansion parameter lists. */
export function listParam(res: Response, name: string): Set<string> {
  return new Set((param(res, name) ?? '').split(',').filter(Boolean));
}

/** What a request asked for: the fields of each object type and the expansions. */
export interface Wanted {
  user: Set<string>;
  tweet: Set<string>;
  list: Set<string>;
  dmEvent: Set<string>;
  expansions: Set<string>;
}

export const wantedBy = (res: Response): Wanted => ({
  user: listParam(res, 'user.fields'),
  tweet: listParam(res, 'tweet.fields'),
  list: listParam(res, 'list.fields'),
  dmEvent: listParam(res, 'dm_event.fields'),
  expansions: listParam(res, 'expansions'),
});

/** Only the fields asked for, besides the defaults. */
function pick(all: Json, defaults: string[], wanted: Set<string>): Json {
  return Object.fromEntries(Object.entries(all).filter(([key, value]) => value !== undefined && (defaults.includes(key) || wanted.has(key))));
}

export function v2User(user: UserRecord, wanted: Set<string>): Json {
  const base = platformUser(user);
  return pick(
    {
      id: user.id,
      name: base.name,
      username: base.screen_name,
      created_at: isoSeconds(Number(base.created_timestamp)),
      description: user.description ?? '',
      location: user.location || undefined,
      protected: user.protected,
      verified: base.verified,
      url: user.url ?? '',
      profile_image_url: base.profile_image_url_https,
      public_metrics: { followers_count: base.followers_count, following_count: base.friends_count, tweet_count: base.statuses_count, listed_count: 0 },
    },
    ['id', 'name', 'username'],
    wanted,
  );
}

/** A repost's text is the original's, behind `RT @author: `, on v2 as on v1.1. */
function textOf(state: PlatformState, post: Post): string {
  const original = post.repostOf ? state.posts.get(post.repostOf) : undefined;
  return original ? `RT @${state.user({ id: original.authorId }).screenName}: ${original.text}` : post.text;
}

export function v2Post(state: PlatformState, post: Post, wanted: Set<string>): Json {
  const referenced = [...(post.inReplyTo ? [{ type: 'replied_to', id: post.inReplyTo.postId }] : []), ...(post.repostOf ? [{ type: 'retweeted', id: post.repostOf }] : [])];
  const posts = [...state.posts.values()];
  const mentions = post.repostOf ? [] : mentionsOf(state, post.text).map((m) => ({ start: (m.indices as number[])[0], end: (m.indices as number[])[1], username: m.screen_name, id: m.id_str }));
  return pick(
    {
      id: post.id,
      text: textOf(state, post),
      edit_history_tweet_ids: [post.id],
      author_id: post.authorId,
      created_at: isoSeconds(post.createdAt),
      conversation_id: post.inReplyTo?.postId ?? post.id,
      in_reply_to_user_id: post.inReplyTo?.userId,
      referenced_tweets: referenced.length ? referenced : undefined,
      entities: mentions.length ? { mentions } : undefined,
      lang: 'en',
      public_metrics: {
        retweet_count: posts.filter((p) => p.repostOf === post.id).length,
        reply_count: posts.filter((p) => p.inReplyTo?.postId === post.id).length,
        like_count: [...state.likes.values()].filter((liked) => liked.has(post.id)).length,
        quote_count: 0,
        // Counts the simulator does not keep; the platform always answers them.
        bookmark_count: 0,
        impression_count: 0,
      },
    },
    ['id', 'text', 'edit_history_tweet_ids'],
    wanted,
  );
}

export function v2List(list: List, wanted: Set<string>): Json {
  return pick(
    {
      id: list.id,
      name: list.name,
      created_at: isoSeconds(list.createdAt),
      description: list.description,
      follower_count: list.subscribers.size,
      member_count: list.members.size,
      private: list.mode === 'private',
      owner_id: list.ownerId,
    },
    ['id', 'name'],
    wanted,
  );
}

/** A one-to-one conversation's id: the two user ids, the lower first. */
export const conversationId = (dm: DirectMessage) => (BigInt(dm.senderId) < BigInt(dm.recipientId) ? `${dm.senderId}-${dm.recipientId}` : `${dm.recipientId}-${dm.senderId}`);

export function v2DmEvent(dm: DirectMessage, wanted: Set<string>): Json {
  return pick(
    {
      id: dm.id,
      event_type: 'MessageCreate',
      text: dm.text,
      sender_id: dm.senderId,
      dm_conversation_id: conversationId(dm),
      created_at: isoSeconds(dm.createdAt),
      attachments: dm.mediaId ? { media_keys: [mediaKeyOf(dm.mediaId)] } : undefined,
    },
    ['id', 'event_type', 'text'],
    wanted,
  );
}

/** The `includes` of an answer: the users and posts its expansions name, each once. */
export class Includes {
  private readonly users = new Map<string, Json>();
  private readonly tweets = new Map<string, Json>();

  constructor(
    private readonly state: PlatformState,
    private readonly wanted: Wanted,
  ) {}

  user(id: string | undefined): void {
    if (id !== undefined && !this.users.has(id)) this.users.set(id, v2User(this.state.user({ id }), this.wanted.user));
  }

  /** What a post's expansions name: its author, the user it answers, the users it mentions, the posts it refers to and their authors. */
  post(post: Post): void {
    const { expansions } = this.wanted;
    if (expansions.has('author_id')) this.user(post.authorId);
    if (expansions.has('in_reply_to_user_id')) this.user(post.inReplyTo?.userId);
    if (expansions.has('entities.mentions.username') && !post.repostOf) for (const m of mentionsOf(this.state, post.text)) this.user(String(m.id_str));
    for (const id of [post.inReplyTo?.postId, post.repostOf]) {
      const referenced = id === undefined ? undefined : this.state.posts.get(id);
      if (!referenced) continue;
      if (expansions.has('referenced_tweets.id') && !this.tweets.has(referenced.id)) this.tweets.set(referenced.id, v2Post(this.state, referenced, this.wanted.tweet));
      if (expansions.has('referenced_tweets.id.author_id')) this.user(referenced.authorId);
    }
  }

  /** `{includes}` when anything was expanded, else nothing (as the platform leaves it out). */
  answerPart(): Json {
    const includes = { ...(this.users.size ? { users: [...this.users.values()] } : {}), ...(this.tweets.size ? { tweets: [...this.tweets.values()] } : {}) };
    return Object.keys(includes).length ? { includes } : {};
  }
}

const invalid = (detail: string) => new PlatformError(400, 0, detail);

/** `max_results` within the route's bounds (a value outside them is a 400, as on the platform), or the route's default. */
export function maxResults(res: Response, min: number, max: number, fallback: number): number {
  const value = param(res, 'max_results');
  if (value === undefined) return fallback;
  const count = Number(value);
  if (!/^[0-9]+$/.test(value) || count < min || count > max) throw invalid(`The \`max_results\` query parameter value [${value}] is not between ${min} and ${max}`);
  return count;
}

/**
 * A page of `items` (newest first) from the position `pagination_token` names, and the token of
 * the next page. A token is where the next page starts, written in base 36: the first post's or
 * DM event's id (stable while newer ones arrive), or an offset for the followed accounts, padded
 * to the 16 characters the platform's tokens have at least.
 */
export function tokenPage<T>(res: Response, items: T[], size: number, position: { keyOf: (item: T, index: number) => bigint; startOf: (key: bigint) => number }, name = 'pagination_token'): { shown: T[]; nextToken?: string } {
  const token = param(res, name);
  let start = 0;
  if (token !== undefined) {
    const key = /^[0-9a-z]{1,40}$/.test(token) ? [...token].reduce((sum, digit) => sum * 36n + BigInt(parseInt(digit, 36)), 0n) : null;
    if (key === null) throw invalid(`The \`${name}\` query parameter value [${token}] is not valid`);
    start = position.startOf(key);
  }
  const shown = items.slice(start, start + size);
  const next = items[start + size];
  return { shown, ...(next === undefined ? {} : { nextToken: position.keyOf(next, start + size).toString(36).padStart(16, '0') }) };
}

/** Positions in a list sorted newest (highest id) first. */
export const byId = <T extends { id: string }>(items: T[]) => ({
  keyOf: (item: T) => BigInt(item.id),
  startOf: (key: bigint) => {
    const index = items.findIndex((item) => BigInt(item.id) <= key);
    return index < 0 ? items.length : index;
  },
});

/** Positions as offsets. */
export const byOffset = { keyOf: (_item: unknown, index: number) => BigInt(index), startOf: (key: bigint) => Number(key) };

/** Newest first, by id. */
export const newestFirst = (a: { id: string }, b: { id: string }) => (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0);

/** An answer's `data` and `meta`, `data` left out when there is nothing, as the platform does. */
export function listAnswer(data: Json[], meta: Json, includes: Includes | null = null): Json {
  return { ...(data.length ? { data } : {}), ...(includes ? includes.answerPart() : {}), meta: { result_count: data.length, ...meta } };
}

/**
 * The platform's answer for what it cannot find or show: 200, with the problem in `errors` and
 * no `data` (`resource-not-found`, or `not-authorized-for-resource` for a protected account).
 */
export function resourceProblem(kind: 'not-found' | 'not-authorized', resource: string, parameter: string, value: string): Json {
  const notFound = kind === 'not-found';
  return {
    errors: [
      {
        value,
        detail: notFound ? `Could not find ${resource} with ${parameter}: [${value}].` : `Sorry, you are not authorized to see the ${resource} with ${parameter}: [${value}].`,
        title: notFound ? 'Not Found Error' : 'Authorization Error',
        resource_type: resource,
        parameter,
        resource_id: value,
        type: `https://api.x.com/2/problems/${notFound ? 'resource-not-found' : 'not-authorized-for-resource'}`,
      },
    ],
  };
}
