import type { ValidateFunction } from 'ajv';
import { ajv } from './ajv';
import { describeErrors, defineContract } from './envelope';

/**
 * Social commands: what another service asks auth to do on behalf of a connected account.
 * A command is published on `social.commands` (direct) with the action as routing key;
 * auth answers each with one result on `social.command-results` (topic), routing key
 * `<action>.succeeded` or `<action>.failed` (an unknown outcome goes with `failed`).
 */
export const SOCIAL_ACTIONS = [
  // timeline, lists, collections, profile, settings, followed accounts, subscribed lists
  'read_home_timeline',
  'read_user_timeline',
  'read_lists',
  'read_list_posts',
  'read_subscribed_lists',
  'read_collections',
  'read_collection_entries',
  'read_profile',
  'read_user',
  'read_settings',
  'read_following',
  // followed accounts, profile and settings
  'follow',
  'unfollow',
  'update_profile',
  'update_settings',
  // posts
  'post',
  'delete_post',
  'like',
  'unlike',
  'reply',
  'repost',
  // lists and collections
  'create_list',
  'update_list',
  'delete_list',
  'add_list_member',
  'remove_list_member',
  'create_collection',
  'update_collection',
  'delete_collection',
  'add_collection_entry',
  'remove_collection_entry',
  // mute, block, report
  'mute',
  'unmute',
  'block',
  'unblock',
  'report',
  // direct messages
  'send_dm',
  'read_dms',
  'read_dm',
  'delete_dm',
  'mark_dm_read',
  'indicate_typing',
] as const;

export type SocialAction = (typeof SOCIAL_ACTIONS)[number];

/** The platform's limits on text (posts count code points here, a simplification of weighted counting). */
const POST_MAX_LENGTH = 280;
const DM_MAX_LENGTH = 10_000;

const platformId = { type: 'string', pattern: '^[0-9]{1,20}$' } as const;
const screenName = { type: 'string', pattern: '^@?[A-Za-z0-9_]{1,15}$' } as const;
const collectionId = { type: 'string', pattern: '^custom-[0-9]{1,20}$' } as const;
/** Not blank: at least one character that is not white space. */
const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, pattern: '\\S' }) as const;
const count = (maximum: number) => ({ type: 'integer', minimum: 1, maximum }) as const;
const cursor = { type: 'string', pattern: '^-?[A-Za-z0-9_-]{1,200}$' } as const;

function object(properties: Record<string, unknown>, required: string[] = [], extra: Record<string, unknown> = {}) {
  return { type: 'object', additionalProperties: false, properties, required, ...extra };
}

/** A user named by id or by screen name (exactly one). */
const userTarget = { userId: platformId, screenName };
const oneUser = { oneOf: [{ required: ['userId'] }, { required: ['screenName'] }] };
const user = (more: Record<string, unknown> = {}, required: string[] = []) => object({ ...userTarget, ...more }, required, oneUser);

const page = { count: count(200), sinceId: platformId, maxId: platformId };

