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

/** A platform route an action goes through, and how its answer becomes the one callers read. */
export interface PlatformRoute {
  api: ApiVersion;
  /** The platform call for a validated input, made by `accountId`. */
  request: (input: Input, accountId: string) => PlatformRequest;
  /**
   * The route names the target user by id: an input naming them by screen name is first
   * looked up (`userLookup`), and its id put in `userId`.
   */
  usersById?: true;
  /** The answer as callers read it, when it is not the platform's as given (a v2 read's answer in its v1.1 route's shape). */
  answer?: (data: unknown, input: Input) => unknown;
}

export interface ActionDefinition extends PlatformRoute {
  kind: ActionKind;
  /**
   * The platform id of what a write made or acted on, from the platform's answer and the input
   * (v2 answers to likes, relations and lists say only `{liked: true}` and the like: the id is the input's).
   */
  platformId: (data: unknown, input: Input) => string | null;
  /**
   * A v1.1 read's v2 route, taken for OAuth 2.0 accounts (v1.1 refuses their tokens), with its
   * answer in the v1.1 shape; OAuth 1.0a accounts keep the v1.1 route and its answers as they were.
   */
  oauth2?: PlatformRoute;
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
const pageParams = (input: Input) => params({ count: input.count, since_id: input.sinceId, max_id: input.maxId });
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

/** The v2 route of a read, for OAuth 2.0 accounts: its answer is translated into the v1.1 route's shape. */
const read2 = (request: PlatformRoute['request'], answer: NonNullable<PlatformRoute['answer']>, usersById = false): PlatformRoute => ({
  api: 'v2',
  request,
  answer,
  ...(usersById ? { usersById: true as const } : {}),
});

const withV2 = (definition: ActionDefinition, oauth2: PlatformRoute): ActionDefinition => ({ ...definition, oauth2 });

/** v1.1 timelines give 20 posts unless `count` says otherwise. */
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
const listFields = (input: Input) => body({ name: input.name, description: input.description, private: input.mode === undefined ? undefined : input.mode === 'private' });

/**
 * Every action and the platform call that carries it out. Writes the platform has a v2 route
 * for go through v2 (v1.1 is legacy, and OAuth 2.0 user tokens work only on v2). Reads go
 * through v1.1 for OAuth 1.0a accounts, whose answers callers read (`id_str`, `screen_name`,
 * statuses) unchanged; an OAuth 2.0 account reads through the v2 route where there is one, its
 * answer translated into the same v1.1 shape (v2-answers.ts). What has no v2 route stays on
 * v1.1, which refuses OAuth 2.0 accounts (`needs_oauth1`). docs/architecture.md (*The social
 * platform*) shows the same table.
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
 * | send_dm | v2 `POST /2/dm_conversations/with/:participant_id/messages {text}` |
 * | (a user named by screen name in a v2 write) | v2 `GET /2/users/by/username/:username` first |
 * | every read, for OAuth 1.0a accounts | v1.1 |
 * | read_profile (OAuth 2.0) | v2 `GET /2/users/me` |
 * | read_user (OAuth 2.0) | v2 `GET /2/users/:id`, `GET /2/users/by/username/:username` |
 * | read_user_timeline (OAuth 2.0) | v2 `GET /2/users/:id/tweets` (a screen name looked up first) |
 * | read_home_timeline (OAuth 2.0) | v2 `GET /2/users/:me/timelines/reverse_chronological` |
 * | read_following (OAuth 2.0) | v2 `GET /2/users/:me/following` |
 * | read_lists (OAuth 2.0) | v2 `GET /2/users/:me/owned_lists` (the account's own lists; v1.1 adds subscribed ones) |
 * | read_list_posts (OAuth 2.0) | v2 `GET /2/lists/:id/tweets` |
 * | read_dms, read_dm (OAuth 2.0) | v2 `GET /2/dm_events`, `GET /2/dm_events/:event_id` |
 * | search_posts (OAuth 2.0) | v2 `GET /2/tweets/search/recent` |
 * | read_subscribed_lists (OAuth 2.0) | v2 `GET /2/users/:me/followed_lists` (at most 100 a page; the cursor is v2's page token) |
 * | read_settings, read_collections, read_collection_entries | v1.1 (no v2 route) |
 * | update_profile, update_settings, report, collections, delete_dm, mark_dm_read, indicate_typing | v1.1 (no v2 route) |
 */
export const ACTIONS: Record<SocialAction, ActionDefinition> = {
  read_home_timeline: withV2(get('statuses/home_timeline.json', pageParams), timeline2((_input, me) => `/2/users/${seg(me)}/timelines/reverse_chronological`, { min: 1, max: 100 })),
  read_user_timeline: withV2(
    get('statuses/user_timeline.json', (input) => ({ ...userParams(input), ...pageParams(input) })),
    timeline2((input) => `/2/users/${seg(input.userId)}/tweets`, { min: 5, max: 100 }, true),
  ),
  // v2 has the account's own lists only; v1.1's lists/list.json adds those it subscribes to.
  read_lists: withV2(
    get('lists/list.json'),
    read2((_input, me) => ({ method: 'GET', path: `/2/users/${seg(me)}/owned_lists`, query: params({ ...LIST_FIELDS, max_results: 100 }) }), asV1Lists),
  ),
  read_list_posts: withV2(
    get('lists/statuses.json', (input) => params({ list_id: input.listId, count: input.count })),
    timeline2((input) => `/2/lists/${seg(input.listId)}/tweets`, { min: 1, max: 100 }),
  ),
  read_subscribed_lists: withV2(
    get('lists/subscriptions.json', (input) => params({ count: input.count, cursor: input.cursor })),
    read2(
      (input, me) => ({
        method: 'GET',
        path: `/2/users/${seg(me)}/followed_lists`,
        // v2 pages at most 100 lists where v1.1 gave up to 1,000.
        query: params({ ...LIST_FIELDS, max_results: Math.min(Number(input.count ?? 100), 100), pagination_token: paginationTokenFor(input.cursor) }),
      }),
      asV1SubscribedLists,
    ),
  ),
  read_collections: get('collections/list.json', (input, accountId) => params({ user_id: accountId, count: input.count })),
  read_collection_entries: get('collections/entries.json', (input) => params({ id: input.collectionId, count: input.count })),
  read_profile: withV2(get('account/verify_credentials.json'), read2(() => ({ method: 'GET', path: '/2/users/me', query: { 'user.fields': USER_FIELDS } }), asV1User)),
  read_user: withV2(
    get('users/show.json', userParams),
    read2(
      (input) => ({
        method: 'GET',
        path: typeof input.userId === 'string' ? `/2/users/${seg(input.userId)}` : `/2/users/by/username/${seg(screenNameOf(input))}`,
        query: { 'user.fields': USER_FIELDS },
      }),
      asV1User,
    ),
  ),
  read_settings: get('account/settings.json'),
  read_following: withV2(
    get('friends/list.json', (input) => params({ count: input.count, cursor: input.cursor })),
    read2(
      (input, me) => ({
        method: 'GET',
        path: `/2/users/${seg(me)}/following`,
        query: params({ 'user.fields': USER_FIELDS, max_results: input.count ?? TIMELINE_COUNT, pagination_token: paginationTokenFor(input.cursor) }),
      }),
      asV1Following,
    ),
  ),
  // Standard search: recent posts only, full text, newest first (v2's recent search answers another shape).
  search_posts: withV2(
    get('search/tweets.json', (input) => params({ q: input.query, since_id: input.sinceId, count: input.count, result_type: input.resultType ?? 'recent', tweet_mode: 'extended' })),
    read2(
      (input) => ({
        method: 'GET',
        path: '/2/tweets/search/recent',
        query: params({ query: input.query, ...POST_FIELDS, max_results: v2Page(input.count, SEARCH_COUNT, SEARCH_BOUNDS).maxResults, since_id: input.sinceId, sort_order: 'recency' }),
      }),
      (data, input) => asV1Search(data, { query: String(input.query), sinceId: typeof input.sinceId === 'string' ? input.sinceId : null, keep: v2Page(input.count, SEARCH_COUNT, SEARCH_BOUNDS).keep }),
    ),
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
  repost: write2((input, me) => ({ method: 'POST', path: `/2/users/${seg(me)}/retweets`, json: { tweet_id: String(input.postId) } }), v2Field('id')),

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
  send_dm: write2((input) => ({ method: 'POST', path: `/2/dm_conversations/with/${seg(input.recipientId)}/messages`, json: { text: input.text } }), v2Field('dm_event_id')),
  read_dms: withV2(
    get('direct_messages/events/list.json', (input) => params({ count: input.count, cursor: input.cursor })),
    read2(
      (input) => ({
        method: 'GET',
        path: '/2/dm_events',
        query: params({ ...DM_EVENT_FIELDS, event_types: 'MessageCreate', max_results: input.count ?? TIMELINE_COUNT, pagination_token: paginationTokenFor(input.cursor) }),
      }),
      asV1DmEvents,
    ),
  ),
  read_dm: withV2(
    get('direct_messages/events/show.json', (input) => params({ id: input.eventId })),
    read2((input) => ({ method: 'GET', path: `/2/dm_events/${seg(input.eventId)}`, query: DM_EVENT_FIELDS }), (data, input) => asV1DmEvent(data, String(input.eventId))),
  ),
  delete_dm: { kind: 'write', api: 'v1.1', request: (input) => ({ method: 'DELETE', path: v1('direct_messages/events/destroy.json'), query: params({ id: input.eventId }) }), platformId: none },
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

/** The route an account goes through for `action`: a read's v2 route for an OAuth 2.0 account when it has one, else the action's route. */
export function routeFor(action: SocialAction, protocol: 'oauth1' | 'oauth2'): PlatformRoute {
  const definition = ACTIONS[action];
  return protocol === 'oauth2' && definition.oauth2 ? definition.oauth2 : definition;
}

/** The screen name to look up before the route can be called, or null when the input has the id already. */
export function userToLookUp(route: PlatformRoute, input: Input): string | null {
  if (!route.usersById || typeof input.userId === 'string') return null;
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
