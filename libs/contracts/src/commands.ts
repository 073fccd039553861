import { Type, type ObjectOptions, type Static, type TProperties, type TSchema } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { ajv } from './ajv';
import { describeErrors, defineContract } from './envelope';
import { AnyObject, Nullable, StringEnum } from './schema';

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
  // standard search of recent posts
  'search_posts',
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
  // direct messages, and the images they carry
  'upload_media',
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
/** The platform takes images of at most 5 MB in a DM. */
export const DM_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/**
 * What upload_media's input may hold, base64 (4 characters for every 3 bytes) of 8 MB: above the
 * platform's limit, so that auth can tell a person their image is too large, and by how much.
 */
const MEDIA_MAX_BASE64 = Math.ceil((8 * 1024 * 1024) / 3) * 4;

const platformId = Type.String({ pattern: '^[0-9]{1,20}$' });
const screenName = Type.String({ pattern: '^@?[A-Za-z0-9_]{1,15}$' });
const collectionId = Type.String({ pattern: '^custom-[0-9]{1,20}$' });
/** Not blank: at least one character that is not white space. */
const text = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '\\S' });
const count = (maximum: number) => Type.Integer({ minimum: 1, maximum });
const cursor = Type.String({ pattern: '^-?[A-Za-z0-9_-]{1,200}$' });
const listMode = StringEnum(['public', 'private']);

function object<P extends TProperties>(properties: P, extra: ObjectOptions = {}) {
  return Type.Object(properties, { additionalProperties: false, ...extra });
}

/** A user named by id or by screen name (exactly one). */
const userTarget = { userId: Type.Optional(platformId), screenName: Type.Optional(screenName) };
const oneUser = { oneOf: [{ required: ['userId'] }, { required: ['screenName'] }] };
const user = <P extends TProperties>(more: P = {} as P) => object({ ...userTarget, ...more }, oneUser);

const page = { count: Type.Optional(count(200)), sinceId: Type.Optional(platformId), maxId: Type.Optional(platformId) };

