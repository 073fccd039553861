import { ajv, TRACKING_CLIENT_ID_PATTERN, TRACKING_FOLLOWER_PATTERN, TRACKING_INCLUDE_PATTERN, TRACKING_MAX_INCLUDES, TRACKING_TASK_ID_PATTERN } from '@crm/contracts';
import { Refusal } from '@crm/http';
import type { ClientSettings } from '../adapters/clients-store';
import { describeFieldErrors, fieldErrors } from '../domain/field-errors';

const CLIENT_ID = new RegExp(TRACKING_CLIENT_ID_PATTERN);
const TASK_ID = new RegExp(TRACKING_TASK_ID_PATTERN);
const INCLUDE = new RegExp(TRACKING_INCLUDE_PATTERN);

const invalid = (message: string) => new Refusal('invalid', 'invalid_parameter', message);

export function clientIdParam(value: string): string {
  if (!CLIENT_ID.test(value)) throw invalid('clientId must be 1-64 of A-Z a-z 0-9 . _ -, starting with a letter or digit');
  return value;
}

export function taskIdParam(value: string): string {
  if (!TASK_ID.test(value)) throw invalid('taskId must be 1-128 of A-Z a-z 0-9 . _ : -, starting with a letter or digit');
  return value;
}

/** `?include=a,b`: extra field groups of the task record. */
export function includeParam(query: Record<string, unknown>): string[] {
  const value = query.include;
  if (value === undefined || value === '') return [];
  if (typeof value !== 'string') throw invalid('include must be given once, as a comma-separated list');
  const names = [...new Set(value.split(',').map((name) => name.trim()).filter(Boolean))];
  const bad = names.find((name) => !INCLUDE.test(name));
  if (bad !== undefined) throw invalid(`include holds "${bad.slice(0, 70)}", which is not a field group name (letters, digits, . _ -)`);
  if (names.length > TRACKING_MAX_INCLUDES) throw invalid(`include may list at most ${TRACKING_MAX_INCLUDES} field groups`);
  return names;
}

const validateClientSettings = ajv.compile<ClientSettings>({
  type: 'object',
  required: ['enabled'],
  additionalProperties: false,
  properties: {
    enabled: { type: 'boolean' },
    apiKey: { type: 'string', minLength: 8, maxLength: 512 },
    include: { type: 'array', maxItems: TRACKING_MAX_INCLUDES, items: { type: 'string', pattern: TRACKING_INCLUDE_PATTERN } },
    pushSecret: { type: 'string', minLength: 16, maxLength: 512 },
  },
});

/** The body of `PUT /v1/clients/:clientId`; a bad one answers 400 naming each bad field. */
export function clientSettingsBody(body: unknown): ClientSettings {
  if (!validateClientSettings(body)) throw new Refusal('invalid', 'invalid_client', describeFieldErrors(fieldErrors(validateClientSettings.errors)));
  return { enabled: body.enabled, apiKey: body.apiKey, include: [...new Set(body.include ?? [])], pushSecret: body.pushSecret };
}

const FOLLOWER = new RegExp(TRACKING_FOLLOWER_PATTERN);

export function followerParam(value: string): string {
  if (!FOLLOWER.test(value)) throw invalid('follower must be 1-128 of A-Z a-z 0-9 . _ : -, starting with a letter or digit');
  return value;
}
