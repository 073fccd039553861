/**
 * Text a database or a JSON peer cannot take: NUL (PostgreSQL refuses it in text and jsonb)
 * and UTF-16 halves without their pair (no valid UTF-8 exists for them). Every boundary
 * (HTTP requests, broker messages, the platform's answers) replaces them with U+FFFD and
 * keeps the rest, so bad characters never make a good message fail.
 */
const UNSTORABLE = new RegExp(String.raw`\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]`, 'g');

export const REPLACEMENT_CHARACTER = '\uFFFD';

export function cleanText(text: string): string {
  return text.replace(UNSTORABLE, REPLACEMENT_CHARACTER);
}

/** `value` with every string in it, object keys included, cleaned; the same value when nothing needed it. */
export function cleanJson<T>(value: T): T {
  if (typeof value === 'string') return cleanText(value) as T;
  if (Array.isArray(value)) return value.map((item) => cleanJson(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const cleaned: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) cleaned[cleanText(key)] = cleanJson(item);
  return cleaned as T;
}
