import type { TicketingTx } from '../adapters/db/store';
import { requestFingerprint } from '../domain/idempotency';
import { conflict } from './errors';

/** A write's `Idempotency-Key`, and who sent it (keys of different principals never meet). */
export interface IdempotencyKey {
  principalId: string;
  key: string;
}

/** The answer of a write, and whether it is the first's, replayed. */
export interface Answered<T> {
  answer: T;
  replayed: boolean;
}

/**
 * Runs `work` once per key, inside the write's transaction: the first request claims the key
 * (the table's primary key, so a concurrent one waits for it to commit) and keeps its answer
 * with the write; a later request with the same operation, ticket and body gets that answer
 * and does nothing; with anything else, 409 idempotency_key_reused. The key is scoped to the
 * principal and the account of the ticket. Without a key, `work` just runs.
 */
export async function once<T>(
  tx: TicketingTx,
  request: { key: IdempotencyKey | undefined; operation: string; ticketId: string; accountId: string; body: unknown },
  work: () => Promise<T>,
): Promise<Answered<T>> {
  if (!request.key) return { answer: await work(), replayed: false };
  const scope = { principalId: request.key.principalId, accountId: request.accountId, key: request.key.key };
  const fingerprint = requestFingerprint(request.operation, request.ticketId, request.body);
  const claimed = await tx.idempotencyKeys.claim(scope, fingerprint);
  if (claimed) {
    if (claimed.fingerprint !== fingerprint) {
      throw conflict('idempotency_key_reused', `the Idempotency-Key '${scope.key}' was used for another request (another ticket, action or body); use a new key for a new request`);
    }
    return { answer: claimed.answer as T, replayed: true };
  }
  const answer = await work();
  await tx.idempotencyKeys.answer(scope, answer);
  return { answer, replayed: false };
}
