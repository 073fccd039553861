import { InvalidActivity } from './errors';

const DIGITS = /^[0-9]{1,30}$/;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A platform id: digits as a string, or a non-negative integer (ids arrive both ways). */
export function platformId(value: unknown, field: string): string {
  if (value === undefined || value === null || value === '') throw new InvalidActivity(`${field} is missing`);
  if (typeof value === 'string' && DIGITS.test(value)) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  throw new InvalidActivity(`${field} must be a platform id (digits), got ${describe(value)}`);
}

/** Like platformId, but absent is fine. */
export function optionalPlatformId(value: unknown, field: string): string | null {
  return value === undefined || value === null || value === '' ? null : platformId(value, field);
}

/** Milliseconds since the epoch, as a string of digits or a number (`created_timestamp`). */
export function epochMillis(value: unknown, field: string): Date {
  if (value === undefined || value === null || value === '') throw new InvalidActivity(`${field} is missing`);
  const millis = typeof value === 'string' && /^[0-9]{1,16}$/.test(value) ? Number(value) : typeof value === 'number' ? value : Number.NaN;
  const date = new Date(millis);
  if (!Number.isSafeInteger(millis) || millis < 0 || Number.isNaN(date.getTime())) {
    throw new InvalidActivity(`${field} must be milliseconds since the epoch, got ${describe(value)}`);
  }
  return date;
}

export function requiredRecord(value: unknown, field: string): Record<string, unknown> {
  if (value === undefined || value === null) throw new InvalidActivity(`${field} is missing`);
  if (!isRecord(value)) throw new InvalidActivity(`${field} must be an object, got ${describe(value)}`);
  return value;
}

export function requiredString(value: unknown, field: string): string {
  if (value === undefined || value === null) throw new InvalidActivity(`${field} is missing`);
  if (typeof value !== 'string') throw new InvalidActivity(`${field} must be a string, got ${describe(value)}`);
  return value;
}

/** A short, safe rendering of a bad value for an error message. */
function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