/** The input schema of each action (JSON Schema, checked by ajv on publish, on consume and by auth's HTTP API). */
const SOCIAL_ACTION_INPUT_SCHEMAS: Record<SocialAction, Record<string, unknown>> = {
  read_home_timeline: object(page),
  read_user_timeline: user(page),
  read_lists: object({}),
  read_list_posts: object({ listId: platformId, count: count(200) }, ['listId']),
  read_subscribed_lists: object({ count: count(1000), cursor }),
  read_collections: object({ count: count(200) }),
  read_collection_entries: object({ collectionId, count: count(200) }, ['collectionId']),
  read_profile: object({}),
  read_user: user(),
  read_settings: object({}),
  read_following: object({ count: count(200), cursor }),
  follow: user(),
  unfollow: user(),
  update_profile: object(
    {
      name: text(50),
      url: { type: 'string', maxLength: 100, pattern: '^https?://' },
      location: { type: 'string', maxLength: 30 },
      description: { type: 'string', maxLength: 160 },
    },
    [],
    { minProperties: 1 },
  ),
  update_settings: object(
    {
      lang: { type: 'string', pattern: '^[a-z]{2}(-[A-Za-z]{2,4})?$' },
      timeZone: { type: 'string', minLength: 1, maxLength: 64 },
      sleepTimeEnabled: { type: 'boolean' },
      startSleepTime: { type: 'integer', minimum: 0, maximum: 23 },
      endSleepTime: { type: 'integer', minimum: 0, maximum: 23 },
    },
    [],
    { minProperties: 1 },
  ),
  post: object({ text: text(POST_MAX_LENGTH) }, ['text']),
  delete_post: object({ postId: platformId }, ['postId']),
  like: object({ postId: platformId }, ['postId']),
  unlike: object({ postId: platformId }, ['postId']),
  reply: object({ inReplyToPostId: platformId, text: text(POST_MAX_LENGTH) }, ['inReplyToPostId', 'text']),
  repost: object({ postId: platformId }, ['postId']),
  create_list: object({ name: text(25), mode: { type: 'string', enum: ['public', 'private'] }, description: { type: 'string', maxLength: 100 } }, ['name']),
  update_list: object(
    { listId: platformId, name: text(25), mode: { type: 'string', enum: ['public', 'private'] }, description: { type: 'string', maxLength: 100 } },
    ['listId'],
    { minProperties: 2 },
  ),
  delete_list: object({ listId: platformId }, ['listId']),
  add_list_member: user({ listId: platformId }, ['listId']),
  remove_list_member: user({ listId: platformId }, ['listId']),
  create_collection: object(
    {
      name: text(25),
      description: { type: 'string', maxLength: 160 },
      timelineOrder: { type: 'string', enum: ['curation_reverse_chron', 'tweet_chron', 'tweet_reverse_chron'] },
    },
    ['name'],
  ),
  update_collection: object({ collectionId, name: text(25), description: { type: 'string', maxLength: 160 } }, ['collectionId'], { minProperties: 2 }),
  delete_collection: object({ collectionId }, ['collectionId']),
  add_collection_entry: object({ collectionId, postId: platformId }, ['collectionId', 'postId']),
  remove_collection_entry: object({ collectionId, postId: platformId }, ['collectionId', 'postId']),
  mute: user(),
  unmute: user(),
  block: user(),
  unblock: user(),
  report: user({ block: { type: 'boolean' } }),
  send_dm: object({ recipientId: platformId, text: text(DM_MAX_LENGTH) }, ['recipientId', 'text']),
  read_dms: object({ count: count(50), cursor }),
  read_dm: object({ eventId: platformId }, ['eventId']),
  delete_dm: object({ eventId: platformId }, ['eventId']),
  mark_dm_read: object({ recipientId: platformId, lastReadEventId: platformId }, ['recipientId', 'lastReadEventId']),
  indicate_typing: object({ recipientId: platformId }, ['recipientId']),
};

const inputValidators = new Map<SocialAction, ValidateFunction>(SOCIAL_ACTIONS.map((action) => [action, ajv.compile(SOCIAL_ACTION_INPUT_SCHEMAS[action])]));

/** The problems of an action's input, each naming the field (empty when valid). */
export function validateActionInput(action: SocialAction, input: unknown): string[] {
  const validate = inputValidators.get(action);
  if (!validate) return [`unknown action '${action}'`];
  return validate(input) ? [] : describeErrors(validate.errors, '/input');
}

export interface SocialCommandPayload {
  /** Chosen by the sender and unique per intended effect: auth never executes one id twice. */
  commandId: string;
  action: SocialAction;
  /** The connected account (platform user id) acting. */
  accountId: string;
  input: Record<string, unknown>;
  /** Echoed unchanged in the result, e.g. {"ticketId": "...", "activityId": "..."}. */
  context?: Record<string, string>;
}

