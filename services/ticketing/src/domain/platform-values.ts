import { InvalidActivity } from './errors';

const DIGITS = /^[0-9]{1,30}$/;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const absent = (value: unknown) => value === undefined || value === null || value === '';

/** A platform id: digits as a string, or a non-negative safe integer (ids arrive both ways). */
export function platformId(value: unknown, field: string): string {
  if (absent(value)) throw new InvalidActivity(`${field} is missing`);
  if (typeof value === 'string' && DIGITS.test(value)) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  // Large ids given only as JSON numbers have lost digits already: refuse rather than guess.
  throw new InvalidActivity(`${field} must be a platform id (digits), got ${describe(value)}`);
}

/** Like platformId, but absent is fine. */
export function optionalPlatformId(value: unknown, field: string): string | null {
  return absent(value) ? null : platformId(value, field);
}

/**
 * The id of a post or user object: `id_str` when present (the exact digits; a numeric `id`
 * above 2^53 is already rounded), else `id`.
 */
export function objectId(object: Record<string, unknown>, field: string, key = 'id'): string {
  const exact = object[`${key}_str`];
  return absent(exact) ? platformId(object[key], `${field}.${key}`) : platformId(exact, `${field}.${key}_str`);
}

export function optionalObjectId(object: Record<string, unknown>, field: string, key: string): string | null {
  const exact = object[`${key}_str`];
  return absent(exact) ? optionalPlatformId(object[key], `${field}.${key}`) : platformId(exact, `${field}.${key}_str`);
}

/** Milliseconds since the epoch, as a string of digits or a number (`created_timestamp`, `timestamp_ms`). */
export function epochMillis(value: unknown, field: string): Date {
  if (absent(value)) throw new InvalidActivity(`${field} is missing`);
  const millis = typeof value === 'string' && /^[0-9]{1,16}$/.test(value) ? Number(value) : typeof value === 'number' ? value : Number.NaN;
  const date = new Date(millis);
  if (!Number.isSafeInteger(millis) || millis < 0 || Number.isNaN(date.getTime())) {
    throw new InvalidActivity(`${field} must be milliseconds since the epoch, got ${describe(value)}`);
  }
  return date;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const PLATFORM_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) (\d{2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2}) (\d{4})$/;

/** The platform's `created_at` form: `Mon Nov 16 18:09:36 +0000 2020`. */
export function platformDate(value: unknown, field: string): Date {
  if (absent(value)) throw new InvalidActivity(`${field} is missing`);
  const match = typeof value === 'string' ? PLATFORM_DATE.exec(value) : null;
  const month = match ? MONTHS.indexOf(match[1]!) : -1;
  if (!match || month < 0) throw new InvalidActivity(`${field} must be a date like "Mon Nov 16 18:09:36 +0000 2020", got ${describe(value)}`);
  const [, , day, hours, minutes, seconds, sign, offsetHours, offsetMinutes, year] = match;
  const offset = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  return new Date(Date.UTC(Number(year), month, Number(day), Number(hours), Number(minutes) - offset, Number(seconds)));
}

/** An ISO 8601 date-time with its zone (`user_event` dates). */
export function isoDate(value: unknown, field: string): Date {
  if (absent(value)) throw new InvalidActivity(`${field} is missing`);
  const date = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) throw new InvalidActivity(`${field} must be an ISO 8601 date-time, got ${describe(value)}`);
  return date;
}

export function requiredRecord(value: unknown, field: string): Record<string, unknown> {
  if (value === undefined || value === null) throw new InvalidActivity(`${field} is missing`);
  if (!isRecord(value)) throw new InvalidActivity(`${field} must be an object, got ${describe(value)}`);
  return value;
}

export function optionalRecord(value: unknown, field: string): Record<string, unknown> | null {
  return value === undefined || value === null ? null : requiredRecord(value, field);
}

export function requiredString(value: unknown, field: string): string {
  if (value === undefined || value === null) throw new InvalidActivity(`${field} is missing`);
  if (typeof value !== 'string') throw new InvalidActivity(`${field} must be a string, got ${describe(value)}`);
  return value;
}

export function requiredArray(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) throw new InvalidActivity(`${field} is missing`);
  if (!Array.isArray(value)) throw new InvalidActivity(`${field} must be an array, got ${describe(value)}`);
  return value;
}

/** A non-blank string, or null. */
export function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** `true`/`false` as booleans or as the strings the platform sometimes sends; null otherwise. */
export function booleanish(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return null;
}

/** A short, safe rendering of a bad value for an error message. */
export function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  const rendered = JSON.stringify(value) ?? String(value);
  return rendered.length > 40 ? `${rendered.slice(0, 40)}…` : rendered;
}
