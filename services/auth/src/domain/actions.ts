import type { SocialAction } from '@crm/contracts';
import { PlatformRejected } from './platform-errors';

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

export interface ActionDefinition {
  kind: ActionKind;
  api: ApiVersion;
  /** The platform call for a validated input, made by `accountId`. */
  request: (input: Input, accountId: string) => PlatformRequest;
  /**
   * The platform id of what a write made or acted on, from the platform's answer and the input
   * (v2 answers to likes, relations and lists say only `{liked: true}` and the like: the id is the input's).
   */
  platformId: (data: unknown, input: Input) => string | null;
  /**
   * The v2 route names the target user by id: an input naming them by screen name is first
   * looked up (`userLookup`), and its id put in `userId`.
   */
  usersById?: true;
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

/** A list's settings as v2 takes them: `private` instead of v1.1's `mode`. */
const listFields = (input: Input) => body({ name: input.name, description: input.description, private: input.mode === undefined ? undefined : input.mode === 'private' });

/**
 * Every action and the platform call that carries it out. Writes the platform has a v2 route
 * for go through v2 (v1.1 is legacy, and OAuth 2.0 user tokens work only on v2); reads stay on
 * v1.1 because callers read their v1.1 answers (`id_str`, `screen_name`, statuses), and so do
 * writes v2 has no route for. docs/architecture.md (*The social platform*) shows the same table.
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
 * | every read (timelines, profile, users, settings, following, lists, collections, DMs, search) | v1.1 |
 * | update_profile, update_settings, report, collections, delete_dm, mark_dm_read, indicate_typing | v1.1 (no v2 route) |
 */
export const ACTIONS: Record<SocialAction, ActionDefinition> = {
  read_home_timeline: get('statuses/home_timeline.json', pageParams),
  read_user_timeline: get('statuses/user_timeline.json', (input) => ({ ...userParams(input), ...pageParams(input) })),
  read_lists: get('lists/list.json'),
  read_list_posts: get('lists/statuses.json', (input) => params({ list_id: input.listId, count: input.count })),
  read_subscribed_lists: get('lists/subscriptions.json', (input) => params({ count: input.count, cursor: input.cursor })),
  read_collections: get('collections/list.json', (input, accountId) => params({ user_id: accountId, count: input.count })),
  read_collection_entries: get('collections/entries.json', (input) => params({ id: input.collectionId, count: input.count })),
  // GET /2/users/me answers {id, name, username} only; callers read the v1.1 user object.
  read_profile: get('account/verify_credentials.json'),
  read_user: get('users/show.json', userParams),
  read_settings: get('account/settings.json'),
  read_following: get('friends/list.json', (input) => params({ count: input.count, cursor: input.cursor })),
  // Standard search: recent posts only, full text, newest first (v2's recent search answers another shape).
  search_posts: get('search/tweets.json', (input) =>
    params({ q: input.query, since_id: input.sinceId, count: input.count, result_type: input.resultType ?? 'recent', tweet_mode: 'extended' }),
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
  read_dms: get('direct_messages/events/list.json', (input) => params({ count: input.count, cursor: input.cursor })),
  read_dm: get('direct_messages/events/show.json', (input) => params({ id: input.eventId })),
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

/** The screen name to look up before the action can be sent, or null when the input has the id already. */
export function userToLookUp(action: SocialAction, input: Input): string | null {
  if (!ACTIONS[action].usersById || typeof input.userId === 'string') return null;
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
