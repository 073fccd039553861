import { withTransaction, type Pool, type PoolClient } from '@crm/db';

/** PostgreSQL's deadlock and serialization failures: the transaction is simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);

/** Runs `work` in a transaction, again (up to `attempts` in all) when PostgreSQL broke a deadlock. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await withTransaction(pool, work);
    } catch (error) {
      if (attempt >= attempts || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
    }
  }
}
