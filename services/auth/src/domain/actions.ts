import type { SocialAction } from '@crm/contracts';
import { PlatformRejected } from './platform-errors';
import { asV1DmEvent, asV1DmEvents, asV1Following, asV1Lists, asV1Search, asV1SubscribedLists, asV1Statuses, asV1User, DM_EVENT_FIELDS, LIST_FIELDS, paginationTokenFor, POST_FIELDS, untilIdFor, USER_FIELDS, v2Page } from './v2-answers';

/** A call to the platform, with its path relative to SOCIAL_API_URL. */
export interface PlatformRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  form?: Record<string, string>;
  json?: unknown;
}

/** A read has no effect and may be repeated freely; a write must never be sent twice blindly. */
export type ActionKind = 'read' | 'write';

/** The platform API an action goes through: v2 where the platform has the route, v1.1 (legacy) otherwise. */
export type ApiVersion = 'v1.1' | 'v2';

type Input = Record<string, unknown>;

/** An action and the platform route that carries it out, for every account whatever its protocol. */
export interface ActionDefinition {
  kind: ActionKind;
  api: ApiVersion;
  /** The platform call for a validated input, made by `accountId`. */
  request: (input: Input, accountId: string) => PlatformRequest;
  /**
   * The route names the target user by id: an input naming them by screen name is first
   * looked up (`userLookup`), and its id put in `userId`.
   */
  usersById?: true;
  /** The answer as callers read it, when it is not the platform's as given (a v2 read's answer in the v1.1 shape). */
  answer?: (data: unknown, input: Input) => unknown;
  /**
   * The platform id of what a write made or acted on, from the platform's answer and the input
   * (v2 answers to likes, relations and lists say only `{liked: true}` and the like: the id is the input's).
   */
  platformId: (data: unknown, input: Input) => string | null;
}

/** Parameters with the undefined ones left out and every value as the string the platform wants. */
function params(values: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== null) out[key] = String(value);
  return out;
}