/** The input schema of each action (checked by ajv on publish, on consume and by auth's HTTP API). */
export const SOCIAL_ACTION_INPUT_SCHEMAS = {
  read_home_timeline: object(page),
  read_user_timeline: user(page),
  read_lists: object({}),
  read_list_posts: object({ listId: platformId, count: Type.Optional(count(200)) }),
  read_subscribed_lists: object({ count: Type.Optional(count(1000)), cursor: Type.Optional(cursor) }),
  read_collections: object({ count: Type.Optional(count(200)) }),
  read_collection_entries: object({ collectionId, count: Type.Optional(count(200)) }),
  read_profile: object({}),
  read_user: user(),
  read_settings: object({}),
  read_following: object({ count: Type.Optional(count(200)), cursor: Type.Optional(cursor) }),
  search_posts: object({ query: text(500), sinceId: Type.Optional(platformId), count: Type.Optional(count(100)), resultType: Type.Optional(StringEnum(['recent'])) }),
  follow: user(),
  unfollow: user(),
  update_profile: object(
    {
      name: Type.Optional(text(50)),
      url: Type.Optional(Type.String({ maxLength: 100, pattern: '^https?://' })),
      location: Type.Optional(Type.String({ maxLength: 30 })),
      description: Type.Optional(Type.String({ maxLength: 160 })),
    },
    { minProperties: 1 },
  ),
  update_settings: object(
    {
      lang: Type.Optional(Type.String({ pattern: '^[a-z]{2}(-[A-Za-z]{2,4})?$' })),
      timeZone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      sleepTimeEnabled: Type.Optional(Type.Boolean()),
      startSleepTime: Type.Optional(Type.Integer({ minimum: 0, maximum: 23 })),
      endSleepTime: Type.Optional(Type.Integer({ minimum: 0, maximum: 23 })),
    },
    { minProperties: 1 },
  ),
  post: object({ text: text(POST_MAX_LENGTH) }),
  delete_post: object({ postId: platformId }),
  like: object({ postId: platformId }),
  unlike: object({ postId: platformId }),
  reply: object({ inReplyToPostId: platformId, text: text(POST_MAX_LENGTH) }),
  repost: object({ postId: platformId }),
  create_list: object({ name: text(25), mode: Type.Optional(listMode), description: Type.Optional(Type.String({ maxLength: 100 })) }),
  update_list: object(
    { listId: platformId, name: Type.Optional(text(25)), mode: Type.Optional(listMode), description: Type.Optional(Type.String({ maxLength: 100 })) },
    { minProperties: 2 },
  ),
  delete_list: object({ listId: platformId }),
  add_list_member: user({ listId: platformId }),
  remove_list_member: user({ listId: platformId }),
  create_collection: object({
    name: text(25),
    description: Type.Optional(Type.String({ maxLength: 160 })),
    timelineOrder: Type.Optional(StringEnum(['curation_reverse_chron', 'tweet_chron', 'tweet_reverse_chron'])),
  }),
  update_collection: object({ collectionId, name: Type.Optional(text(25)), description: Type.Optional(Type.String({ maxLength: 160 })) }, { minProperties: 2 }),
  delete_collection: object({ collectionId }),
  add_collection_entry: object({ collectionId, postId: platformId }),
  remove_collection_entry: object({ collectionId, postId: platformId }),
  mute: user(),
  unmute: user(),
  block: user(),
  unblock: user(),
  report: user({ block: Type.Optional(Type.Boolean()) }),
  upload_media: object({
    media: Type.String({ minLength: 4, maxLength: MEDIA_MAX_BASE64, pattern: '^[A-Za-z0-9+/]+={0,2}$', description: 'The image (JPEG, PNG, WEBP or GIF, at most 5 MB), base64-encoded.' }),
  }),
  // Text, an uploaded image (the media id upload_media answered), or both.
  send_dm: object({ recipientId: platformId, text: Type.Optional(text(DM_MAX_LENGTH)), mediaId: Type.Optional(platformId) }, { anyOf: [{ required: ['text'] }, { required: ['mediaId'] }] }),
  read_dms: object({ count: Type.Optional(count(50)), cursor: Type.Optional(cursor) }),
  read_dm: object({ eventId: platformId }),
  delete_dm: object({ eventId: platformId }),
  mark_dm_read: object({ recipientId: platformId, lastReadEventId: platformId }),
  indicate_typing: object({ recipientId: platformId }),
} satisfies Record<SocialAction, TSchema>;

/** The input of `action`, as its schema describes it. */
export type SocialActionInput<A extends SocialAction> = Static<(typeof SOCIAL_ACTION_INPUT_SCHEMAS)[A]>;

const inputValidators = new Map<SocialAction, ValidateFunction>(SOCIAL_ACTIONS.map((action) => [action, ajv.compile(SOCIAL_ACTION_INPUT_SCHEMAS[action])]));

/** The problems of an action's input, each naming the field (empty when valid). */
export function validateActionInput(action: SocialAction, input: unknown): string[] {
  const validate = inputValidators.get(action);
  if (!validate) return [`unknown action '${action}'`];
  return validate(input) ? [] : describeErrors(validate.errors, '/input');
}

const commandIdSchema = Type.String({ pattern: '^[A-Za-z0-9._:-]{1,128}$', description: 'Chosen by the sender and unique per intended effect: auth never executes one id twice.' });
const contextSchema = Type.Record(Type.String(), Type.String({ maxLength: 200 }), {
  maxProperties: 10,
  description: 'Echoed unchanged in the result, e.g. {"ticketId": "...", "activityId": "..."}.',
});
const actionSchema = StringEnum(SOCIAL_ACTIONS);

export const SocialCommandPayloadSchema = Type.Object(
  {
    commandId: commandIdSchema,
    action: actionSchema,
    accountId: Type.String({ pattern: '^[0-9]{1,20}$', description: 'The connected account (platform user id) acting.' }),
    input: AnyObject({ description: "The action's input (the schema of the action's own)." }),
    context: Type.Optional(contextSchema),
  },
  {
    additionalProperties: false,
    description: 'What another service asks auth to do on behalf of a connected account.',
    // The input is checked against its action's schema, so a bad command fails on publish.
    allOf: SOCIAL_ACTIONS.map((action) => ({
      if: { properties: { action: { const: action } }, required: ['action'] },
      then: { properties: { input: SOCIAL_ACTION_INPUT_SCHEMAS[action] } },
    })),
  },
);
export type SocialCommandPayload = Static<typeof SocialCommandPayloadSchema>;
export const SocialCommand = defineContract('social.command.v1', SocialCommandPayloadSchema);

