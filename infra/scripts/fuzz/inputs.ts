/**
 * What a stranger might send: hostile values for paths, queries and bodies, drawn from a
 * seeded generator so a round can be repeated (`--seed`). Each value carries the tags of
 * what makes it hostile, so findings can be grouped by cause.
 */

export type Tag = 'nul' | 'surrogate' | 'utf8' | 'sql' | 'path' | 'json' | 'proto' | 'number' | 'long' | 'deep' | 'huge' | 'encoding' | 'type' | 'ssrf';

export interface Hostile<T> {
  value: T;
  tags: Tag[];
}

/** xorshift32: small, fast, seedable (a round is repeated with the same seed). */
export function randomSource(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

export class Draw {
  constructor(readonly random: () => number) {}
  chance(p: number): boolean {
    return this.random() < p;
  }
  int(max: number): number {
    return Math.floor(this.random() * max);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

/** Path and query values, already percent-encoded as they go on the wire. */
const WIRE_VALUES: Hostile<string>[] = [
  { value: '%2e%2e', tags: ['path'] },
  { value: '%2e', tags: ['path'] },
  { value: '..%2f..%2fetc%2fpasswd', tags: ['path'] },
  { value: '%252e%252e', tags: ['path'] },
  { value: '%C0%AE%C0%AE', tags: ['utf8', 'path'] },
  { value: '%00', tags: ['nul'] },
  { value: 'abc%00def', tags: ['nul'] },
  { value: '%ED%A0%80', tags: ['surrogate', 'utf8'] },
  { value: '%FF%FE', tags: ['utf8'] },
  { value: '%E2%80%AE', tags: ['utf8'] },
  { value: "1'%20OR%20'1'%3D'1", tags: ['sql'] },
  { value: '1%3B%20DROP%20TABLE%20tickets%3B--', tags: ['sql'] },
  { value: '%25', tags: ['utf8'] },
  { value: '%', tags: ['utf8'] },
  { value: '__proto__', tags: ['proto'] },
  { value: 'constructor', tags: ['proto'] },
  { value: '-1', tags: ['number'] },
  { value: '1e309', tags: ['number'] },
  { value: '9'.repeat(400), tags: ['number', 'long'] },
  { value: 'NaN', tags: ['number'] },
  { value: '0x10', tags: ['number'] },
  { value: 'a'.repeat(5000), tags: ['long'] },
  { value: '%7B%22%24ne%22%3Anull%7D', tags: ['json'] },
  { value: '', tags: ['type'] },
];

/** String values for JSON bodies (escaped by JSON.stringify, or written raw where noted). */
const STRING_VALUES: Hostile<string>[] = [
  { value: '\u0000', tags: ['nul'] },
  { value: 'before\u0000after', tags: ['nul'] },
  { value: '\ud800', tags: ['surrogate'] },
  { value: 'x\udc00y', tags: ['surrogate'] },
  { value: "' OR 1=1 --", tags: ['sql'] },
  { value: "'); DROP TABLE tickets; --", tags: ['sql'] },
  { value: '../../../../etc/passwd', tags: ['path'] },
  { value: '..', tags: ['path'] },
  { value: '<script>alert(1)</script>', tags: ['json'] },
  { value: '{"$ne":null}', tags: ['json'] },
  { value: '\u202e\ufeff', tags: ['utf8'] },
  { value: 'x'.repeat(100_000), tags: ['long'] },
  { value: '', tags: ['type'] },
];

const NUMBER_VALUES: Hostile<unknown>[] = [
  { value: -1, tags: ['number'] },
  { value: 1e30, tags: ['number'] },
  { value: 1.5, tags: ['number'] },
  { value: Number.MAX_SAFE_INTEGER + 2, tags: ['number'] },
  { value: -0, tags: ['number'] },
];

const PLAIN_VALUES = ['1001', '42', 'demo', 'a-1', 'open', 'inbox', 'test', '2026-01-01T00:00:00Z', '4337869213'];
export const FIELD_NAMES = [
  'accountId', 'text', 'pageName', 'queue', 'folder', 'status', 'enabled', 'apiKey', 'include', 'taskId', 'clientId', 'orderId', 'assignee',
  'accessToken', 'accessTokenSecret', 'ownerAccountId', 'url', 'limit', 'cursor', 'for_user_id', 'direct_message_events', 'user_event', '__proto__', 'constructor',
];

export function wireValue(d: Draw): Hostile<string> {
  return d.chance(0.35) ? { value: d.pick(PLAIN_VALUES), tags: [] } : d.pick(WIRE_VALUES);
}

function scalar(d: Draw): Hostile<unknown> {
  const roll = d.int(6);
  if (roll === 0) return d.pick(NUMBER_VALUES);
  if (roll === 1) return { value: d.pick([true, false, null]), tags: ['type'] };
  if (roll === 2) return { value: d.pick(PLAIN_VALUES), tags: [] };
  return d.pick(STRING_VALUES);
}

/** A JSON value up to `depth` deep, with the tags of every hostile part. */
export function jsonValue(d: Draw, depth = 3): Hostile<unknown> {
  if (depth === 0 || d.chance(0.4)) return scalar(d);
  const tags = new Set<Tag>();
  const add = (h: Hostile<unknown>) => {
    h.tags.forEach((t) => tags.add(t));
    return h.value;
  };
  if (d.chance(0.3)) return { value: Array.from({ length: d.int(4) }, () => add(jsonValue(d, depth - 1))), tags: [...tags] };
  const object: Record<string, unknown> = {};
  for (let i = d.int(5); i >= 0; i -= 1) object[d.pick(FIELD_NAMES)] = add(jsonValue(d, depth - 1));
  return { value: object, tags: [...tags] };
}

export interface Body {
  bytes: Buffer;
  contentType: string;
  tags: Tag[];
}

/** A request body: JSON (plain or hostile), text nested thousands deep, invalid JSON, an oversized one, or raw bytes. */
export function body(d: Draw, template?: () => unknown): Body {
  const json = (value: unknown, tags: Tag[]): Body => ({ bytes: Buffer.from(JSON.stringify(value) ?? 'null'), contentType: 'application/json', tags });
  const roll = d.int(20);
  if (roll === 0) return { bytes: Buffer.from(`${'['.repeat(5000)}${']'.repeat(5000)}`), contentType: 'application/json', tags: ['deep'] };
  if (roll === 1) return { bytes: Buffer.from(`{"a":${'{"a":'.repeat(3000)}1${'}'.repeat(3001)}`), contentType: 'application/json', tags: ['deep'] };
  if (roll === 2) return { bytes: Buffer.from('{"text":"unterminated'), contentType: 'application/json', tags: ['json'] };
  if (roll === 3) return { bytes: Buffer.alloc(2 * 1024 * 1024 + 1, 0x20), contentType: 'application/json', tags: ['huge'] };
  if (roll === 4) return { bytes: Buffer.from([0xff, 0xfe, 0x00, 0xed, 0xa0, 0x80]), contentType: d.pick(['application/json', 'application/octet-stream', 'text/plain']), tags: ['utf8', 'nul'] };
  if (roll === 5) return { bytes: Buffer.from('{"text":"\\ud800","pageName":"\\u0000"}'), contentType: 'application/json', tags: ['surrogate', 'nul'] };
  if (roll === 6) return { bytes: Buffer.from('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}'), contentType: 'application/json', tags: ['proto'] };
  if (roll === 7) return { bytes: Buffer.from('a=1&b[c]=2'), contentType: 'application/x-www-form-urlencoded', tags: ['type'] };
  if (template && roll < 17) return mutated(d, template());
  const value = jsonValue(d);
  return json(value.value, value.tags);
}

/** A plausible body with one or two fields replaced by hostile values. */
function mutated(d: Draw, value: unknown): Body {
  const tags: Tag[] = [];
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    for (let i = d.chance(0.7) ? 1 : 2; i > 0; i -= 1) {
      const hostile = d.chance(0.6) ? d.pick(STRING_VALUES) : jsonValue(d, 2);
      object[keys.length > 0 && d.chance(0.9) ? d.pick(keys) : d.pick(FIELD_NAMES)] = hostile.value;
      tags.push(...hostile.tags);
    }
  }
  return { bytes: Buffer.from(JSON.stringify(value)), contentType: 'application/json', tags };
}
