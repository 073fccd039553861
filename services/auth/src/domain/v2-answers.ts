import { PlatformRejected } from './platform-errors';

/**
 * The platform's v2 read answers (`{data, includes, meta}`) in the v1.1 shape auth's callers
 * read: users with `id_str`, `screen_name` and counters, posts ("statuses") with their author in
 * `user` and what they answer, quote or repost, DM events as `direct_messages/events/*` give
 * them. The v2 requests ask for the fields and expansions named here, which are what the
 * translation needs. What v2 does not say is given as v1.1 gives it to a viewer with no
 * relation: `favorited`, `retweeted` and a list's `following` are false.
 */

type Json = Record<string, unknown>;

interface V2Answer {
  data?: unknown;
  includes?: { users?: Json[]; tweets?: Json[] };
  meta?: { result_count?: number; next_token?: string; newest_id?: string; oldest_id?: string };
  errors?: { title?: unknown; detail?: unknown; type?: unknown }[];
}

/** The user fields v2 reads ask for: everything a v1.1 user object has. */
export const USER_FIELDS = 'created_at,description,location,profile_image_url,protected,public_metrics,url,verified';
/** The post fields, and the expansions that bring each post's author, the user it answers, the users it mentions and the posts it refers to. */
export const POST_FIELDS = {
  'tweet.fields': 'author_id,conversation_id,created_at,entities,in_reply_to_user_id,lang,public_metrics,referenced_tweets',
  expansions: 'author_id,in_reply_to_user_id,entities.mentions.username,referenced_tweets.id,referenced_tweets.id.author_id',
  'user.fields': USER_FIELDS,
};
export const LIST_FIELDS = { 'list.fields': 'created_at,description,follower_count,member_count,owner_id,private', expansions: 'owner_id', 'user.fields': USER_FIELDS };
export const DM_EVENT_FIELDS = { 'dm_event.fields': 'id,event_type,text,sender_id,dm_conversation_id,created_at' };

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number => (typeof value === 'number' ? value : 0);
const record = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const records = (value: unknown): Json[] => (Array.isArray(value) ? value.map(record) : []);
/** A v1.1 `id`: the number a JSON parser makes of the exact integer v1.1 writes (callers key on `id_str`). */
const v1Number = (id: string | null) => (id === null ? null : Number(id));

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A v2 time (ISO 8601) as v1.1 writes it: `Wed Nov 25 09:57:53 +0000 2026`. Written out by
 * hand: the format is fixed English, which locale-aware formatting would not promise.
 */