const commandIdSchema = { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' } as const;
const contextSchema = { type: 'object', maxProperties: 10, additionalProperties: { type: 'string', maxLength: 200 } } as const;

export const SocialCommand = defineContract<SocialCommandPayload>('social.command.v1', {
  type: 'object',
  required: ['commandId', 'action', 'accountId', 'input'],
  additionalProperties: false,
  properties: {
    commandId: commandIdSchema,
    action: { type: 'string', enum: [...SOCIAL_ACTIONS] },
    accountId: platformId,
    input: { type: 'object' },
    context: contextSchema,
  },
  // The input is checked against its action's schema, so a bad command fails on publish.
  allOf: SOCIAL_ACTIONS.map((action) => ({
    if: { properties: { action: { const: action } }, required: ['action'] },
    then: { properties: { input: SOCIAL_ACTION_INPUT_SCHEMAS[action] } },
  })),
});

export type CommandOutcome = 'succeeded' | 'failed' | 'unknown';

/** Machine codes of failed and unknown results. */
const COMMAND_ERROR_CODES = [
  /** The input does not fit the action (HTTP only: commands are checked by their contract). */
  'invalid_input',
  /** auth holds no credentials for the account. */
  'account_not_connected',
  /** The platform refused the account's token (401 code 89): it must be connected again. */
  'reconnect_needed',
  /** Still rate limited after the last retry. */
  'rate_limited',
  /** The platform refused the request (a 4xx other than 401/429): see platformCode and message. */
  'platform_rejected',
  /** The platform failed (5xx) or could not be reached, after the last retry (reads). */
  'platform_unavailable',
  /** A send timed out or broke off after it left: it may or may not have happened, and is not sent again. */
  'outcome_unknown',
  /** The app's own credentials are refused (403 code 99): an operator must fix the configuration. */
  'configuration_error',
] as const;

export type CommandErrorCode = (typeof COMMAND_ERROR_CODES)[number];

export interface CommandError {
  code: CommandErrorCode;
  message: string;
  /** The platform's error code and HTTP status, when the platform answered. */
  platformCode: number | null;
  platformStatus: number | null;
}

export interface SocialCommandResultPayload {
  commandId: string;
  action: SocialAction;
  accountId: string;
  outcome: CommandOutcome;
  /**
   * The platform id of what the action created or acted on: the DM event id of `send_dm`
   * (the same id its echo delivery carries), the post id of `post`/`reply`/`repost`, the
   * list id of `create_list`, the collection id of `create_collection`; null otherwise.
   */
  platformId: string | null;
  /** The platform's answer (what was read, or the object written); null when failed. */
  data: unknown;
  error: CommandError | null;
  context?: Record<string, string>;
  completedAt: string;
}

export const SocialCommandResult = defineContract<SocialCommandResultPayload>('social.command-result.v1', {
  type: 'object',
  required: ['commandId', 'action', 'accountId', 'outcome', 'platformId', 'data', 'error', 'completedAt'],
  additionalProperties: false,
  properties: {
    commandId: commandIdSchema,
    action: { type: 'string', enum: [...SOCIAL_ACTIONS] },
    accountId: platformId,
    outcome: { type: 'string', enum: ['succeeded', 'failed', 'unknown'] },
    platformId: { type: ['string', 'null'], maxLength: 100 },
    data: {},
    error: {
      type: ['object', 'null'],
      required: ['code', 'message', 'platformCode', 'platformStatus'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', enum: [...COMMAND_ERROR_CODES] },
        message: { type: 'string', maxLength: 2000 },
        platformCode: { type: ['integer', 'null'] },
        platformStatus: { type: ['integer', 'null'] },
      },
    },
    context: contextSchema,
    completedAt: { type: 'string', format: 'date-time' },
  },
  if: { properties: { outcome: { const: 'succeeded' } } },
  then: { properties: { error: { type: 'null' } } },
  else: { properties: { error: { type: 'object' } } },
});

/** The routing key of a result on `social.command-results`. */
export function commandResultRoutingKey(action: SocialAction, outcome: CommandOutcome): string {
  return `${action}.${outcome === 'succeeded' ? 'succeeded' : 'failed'}`;
}
