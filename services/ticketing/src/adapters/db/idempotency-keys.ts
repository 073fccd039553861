import type { Queryable } from './queryable';

/** Whose key it is: the principal, the account of the ticket, the key. */
export interface IdempotencyScope {
  principalId: string;
  accountId: string;
  key: string;
}

/** A key already claimed: the request it was claimed for and the answer it got. */
export interface ClaimedKey {
  fingerprint: string;
  answer: unknown;
}

/** Idempotency keys of writes, claimed inside the write's transaction. */
export class IdempotencyKeyRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Claims the key for this request (null), or finds who claimed it first. A concurrent claim
   * of the same key waits here (on the primary key) until the first transaction commits or
   * rolls back: then it finds the first's row with its answer, or claims the key itself.
   */
  async claim(scope: IdempotencyScope, fingerprint: string): Promise<ClaimedKey | null> {
    const inserted = await this.db.query(
      `INSERT INTO idempotency_keys (principal_id, account_id, key, fingerprint) VALUES ($1, $2, $3, $4)
       ON CONFLICT (principal_id, account_id, key) DO NOTHING`,
      [scope.principalId, scope.accountId, scope.key, fingerprint],
    );
    if (inserted.rowCount === 1) return null;
    const { rows } = await this.db.query<ClaimedKey>('SELECT fingerprint, answer FROM idempotency_keys WHERE principal_id = $1 AND account_id = $2 AND key = $3', [scope.principalId, scope.accountId, scope.key]);
    return rows[0]!;
  }

  /** Keeps the answer of the request that claimed the key (in its transaction). */
  async answer(scope: IdempotencyScope, answer: unknown): Promise<void> {
    await this.db.query('UPDATE idempotency_keys SET answer = $4 WHERE principal_id = $1 AND account_id = $2 AND key = $3', [scope.principalId, scope.accountId, scope.key, JSON.stringify(answer)]);
  }

  /** Deletes keys claimed before `cutoff`; returns how many. */
  async purgeBefore(cutoff: Date): Promise<number> {
    return (await this.db.query('DELETE FROM idempotency_keys WHERE created_at < $1', [cutoff])).rowCount ?? 0;
  }
}
