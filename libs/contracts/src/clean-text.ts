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

/** Deeper than this, cleaning refuses the value rather than risk the call stack (bodies are checked far below it first). */
const MAX_CLEAN_DEPTH = 1000;

/** `value` with every string in it, object keys included, cleaned. Throws RangeError past MAX_CLEAN_DEPTH levels. */
export function cleanJson<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return cleanText(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_CLEAN_DEPTH) throw new RangeError(`JSON nested deeper than ${MAX_CLEAN_DEPTH} levels`);
  if (Array.isArray(value)) return value.map((item) => cleanJson(item, depth + 1)) as T;
  const cleaned: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) cleaned[cleanText(key)] = cleanJson(item, depth + 1);
  return cleaned as T;
}