/** A JSON body with the undefined fields left out. */
function body(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

const screenNameOf = (input: Input) => (typeof input.screenName === 'string' ? input.screenName.replace(/^@/, '') : undefined);
const userParams = (input: Input) => params({ user_id: input.userId, screen_name: screenNameOf(input) });
const v1 = (path: string) => `/1.1/${path}`;
/** A path segment from an input field (already checked to be digits by the input schema). */
const seg = (value: unknown) => encodeURIComponent(String(value));

/** The id v1.1 answers carry: a DM's event id, a post's, list's or user's `id_str`, a collection's timeline id. */
function v1Id(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const record = data as { id_str?: unknown; event?: { id?: unknown }; response?: { timeline_id?: unknown } };
  const id = record.event?.id ?? record.id_str ?? record.response?.timeline_id;
  return typeof id === 'string' ? id : null;
}

/** A field of a v2 answer's `data` object (`{data: {id}}`), when it is a string. */
const v2Field = (field: string) => (data: unknown) => {
  const value = (data as { data?: Record<string, unknown> } | null)?.data?.[field];
  return typeof value === 'string' ? value : null;
};

/** The platform id is the input's field (the v2 answer names nothing). */
const inputField = (field: string) => (_data: unknown, input: Input) => (typeof input[field] === 'string' ? input[field] : null);

const none = () => null;

/** A read through v1.1: one v2 has no route for. */
const get = (path: string, query: (input: Input, accountId: string) => Record<string, string> = () => ({})): ActionDefinition => ({
  kind: 'read',
  api: 'v1.1',
  request: (input, accountId) => ({ method: 'GET', path: v1(path), query: query(input, accountId) }),
  platformId: none,
});

const post1 = (path: string, form: (input: Input) => Record<string, string> = () => ({})): ActionDefinition => ({
  kind: 'write',
  api: 'v1.1',
  request: (input) => ({ method: 'POST', path: v1(path), form: form(input) }),
  platformId: v1Id,
});

const write2 = (request: (input: Input, accountId: string) => PlatformRequest, platformId: ActionDefinition['platformId'], usersById = false): ActionDefinition => ({
  kind: 'write',
  api: 'v2',
  request,
  platformId,
  ...(usersById ? { usersById: true as const } : {}),
});

/** Follow, block or mute (v2: `POST /2/users/:me/<relation> {target_user_id}`, `DELETE /2/users/:me/<relation>/:target`); the platform id is the target's. */
const relation = (path: 'following' | 'blocking' | 'muting', add: boolean) =>
  write2(
    (input, me) =>
      add
        ? { method: 'POST', path: `/2/users/${seg(me)}/${path}`, json: { target_user_id: String(input.userId) } }
        : { method: 'DELETE', path: `/2/users/${seg(me)}/${path}/${seg(input.userId)}` },
    inputField('userId'),
    true,
  );

/** A read through its v2 route, its answer translated into the v1.1 shape callers read (v2-answers.ts). */
const read2 = (request: ActionDefinition['request'], answer: NonNullable<ActionDefinition['answer']>, usersById = false): ActionDefinition => ({
  kind: 'read',
  api: 'v2',
  request,
  answer,
  platformId: none,
  ...(usersById ? { usersById: true as const } : {}),
});

/** A timeline gives 20 posts unless `count` says otherwise, as v1.1's did (callers count on it). */
const TIMELINE_COUNT = 20;

/** A v1.1 timeline page (`count`, `since_id`, inclusive `max_id`) on a v2 timeline route with its `max_results` bounds. */
const timeline2 = (path: (input: Input, me: string) => string, bounds: { min: number; max: number }, usersById = false) =>
  read2(
    (input, me) => ({
      method: 'GET',
      path: path(input, me),
      query: params({ ...POST_FIELDS, max_results: v2Page(input.count, TIMELINE_COUNT, bounds).maxResults, since_id: input.sinceId, until_id: untilIdFor(input.maxId) }),
    }),
    (data, input) => asV1Statuses(data, v2Page(input.count, TIMELINE_COUNT, bounds).keep),
    usersById,
  );

/** v1.1's standard search gives 15 posts unless `count` says otherwise; v2's recent search takes 10 to 100. */
const SEARCH_COUNT = 15;
const SEARCH_BOUNDS = { min: 10, max: 100 };

/** A list's settings as v2 takes them: `private` instead of v1.1's `mode`. */
/** A DM's body: its text, its attached media, or both. */
const dmBody = (input: Input) => ({
  ...(typeof input.text === 'string' ? { text: input.text } : {}),
  ...(typeof input.mediaId === 'string' ? { attachments: [{ media_id: input.mediaId }] } : {}),
});
const listFields = (input: Input) => body({ name: input.name, description: input.description, private: input.mode === undefined ? undefined : input.mode === 'private' });

/**
 * Every action and the platform call that carries it out, the same for every account: an
 * OAuth 1.0a account signs it with its token pair (the platform takes OAuth 1.0a user context
 * on v2 too), an OAuth 2.0 account sends its bearer token. Whatever the platform has a v2 route
 * for goes through v2 (v1.1 is legacy, and OAuth 2.0 user tokens work only on v2); a v2 read's
 * answer is translated into the v1.1 shape callers read (`id_str`, `screen_name`, statuses;
 * v2-answers.ts). What has no v2 route stays on v1.1, which refuses OAuth 2.0 accounts
 * (`needs_oauth1`). docs/architecture.md (*The social platform*) shows the same table.
 *
 * What v2 does not say, the translation cannot give: `favorited` and `retweeted` (whether the
 * account liked or reposted a post) and a list's `following` are false; `read_lists` gives the
 * account's own lists only (those it subscribes to are `read_subscribed_lists`); v2 pages at
 * most 100 (a larger `count` gives 100).
 *
 * | action | route |
 * |---|---|
 * | post, reply | v2 `POST /2/tweets {text, reply?: {in_reply_to_tweet_id}}` |
 * | delete_post | v2 `DELETE /2/tweets/:id` |
 * | like, unlike | v2 `POST /2/users/:me/likes {tweet_id}`, `DELETE /2/users/:me/likes/:tweet_id` |
 * | repost | v2 `POST /2/users/:me/retweets {tweet_id}` |
 * | follow, unfollow | v2 `POST /2/users/:me/following {target_user_id}`, `DELETE …/following/:target` |
 * | block, unblock | v2 `POST /2/users/:me/blocking {target_user_id}`, `DELETE …/blocking/:target` |
 * | mute, unmute | v2 `POST /2/users/:me/muting {target_user_id}`, `DELETE …/muting/:target` |
 * | create_list, update_list, delete_list | v2 `POST /2/lists`, `PUT /2/lists/:id`, `DELETE /2/lists/:id` |
 * | add_list_member, remove_list_member | v2 `POST /2/lists/:id/members {user_id}`, `DELETE /2/lists/:id/members/:user_id` |
 * | upload_media | v2 `POST /2/media/upload {media (base64), media_category: dm_image}` |
 * | send_dm | v2 `POST /2/dm_conversations/with/:participant_id/messages {text?, attachments?: [{media_id}]}` |
 * | (a user named by screen name on a v2 route that takes ids) | v2 `GET /2/users/by/username/:username` first |
 * | read_profile | v2 `GET /2/users/me` |
 * | read_user | v2 `GET /2/users/:id`, `GET /2/users/by/username/:username` |
 * | read_user_timeline | v2 `GET /2/users/:id/tweets` (a screen name looked up first) |
 * | read_home_timeline | v2 `GET /2/users/:me/timelines/reverse_chronological` |
 * | read_following | v2 `GET /2/users/:me/following` (the cursor is v2's page token) |
 * | read_lists | v2 `GET /2/users/:me/owned_lists` (the account's own lists) |
 * | read_subscribed_lists | v2 `GET /2/users/:me/followed_lists` (the cursor is v2's page token) |
 * | read_list_posts | v2 `GET /2/lists/:id/tweets` |
 * | read_dms, read_dm | v2 `GET /2/dm_events`, `GET /2/dm_events/:event_id` |
 * | delete_dm | v2 `DELETE /2/dm_events/:event_id` (a DM the account sent) |
 * | search_posts | v2 `GET /2/tweets/search/recent` |
 * | read_settings, read_collections, read_collection_entries | v1.1 (no v2 route) |
 * | update_profile, update_settings, report, collections, delete_dm, mark_dm_read, indicate_typing | v1.1 (no v2 route) |
 */
export const ACTIONS: Record<SocialAction, ActionDefinition> = {
  read_home_timeline: timeline2((_input, me) => `/2/users/${seg(me)}/timelines/reverse_chronological`, { min: 1, max: 100 }),
  read_user_timeline: timeline2((input) => `/2/users/${seg(input.userId)}/tweets`, { min: 5, max: 100 }, true),
  // The account's own lists only: those it subscribes to are read_subscribed_lists.
  read_lists: read2((_input, me) => ({ method: 'GET', path: `/2/users/${seg(me)}/owned_lists`, query: params({ ...LIST_FIELDS, max_results: 100 }) }), asV1Lists),
  read_list_posts: timeline2((input) => `/2/lists/${seg(input.listId)}/tweets`, { min: 1, max: 100 }),
  read_subscribed_lists: read2(
    (input, me) => ({
      method: 'GET',
      path: `/2/users/${seg(me)}/followed_lists`,
      // v2 pages at most 100 lists (the input allows up to 1,000).
      query: params({ ...LIST_FIELDS, max_results: Math.min(Number(input.count ?? 100), 100), pagination_token: paginationTokenFor(input.cursor) }),
    }),
    asV1SubscribedLists,
  ),
  read_collections: get('collections/list.json', (input, accountId) => params({ user_id: accountId, count: input.count })),
  read_collection_entries: get('collections/entries.json', (input) => params({ id: input.collectionId, count: input.count })),
  read_profile: read2(() => ({ method: 'GET', path: '/2/users/me', query: { 'user.fields': USER_FIELDS } }), asV1User),
  read_user: read2(
    (input) => ({
      method: 'GET',
      path: typeof input.userId === 'string' ? `/2/users/${seg(input.userId)}` : `/2/users/by/username/${seg(screenNameOf(input))}`,
      query: { 'user.fields': USER_FIELDS },
    }),
    asV1User,
  ),
  read_settings: get('account/settings.json'),
  read_following: read2(
    (input, me) => ({
      method: 'GET',
      path: `/2/users/${seg(me)}/following`,
      query: params({ 'user.fields': USER_FIELDS, max_results: input.count ?? TIMELINE_COUNT, pagination_token: paginationTokenFor(input.cursor) }),
    }),
    asV1Following,
  ),
  // Recent posts, newest first, answered as v1.1's standard search (`{statuses, search_metadata}`, full text).
  search_posts: read2(
    (input) => ({
      method: 'GET',
      path: '/2/tweets/search/recent',
      query: params({ query: input.query, ...POST_FIELDS, max_results: v2Page(input.count, SEARCH_COUNT, SEARCH_BOUNDS).maxResults, since_id: input.sinceId, sort_order: 'recency' }),
    }),
    (data, input) => asV1Search(data, { query: String(input.query), sinceId: typeof input.sinceId === 'string' ? input.sinceId : null, keep: v2Page(input.count, SEARCH_COUNT, SEARCH_BOUNDS).keep }),
  ),

  follow: relation('following', true),
  unfollow: relation('following', false),
  update_profile: post1('account/update_profile.json', (input) => params({ name: input.name, url: input.url, location: input.location, description: input.description })),
  update_settings: post1('account/settings.json', (input) =>
    params({ lang: input.lang, time_zone: input.timeZone, sleep_time_enabled: input.sleepTimeEnabled, start_sleep_time: input.startSleepTime, end_sleep_time: input.endSleepTime }),
  ),

  post: write2((input) => ({ method: 'POST', path: '/2/tweets', json: { text: input.text } }), v2Field('id')),
  delete_post: write2((input) => ({ method: 'DELETE', path: `/2/tweets/${seg(input.postId)}` }), inputField('postId')),
  like: write2((input, me) => ({ method: 'POST', path: `/2/users/${seg(me)}/likes`, json: { tweet_id: String(input.postId) } }), inputField('postId')),
  unlike: write2((input, me) => ({ method: 'DELETE', path: `/2/users/${seg(me)}/likes/${seg(input.postId)}` }), inputField('postId')),
  // The reply threads under the post; v2 adds the @mentions of the thread itself.
  reply: write2((input) => ({ method: 'POST', path: '/2/tweets', json: { text: input.text, reply: { in_reply_to_tweet_id: String(input.inReplyToPostId) } } }), v2Field('id')),
  repost: write2((input, me) => ({ method: 'POST', path: `/2/users/${seg(me)}/retweets`, json: { tweet_id: String(input.postId) } }), v2Field('rest_id')),

  create_list: write2((input) => ({ method: 'POST', path: '/2/lists', json: listFields(input) }), v2Field('id')),
  update_list: write2((input) => ({ method: 'PUT', path: `/2/lists/${seg(input.listId)}`, json: listFields(input) }), inputField('listId')),
  delete_list: write2((input) => ({ method: 'DELETE', path: `/2/lists/${seg(input.listId)}` }), inputField('listId')),
  add_list_member: write2((input) => ({ method: 'POST', path: `/2/lists/${seg(input.listId)}/members`, json: { user_id: String(input.userId) } }), inputField('listId'), true),
  remove_list_member: write2((input) => ({ method: 'DELETE', path: `/2/lists/${seg(input.listId)}/members/${seg(input.userId)}` }), inputField('listId'), true),
  create_collection: post1('collections/create.json', (input) => params({ name: input.name, description: input.description, timeline_order: input.timelineOrder })),
  update_collection: post1('collections/update.json', (input) => params({ id: input.collectionId, name: input.name, description: input.description })),
  delete_collection: post1('collections/destroy.json', (input) => params({ id: input.collectionId })),
  add_collection_entry: post1('collections/entries/add.json', (input) => params({ id: input.collectionId, tweet_id: input.postId })),
  remove_collection_entry: post1('collections/entries/remove.json', (input) => params({ id: input.collectionId, tweet_id: input.postId })),

  mute: relation('muting', true),
  unmute: relation('muting', false),
  block: relation('blocking', true),
  unblock: relation('blocking', false),
  report: post1('users/report_spam.json', (input) => ({ ...userParams(input), ...params({ perform_block: input.block }) })),

  // The answer's dm_event_id is the id the DM's echo delivery carries.
  // An image for a DM: the platform answers the media id a send_dm then attaches (usable for 24 hours).
  upload_media: write2((input) => ({ method: 'POST', path: '/2/media/upload', json: { media: input.media, media_category: 'dm_image' } }), v2Field('id')),
  send_dm: write2((input) => ({ method: 'POST', path: `/2/dm_conversations/with/${seg(input.recipientId)}/messages`, json: dmBody(input) }), v2Field('dm_event_id')),
  read_dms: read2(
    (input) => ({
      method: 'GET',
      path: '/2/dm_events',
      query: params({ ...DM_EVENT_FIELDS, event_types: 'MessageCreate', max_results: input.count ?? TIMELINE_COUNT, pagination_token: paginationTokenFor(input.cursor) }),
    }),
    asV1DmEvents,
  ),
  read_dm: read2((input) => ({ method: 'GET', path: `/2/dm_events/${seg(input.eventId)}`, query: DM_EVENT_FIELDS }), (data, input) => asV1DmEvent(data, String(input.eventId))),
  delete_dm: write2((input) => ({ method: 'DELETE', path: `/2/dm_events/${seg(input.eventId)}` }), none),
  mark_dm_read: post1('direct_messages/mark_read.json', (input) => params({ last_read_event_id: input.lastReadEventId, recipient_id: input.recipientId })),
  indicate_typing: post1('direct_messages/indicate_typing.json', (input) => params({ recipient_id: input.recipientId })),
};

/**
 * The platform id of what a write made or acted on: a DM's event id, a post's, list's or
 * user's id, a collection's timeline id. Null for reads and answers without one.
 */
export function platformIdOf(action: SocialAction, data: unknown, input: Input): string | null {
  const definition = ACTIONS[action];
  return definition.kind === 'read' ? null : definition.platformId(data, input);
}

/** The screen name to look up before the route can be called, or null when the input has the id already. */
export function userToLookUp(definition: ActionDefinition, input: Input): string | null {
  if (!definition.usersById || typeof input.userId === 'string') return null;
  return screenNameOf(input) ?? null;
}

/** `GET /2/users/by/username/:username`: a user's id from their screen name. */
export const userLookup = (screenName: string): PlatformRequest => ({ method: 'GET', path: `/2/users/by/username/${seg(screenName)}` });

/**
 * The id in a user lookup's answer. v2 answers a user it cannot find with 200 and
 * `{errors: [{title: "Not Found Error", detail}]}`: that is the platform refusing the action (404), as v1.1's code 50.
 */
export function userIdFromLookup(data: unknown, screenName: string): string {
  const answer = data as { data?: { id?: unknown }; errors?: { detail?: unknown; title?: unknown }[] } | null;
  const id = answer?.data?.id;
  if (typeof id === 'string') return id;
  const problem = answer?.errors?.[0];
  const detail = typeof problem?.detail === 'string' ? problem.detail : `Could not find user with username: [${screenName}].`;
  throw new PlatformRejected(404, null, detail, typeof problem?.title === 'string' ? problem.title : 'Not Found Error');
}

/** The input with the looked-up id in place of the screen name. */
export function withUserId(input: Input, userId: string): Input {
  const { screenName: _named, ...rest } = input;
  return { ...rest, userId };
}

/**
 * A call's route as the platform counts its rate limits: the method and the path with ids and
 * user names as placeholders (`GET /2/users/:id/tweets`, `GET /2/users/by/username/:username`).
 */
export function routeOf(request: PlatformRequest): string {
  const version = /^\/[^/]*/.exec(request.path)?.[0] ?? '';
  const rest = request.path.slice(version.length).replace(/\/by\/username\/[^/]+/, '/by/username/:username').replace(/\/[0-9]+(?=\/|$)/g, '/:id');
  return `${request.method} ${version}${rest}`;
}

/**
 * The route `definition` goes through for `input`, before any screen name is looked up (the
 * id it stands for does not change the route).
 */
export function actionRoute(definition: ActionDefinition, input: Input, accountId: string): string {
  const lookingUp = userToLookUp(definition, input) !== null;
  return routeOf(definition.request(lookingUp ? withUserId(input, '0') : input, accountId));
}
