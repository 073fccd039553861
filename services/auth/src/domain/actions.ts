import type { SocialAction } from '@crm/contracts';

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

export interface ActionDefinition {
  kind: ActionKind;
  /** The platform call for a validated input, made by `accountId`. */
  request: (input: Input, accountId: string) => PlatformRequest;
}

type Input = Record<string, unknown>;

/** Parameters with the undefined ones left out and every value as the string the platform wants. */
function params(values: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== null) out[key] = String(value);
  return out;
}

const userParams = (input: Input) => params({ user_id: input.userId, screen_name: typeof input.screenName === 'string' ? input.screenName.replace(/^@/, '') : undefined });
const pageParams = (input: Input) => params({ count: input.count, since_id: input.sinceId, max_id: input.maxId });
const v = (path: string) => `/1.1/${path}`;

const get = (path: string, query: (input: Input, accountId: string) => Record<string, string> = () => ({})): ActionDefinition => ({
  kind: 'read',
  request: (input, accountId) => ({ method: 'GET', path: v(path), query: query(input, accountId) }),
});

const post = (path: string | ((input: Input) => string), form: (input: Input) => Record<string, string> = () => ({})): ActionDefinition => ({
  kind: 'write',
  request: (input) => ({ method: 'POST', path: v(typeof path === 'string' ? path : path(input)), form: form(input) }),
});

const idPath = (template: string, field: string) => (input: Input) => template.replace(':id', encodeURIComponent(String(input[field])));

/** Every action of the seed, as the v1.1 call that carries it out. */
export const ACTIONS: Record<SocialAction, ActionDefinition> = {
  read_home_timeline: get('statuses/home_timeline.json', pageParams),
  read_user_timeline: get('statuses/user_timeline.json', (input) => ({ ...userParams(input), ...pageParams(input) })),
  read_lists: get('lists/list.json'),
  read_list_posts: get('lists/statuses.json', (input) => params({ list_id: input.listId, count: input.count })),
  read_subscribed_lists: get('lists/subscriptions.json', (input) => params({ count: input.count, cursor: input.cursor })),
  read_collections: get('collections/list.json', (input, accountId) => params({ user_id: accountId, count: input.count })),
  read_collection_entries: get('collections/entries.json', (input) => params({ id: input.collectionId, count: input.count })),
  read_profile: get('account/verify_credentials.json'),
  read_user: get('users/show.json', userParams),
  read_settings: get('account/settings.json'),
  read_following: get('friends/list.json', (input) => params({ count: input.count, cursor: input.cursor })),
  // Standard search: recent posts only, full text, newest first.
  search_posts: get('search/tweets.json', (input) =>
    params({ q: input.query, since_id: input.sinceId, count: input.count, result_type: input.resultType ?? 'recent', tweet_mode: 'extended' }),
  ),

  follow: post('friendships/create.json', userParams),
  unfollow: post('friendships/destroy.json', userParams),
  update_profile: post('account/update_profile.json', (input) => params({ name: input.name, url: input.url, location: input.location, description: input.description })),
  update_settings: post('account/settings.json', (input) =>
    params({ lang: input.lang, time_zone: input.timeZone, sleep_time_enabled: input.sleepTimeEnabled, start_sleep_time: input.startSleepTime, end_sleep_time: input.endSleepTime }),
  ),

  post: post('statuses/update.json', (input) => params({ status: input.text })),
  delete_post: post(idPath('statuses/destroy/:id.json', 'postId')),
  like: post('favorites/create.json', (input) => params({ id: input.postId })),
  unlike: post('favorites/destroy.json', (input) => params({ id: input.postId })),
  // The reply threads under the post; the platform adds the @mentions of the thread itself.
  reply: post('statuses/update.json', (input) => params({ status: input.text, in_reply_to_status_id: input.inReplyToPostId, auto_populate_reply_metadata: true })),
  repost: post(idPath('statuses/retweet/:id.json', 'postId')),

  create_list: post('lists/create.json', (input) => params({ name: input.name, mode: input.mode, description: input.description })),
  update_list: post('lists/update.json', (input) => params({ list_id: input.listId, name: input.name, mode: input.mode, description: input.description })),
  delete_list: post('lists/destroy.json', (input) => params({ list_id: input.listId })),
  add_list_member: post('lists/members/create.json', (input) => ({ list_id: String(input.listId), ...userParams(input) })),
  remove_list_member: post('lists/members/destroy.json', (input) => ({ list_id: String(input.listId), ...userParams(input) })),
  create_collection: post('collections/create.json', (input) => params({ name: input.name, description: input.description, timeline_order: input.timelineOrder })),
  update_collection: post('collections/update.json', (input) => params({ id: input.collectionId, name: input.name, description: input.description })),
  delete_collection: post('collections/destroy.json', (input) => params({ id: input.collectionId })),
  add_collection_entry: post('collections/entries/add.json', (input) => params({ id: input.collectionId, tweet_id: input.postId })),
  remove_collection_entry: post('collections/entries/remove.json', (input) => params({ id: input.collectionId, tweet_id: input.postId })),

  mute: post('mutes/users/create.json', userParams),
  unmute: post('mutes/users/destroy.json', userParams),
  block: post('blocks/create.json', userParams),
  unblock: post('blocks/destroy.json', userParams),
  report: post('users/report_spam.json', (input) => ({ ...userParams(input), ...params({ perform_block: input.block }) })),

  send_dm: {
    kind: 'write',
    request: (input) => ({
      method: 'POST',
      path: v('direct_messages/events/new.json'),
      json: { event: { type: 'message_create', message_create: { target: { recipient_id: input.recipientId }, message_data: { text: input.text } } } },
    }),
  },
  read_dms: get('direct_messages/events/list.json', (input) => params({ count: input.count, cursor: input.cursor })),
  read_dm: get('direct_messages/events/show.json', (input) => params({ id: input.eventId })),
  delete_dm: { kind: 'write', request: (input) => ({ method: 'DELETE', path: v('direct_messages/events/destroy.json'), query: params({ id: input.eventId }) }) },
  mark_dm_read: post('direct_messages/mark_read.json', (input) => params({ last_read_event_id: input.lastReadEventId, recipient_id: input.recipientId })),
  indicate_typing: post('direct_messages/indicate_typing.json', (input) => params({ recipient_id: input.recipientId })),
};

/**
 * The platform id of what a write created or acted on: a DM's event id, a post's, list's or
 * user's `id_str`, a collection's timeline id. Null for reads and empty answers.
 */
export function platformIdOf(kind: ActionKind, data: unknown): string | null {
  if (kind === 'read' || typeof data !== 'object' || data === null) return null;
  const record = data as { id_str?: unknown; event?: { id?: unknown }; response?: { timeline_id?: unknown } };
  const id = record.event?.id ?? record.id_str ?? record.response?.timeline_id;
  return typeof id === 'string' ? id : null;
}
