import { createHash } from 'node:crypto';
import stableStringify from 'safe-stable-stringify';

/** An `Idempotency-Key`: 1 to 100 letters, digits and `._:-` (a UUID fits). */
const KEY = /^[A-Za-z0-9._:-]{1,100}$/;

/** The key of a request's `Idempotency-Key` header (null when absent), or what is wrong with it. */
export function readIdempotencyKey(header: string | string[] | undefined): { key: string | null } | { problem: string } {
  if (header === undefined) return { key: null };
  if (typeof header === 'string' && KEY.test(header)) return { key: header };
  return { problem: 'the Idempotency-Key header must be 1 to 100 letters, digits or ._:- (a UUID fits), given once' };
}

/**
 * What makes two requests with one key the same request: the operation, its ticket and its
 * body (object keys in any order), as a sha256.
 */
export function requestFingerprint(operation: string, ticketId: string, body: unknown): string {
  return createHash('sha256').update(`${operation}\u0000${ticketId}\u0000${stableStringify(body ?? null)}`).digest('hex');
}
