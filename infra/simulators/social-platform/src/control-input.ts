import { HttpError } from '@crm/http';
import { resolveUser, UserRefError, type UserInput } from './users';
import type { Signing } from './delivery-log';

/** Checks of control API bodies; every failure is a 400 that names the field. */

export type Body = Record<string, unknown>;

export function invalid(field: string, problem: string): HttpError {
  return new HttpError(400, 'invalid_request', `\`${field}\` ${problem}`);
}

export function requireBody(value: unknown): Body {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'invalid_request', 'send a JSON object with content-type application/json');
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
