import { Refusal } from '@crm/http';
import { resolveUser, UserRefError, type UserInput } from './users';
import type { Signing } from './delivery-log';

/** Checks of control API bodies; every failure is a 400 that names the field. */

export type Body = Record<string, unknown>;

export function invalid(field: string, problem: string): Refusal {
  return new Refusal('invalid', 'invalid_request', `\`${field}\` ${problem}`);
}

export function requireBody(value: unknown): Body {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Refusal('invalid', 'invalid_request', 'send a JSON object with content-type application/json');
  }
  return value as Body;
}

const isPlainObject = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A user reference: '@ana', 'ana', '1001', or {id?, screenName?, name?}. */
export function userRef(body: Body, field: string): UserInput {
  const value = body[field];
  if (value === undefined || value === null || value === '') throw invalid(field, 'is required: "@screen_name", a numeric id, or {id, screenName, name}');
  if (typeof value !== 'string' && !isPlainObject(value)) throw invalid(field, 'must be a string or an object');
  if (isPlainObject(value)) {
    for (const key of ['id', 'screenName', 'name']) {
      if (value[key] !== undefined && typeof value[key] !== 'string') throw invalid(`${field}.${key}`, 'must be a string');
    }
  }
  try {
    return resolveUser(value as string | UserInput);
  } catch (error) {
    if (error instanceof UserRefError) throw invalid(field, error.message);
    throw error;
  }
}

/** The platform's limit for one DM's text. */
const MAX_DM_LENGTH = 10_000;

export function dmText(body: Body): string {
  const text = body.text;
  if (typeof text !== 'string' || text.trim() === '') throw invalid('text', 'must be a non-empty string');
  if ([...text].length > MAX_DM_LENGTH) throw invalid('text', `must be at most ${MAX_DM_LENGTH} characters`);
  return text;
}

export function optionalEventId(body: Body): string | undefined {
  const value = body.eventId;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !/^[0-9]{1,20}$/.test(value)) throw invalid('eventId', 'must be a string of digits');
  return value;
}

export function optionalUrl(body: Body, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)) return value;
  throw invalid(field, 'must be an http or https URL');
}

/** `signature`: "wrong" signs with another secret, "none" sends no header; otherwise the right one. */
export function signing(body: Body): Signing {
  const value = body.signature;
  if (value === undefined || value === null || value === 'valid') return 'valid';
  if (value === 'wrong' || value === 'none') return value;
  throw invalid('signature', 'must be "valid", "wrong" or "none"');
}

/** An optional non-empty text field (post text, ...). */
export function optionalText(body: Body, field: string, maxLength: number): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw invalid(field, 'must be a non-empty string');
  if ([...value].length > maxLength) throw invalid(field, `must be at most ${maxLength} characters`);
  return value;
}

export function optionalBoolean(body: Body, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalid(field, 'must be true or false');
  return value;
}

/** A platform id given as a string of digits. */
export function optionalDigits(body: Body, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !/^[0-9]{1,20}$/.test(value)) throw invalid(field, 'must be a string of digits');
  return value;
}

/** When the event happened: an ISO date-time or milliseconds since the epoch. */
export function optionalTime(body: Body, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  const ms = typeof value === 'number' ? value : typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms < 0) throw invalid(field, 'must be an ISO date-time or milliseconds since the epoch');
  return ms;
}

/** Runs checks of a nested object, naming its fields `outer.inner` in errors. */
function within<T>(field: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof Refusal && error.message.startsWith('`')) throw new Refusal('invalid', 'invalid_request', `\`${field}.${error.message.slice(1)}`);
    throw error;
  }
}

/** A post another event refers to: {id, author?, text?}; `author` defaults as the caller says. */
export function optionalPostRef(body: Body, field: string): { id: string; author?: UserInput; text?: string } | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) throw invalid(field, 'must be an object {id, author?, text?}');
  return within(field, () => {
    const id = optionalDigits(value, 'id');
    if (!id) throw invalid('id', 'is required: the post id (digits)');
    const author = value.author === undefined ? undefined : userRef(value, 'author');
    const text = optionalText(value, 'text', 10_000);
    return { id, ...(author ? { author } : {}), ...(text ? { text } : {}) };
  });
}

/** A media attachment {type?, url}. */
export function optionalMedia(body: Body, field: string): { type?: 'photo' | 'video' | 'animated_gif'; url: string } | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) throw invalid(field, 'must be an object {type?, url}');
  return within(field, () => {
    const url = optionalUrl(value, 'url');
    if (!url) throw invalid('url', 'is required: an http or https URL');
    const type = value.type;
    if (type !== undefined && type !== 'photo' && type !== 'video' && type !== 'animated_gif') throw invalid('type', 'must be "photo", "video" or "animated_gif"');
    return { url, ...(type ? { type } : {}) };
  });
}

/** `api`: which of the platform's webhook APIs the delivery is shaped for: "aaa" (Account Activity, the default) or "xaa" (X Activity API). */
export function deliveryApi(body: Body): 'aaa' | 'xaa' {
  const value = body.api;
  if (value === undefined || value === null || value === 'aaa') return 'aaa';
  if (value === 'xaa') return 'xaa';
  throw invalid('api', 'must be "aaa" or "xaa"');
}
