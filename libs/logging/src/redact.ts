/** Keys whose values are never written to a log, whatever their nesting. */
const SECRET_KEY_PATTERN =
  /(secret|password|passwd|token|authorization|api[-_]?key|credential|signature|cookie|private[-_]?key)/i;

export const REDACTED = '[REDACTED]';

const knownSecretValues = new Set<string>();

/**
 * Registers a secret value (a consumer secret, a key) so that it is masked wherever it
 * appears in a log line, even inside a message string.
 */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 6) knownSecretValues.add(value);
}

function maskKnownValues(text: string): string {
  let out = text;
  for (const secret of knownSecretValues) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
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