export function v1Date(iso: unknown): string | null {
  const ms = typeof iso === 'string' ? Date.parse(iso) : NaN;
  if (!Number.isFinite(ms)) return null;
  const d = new Date(ms);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000 ${d.getUTCFullYear()}`;
}

/**
 * The answer, unless it is the platform refusing: v2 answers a user, list or DM event it cannot
 * find or show with 200 and only `errors`. That becomes the refusal v1.1 would have answered
 * (404 not found; 403 for not authorized: v1.1's 401 would read as a refused token).
 */
function answerOf(data: unknown): V2Answer {
  const answer = record(data) as V2Answer;
  if (answer.data !== undefined || !Array.isArray(answer.errors) || answer.errors.length === 0) return answer;
  const problem = record(answer.errors[0]);
  const type = str(problem.type) ?? '';
  const status = type.endsWith('/resource-not-found') ? 404 : type.endsWith('/not-authorized-for-resource') ? 403 : 400;
  throw new PlatformRejected(status, null, str(problem.detail) ?? 'the platform answered with an error and no data', str(problem.title) ?? 'Error');
}

/** A v2 user as a v1.1 user object. */
export function v1User(user: Json): Json {
  const id = str(user.id);
  const metrics = record(user.public_metrics);
  return {
    id: v1Number(id),
    id_str: id,
    name: str(user.name) ?? '',
    screen_name: str(user.username) ?? '',
    location: str(user.location) ?? '',
    description: str(user.description) ?? '',
    url: str(user.url) || null,
    protected: user.protected === true,
    verified: user.verified === true,
    followers_count: num(metrics.followers_count),
    friends_count: num(metrics.following_count),
    listed_count: num(metrics.listed_count),
    statuses_count: num(metrics.tweet_count),
    created_at: v1Date(user.created_at),
    profile_image_url_https: str(user.profile_image_url),
  };
}

/** The users and posts of an answer's `includes`, by id. */
export class Included {
  readonly users: Map<string, Json>;
  readonly tweets: Map<string, Json>;

  constructor(includes: V2Answer['includes']) {
    const byId = (items: unknown) => new Map(records(items).map((item) => [str(item.id) ?? '', item]));
    this.users = byId(includes?.users);
    this.tweets = byId(includes?.tweets);
  }
}

/** v2 entities (`mentions`, `hashtags`, `urls` with start and end) as v1.1's, with `indices`. */
function v1Entities(entities: Json, included: Included): Json {
  const indices = (item: Json) => [num(item.start), num(item.end)];
  return {
    hashtags: records(entities.hashtags).map((tag) => ({ text: str(tag.tag) ?? '', indices: indices(tag) })),
    symbols: records(entities.cashtags).map((tag) => ({ text: str(tag.tag) ?? '', indices: indices(tag) })),
    user_mentions: records(entities.mentions).map((mention) => {
      const id = str(mention.id);
      const username = str(mention.username) ?? '';
      return { screen_name: username, name: str(included.users.get(id ?? '')?.name) ?? username, id: v1Number(id), id_str: id, indices: indices(mention) };
    }),
    urls: records(entities.urls).map((url) => ({ url: str(url.url), expanded_url: str(url.expanded_url), display_url: str(url.display_url), indices: indices(url) })),
  };
}

/**
 * A v2 post as a v1.1 status: its author from `includes.users`, `in_reply_to_*` from the post
 * it answers, `retweeted_status` and `quoted_status` from `includes.tweets`. `extended` adds
 * `full_text`, as v1.1 answers with `tweet_mode=extended`.
 */
export function v1Status(post: Json, included: Included, extended = false): Json {
  const id = str(post.id);
  const referenced = (type: string) => str(records(post.referenced_tweets).find((ref) => ref.type === type)?.id);
  const [repliedTo, quoted, reposted] = [referenced('replied_to'), referenced('quoted'), referenced('retweeted')];
  const authorId = str(post.author_id);
  const author = included.users.get(authorId ?? '');
  const replyUserId = str(post.in_reply_to_user_id);
  const metrics = record(post.public_metrics);
  const text = str(post.text) ?? '';
  const nested = (postId: string | null) => {
    const found = postId === null ? undefined : included.tweets.get(postId);
    return found ? v1Status(found, included, extended) : undefined;
  };
  const repostOf = nested(reposted);
  const quotedStatus = nested(quoted);
  return {
    created_at: v1Date(post.created_at),
    id: v1Number(id),
    id_str: id,
    text,
    ...(extended ? { full_text: text } : {}),
    truncated: false,
    entities: v1Entities(record(post.entities), included),
    in_reply_to_status_id: v1Number(repliedTo),
    in_reply_to_status_id_str: repliedTo,
    in_reply_to_user_id: v1Number(replyUserId),
    in_reply_to_user_id_str: replyUserId,
    in_reply_to_screen_name: str(included.users.get(replyUserId ?? '')?.username),
    user: author ? v1User(author) : { id: v1Number(authorId), id_str: authorId },
    ...(repostOf ? { retweeted_status: repostOf } : {}),
    is_quote_status: quoted !== null,
    ...(quoted !== null ? { quoted_status_id: v1Number(quoted), quoted_status_id_str: quoted, ...(quotedStatus ? { quoted_status: quotedStatus } : {}) } : {}),
    retweet_count: num(metrics.retweet_count),
    favorite_count: num(metrics.like_count),
    favorited: false,
    retweeted: false,
    lang: str(post.lang),
  };
}

/** A v2 list (with its owner in `includes.users`) as a v1.1 list object. */
export function v1List(list: Json, included: Included): Json {
  const id = str(list.id);
  const name = str(list.name) ?? '';
  const owner = included.users.get(str(list.owner_id) ?? '');
  const screenName = str(owner?.username) ?? '';
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return {
    id: v1Number(id),
    id_str: id,
    name,
    slug,
    full_name: `@${screenName}/${slug}`,
    uri: `/${screenName}/lists/${slug}`,
    description: str(list.description) ?? '',
    mode: list.private === true ? 'private' : 'public',
    member_count: num(list.member_count),
    subscriber_count: num(list.follower_count),
    following: false,
    created_at: v1Date(list.created_at),
    user: owner ? v1User(owner) : null,
  };
}

/**
 * A v2 DM event as a `direct_messages/events/*` event. v1.1 shows one-to-one messages only: the
 * recipient is the other id of the conversation (`<low>-<high>`); anything else (a group
 * conversation, someone joining or leaving) is null, left out.
 */
export function v1DmEvent(event: Json): Json | null {
  const sender = str(event.sender_id);
  const pair = /^([0-9]+)-([0-9]+)$/.exec(str(event.dm_conversation_id) ?? '');
  if (event.event_type !== 'MessageCreate' || sender === null || !pair) return null;
  const recipient = pair[1] === sender ? pair[2]! : pair[1]!;
  const created = Date.parse(str(event.created_at) ?? '');
  return {
    type: 'message_create',
    id: str(event.id),
    created_timestamp: Number.isFinite(created) ? String(created) : null,
    message_create: { target: { recipient_id: recipient }, sender_id: sender, message_data: { text: str(event.text) ?? '', entities: { hashtags: [], symbols: [], user_mentions: [], urls: [] } } },
  };
}

/** A one-object answer's `data`, checked to be an object. */
function single(data: unknown): { item: Json; included: Included } {
  const answer = answerOf(data);
  return { item: record(answer.data), included: new Included(answer.includes) };
}

function many(data: unknown): { items: Json[]; included: Included; meta: NonNullable<V2Answer['meta']> } {
  const answer = answerOf(data);
  return { items: records(answer.data), included: new Included(answer.includes), meta: record(answer.meta) as NonNullable<V2Answer['meta']> };
}

/** `GET /2/users/me`, `/2/users/:id`, `/2/users/by/username/:username` → `verify_credentials` / `users/show`. */
export const asV1User = (data: unknown) => v1User(single(data).item);

/** A timeline (`/2/users/:id/tweets`, `…/timelines/reverse_chronological`, `/2/lists/:id/tweets`) → the array of statuses, at most `keep`. */
export function asV1Statuses(data: unknown, keep: number): Json[] {
  const { items, included } = many(data);
  return items.slice(0, keep).map((post) => v1Status(post, included));
}

/** `/2/tweets/search/recent` → `search/tweets.json` (`tweet_mode=extended`): `{statuses, search_metadata}`. */
export function asV1Search(data: unknown, search: { query: string; sinceId: string | null; keep: number }): Json {
  const { items, included } = many(data);
  const statuses = items.slice(0, search.keep).map((post) => v1Status(post, included, true));
  const newest = str(statuses[0]?.id_str) ?? search.sinceId ?? '0';
  const since = search.sinceId ?? '0';
  const query = encodeURIComponent(search.query);
  return {
    statuses,
    search_metadata: {
      max_id: Number(newest),
      max_id_str: newest,
      since_id: Number(since),
      since_id_str: since,
      query,
      count: search.keep,
      refresh_url: `?since_id=${newest}&q=${query}&result_type=recent&include_entities=1`,
    },
  };
}

/**
 * `/2/users/:id/following` → `friends/list.json`. The next page's cursor is v2's `next_token`
 * (given back as `cursor`, it is sent as `pagination_token`); 0 when there is none, as v1.1.
 */
export function asV1Following(data: unknown): Json {
  const { items, meta } = many(data);
  const next = str(meta.next_token);
  return { users: items.map(v1User), next_cursor: next ?? 0, next_cursor_str: next ?? '0', previous_cursor: 0, previous_cursor_str: '0' };
}

/** `/2/users/:id/owned_lists` → `lists/list.json`: an array of lists. */
export function asV1Lists(data: unknown): Json[] {
  const { items, included } = many(data);
  return items.map((list) => v1List(list, included));
}

/** `/2/users/:id/followed_lists` → `lists/subscriptions.json`: `{lists, next_cursor}` (v2's page token, or 0 after the last page). */
export function asV1SubscribedLists(data: unknown): Json {
  const { items, included, meta } = many(data);
  const next = str(meta.next_token);
  return { lists: items.map((list) => v1List(list, included)), next_cursor: next ?? 0, next_cursor_str: next ?? '0', previous_cursor: 0, previous_cursor_str: '0' };
}

/** `/2/dm_events` → `direct_messages/events/list.json`: `{events, next_cursor?}` (v2's `next_token`). */
export function asV1DmEvents(data: unknown): Json {
  const { items, meta } = many(data);
  const next = str(meta.next_token);
  return { events: items.map(v1DmEvent).filter((event): event is Json => event !== null), ...(next ? { next_cursor: next } : {}) };
}

/** `/2/dm_events/:event_id` → `direct_messages/events/show.json`: `{event}`; an event v1.1 would not show is not found. */
export function asV1DmEvent(data: unknown, eventId: string): Json {
  const event = v1DmEvent(single(data).item);
  if (!event) throw new PlatformRejected(404, null, `Could not find dm_event with event_id: [${eventId}].`, 'Not Found Error');
  return { event };
}

/**
 * A v1.1 `count` on a v2 route: the `max_results` to ask (within the route's bounds) and how
 * many of the answer to keep. Below the route's minimum the minimum is asked and the answer
 * cut; above its maximum the maximum is asked (a page shorter than v1.1's).
 */
export function v2Page(count: unknown, fallback: number, bounds: { min: number; max: number }): { maxResults: number; keep: number } {
  const wanted = typeof count === 'number' ? count : fallback;
  const maxResults = Math.min(Math.max(wanted, bounds.min), bounds.max);
  return { maxResults, keep: Math.min(wanted, maxResults) };
}

/** v1.1's `max_id` is inclusive, v2's `until_id` exclusive: the id after it. */
export const untilIdFor = (maxId: unknown): string | undefined => (typeof maxId === 'string' ? String(BigInt(maxId) + 1n) : undefined);

/** A v1.1 cursor as a v2 `pagination_token`: v1.1's "first page" cursors (-1, 0) are none. */
export const paginationTokenFor = (cursor: unknown): string | undefined => (typeof cursor === 'string' && cursor !== '-1' && cursor !== '0' ? cursor : undefined);
