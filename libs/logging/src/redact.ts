import { LRUCache } from 'lru-cache';

/** Keys whose values are never written to a log, whatever their nesting. */
const SECRET_KEY_PATTERN =
  /(secret|password|passwd|token|authorization|api[-_]?key|credential|signature|cookie|private[-_]?key)/i;

export const REDACTED = '[REDACTED]';

/** How many per-record secrets (account tokens, provider keys, ...) are remembered; the least recently registered go first. */
export const MAX_REMEMBERED_SECRETS = 1_000;

/** The process's own secrets (from its configuration): few, and kept for its lifetime. */
const pinnedSecrets = new Set<string>();
/** Secrets of records, registered again each time a record is opened: bounded, so the set does not grow with every account ever seen. */
const recentSecrets = new LRUCache<string, true>({ max: MAX_REMEMBERED_SECRETS });

/**
 * Registers a secret value (a consumer secret, a key) so that it is masked wherever it
 * appears in a log line, even inside a message string. `pinned` keeps it for the process's
 * lifetime (configuration secrets); others are kept among the MAX_REMEMBERED_SECRETS most
 * recently registered.
 */
export function registerSecret(value: string | undefined, options: { pinned?: boolean } = {}): void {
  if (!value || value.length < 6) return;
  if (options.pinned) pinnedSecrets.add(value);
  else if (!pinnedSecrets.has(value)) recentSecrets.set(value, true);
}

/** How many secrets are remembered (pinned and recent). */
export function rememberedSecretCount(): number {
  return pinnedSecrets.size + recentSecrets.size;
}

function maskAll(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

function maskKnownValues(text: string): string {
  return maskAll(maskAll(text, pinnedSecrets), recentSecrets.keys());
}

/** Returns a copy of `value` with secret-looking keys and registered secret values masked. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[DEPTH]';
  if (typeof value === 'string') return maskKnownValues(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) {
    return { name: value.name, message: maskKnownValues(value.message), stack: value.stack ? maskKnownValues(value.stack) : undefined };
  }
  if (Buffer.isBuffer(value)) return `[Buffer ${value.length} bytes]`;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    out[key] = redactField(key, inner, depth + 1);
  }
  return out;
}

/** Masks one named field: the whole value when the name says secret, else what it holds. */
export function redactField(key: string, value: unknown, depth = 0): unknown {
  const holdsSomething = value !== undefined && value !== null && typeof value !== 'boolean';
  return holdsSomething && SECRET_KEY_PATTERN.test(key) ? REDACTED : redact(value, depth);
}