export const COMMAND_OUTCOMES = ['succeeded', 'failed', 'unknown'] as const;
export type CommandOutcome = (typeof COMMAND_OUTCOMES)[number];

/** Machine codes of failed and unknown results. */
const COMMAND_ERROR_CODES = [
  /** The input does not fit the action (HTTP only: commands are checked by their contract). */
  'invalid_input',
  /** auth holds no credentials for the account. */
  'account_not_connected',
  /** The platform refused the account's token (401 code 89): it must be connected again. */
  'reconnect_needed',
  /** The action has only a v1.1 route, which takes OAuth 1.0a only, and the account is connected with OAuth 2.0. */
  'needs_oauth1',
  /** Still rate limited after the last retry. */
  'rate_limited',
  /** The platform's monthly usage cap for the app is used up (429 `usage-capped`): not retried; the message names the reset time when the platform gave one. */
  'usage_capped',
  /** The app's prepaid credits on the platform are spent (402 `credits-depleted`): not retried until credits are added. */
  'credits_depleted',
  /** The account's monthly budget is spent: auth refuses its optional calls (or every call, with `stopEssential`) until the budget is raised or the month turns. */
  'budget_exhausted',
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

const CommandErrorSchema = Type.Object(
  {
    code: StringEnum(COMMAND_ERROR_CODES),
    message: Type.String({ maxLength: 2000 }),
    platformCode: Nullable(Type.Integer({ description: "The platform's error code, when the platform answered." })),
    platformStatus: Nullable(Type.Integer({ description: "The platform's HTTP status, when the platform answered." })),
  },
  { additionalProperties: false },
);
export type CommandError = Static<typeof CommandErrorSchema>;

export const SocialCommandResultPayloadSchema = Type.Object(
  {
    commandId: commandIdSchema,
    action: actionSchema,
    accountId: platformId,
    outcome: StringEnum(COMMAND_OUTCOMES),
    platformId: Nullable(
      Type.String({
        maxLength: 100,
        description:
          'The platform id of what the action created or acted on: the DM event id of `send_dm` (the same id its echo delivery carries), the media id of `upload_media`, the post id of `post`/`reply`/`repost` (the new post) and of `like`/`unlike`/`delete_post`, the user id of `follow`/`block`/`mute` and their undoing, the list id of the list actions, the collection id of `create_collection`; null otherwise.',
      }),
    ),
    data: Type.Unknown({
      description:
        "The platform's answer, as the platform gave it; null when failed. Reads and the writes without a v2 route answer v1.1 objects (what was read, or the object written); writes through v2 answer v2's `{data: {...}}` (e.g. `{data: {id, text}}` for a post, `{data: {dm_event_id, dm_conversation_id}}` for a DM, `{data: {liked: true}}`).",
    }),
    error: Nullable(CommandErrorSchema),
    context: Type.Optional(contextSchema),
    completedAt: Type.String({ format: 'date-time' }),
  },
  {
    additionalProperties: false,
    description: 'The outcome of one social command.',
    if: { properties: { outcome: { const: 'succeeded' } } },
    then: { properties: { error: { type: 'null' } } },
    else: { properties: { error: { type: 'object' } } },
  },
);
export type SocialCommandResultPayload = Static<typeof SocialCommandResultPayloadSchema>;
export const SocialCommandResult = defineContract('social.command-result.v1', SocialCommandResultPayloadSchema);

/** The routing key of a result on `social.command-results`. */
export function commandResultRoutingKey(action: SocialAction, outcome: CommandOutcome): string {
  return `${action}.${outcome === 'succeeded' ? 'succeeded' : 'failed'}`;
}
