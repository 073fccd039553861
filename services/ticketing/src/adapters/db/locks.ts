import type { Queryable } from './queryable';

const LOCK = 'pg_advisory_xact_lock(hashtextextended($1, 0))';

const accountKey = (accountId: string) => `account:${accountId}`;

/** Advisory locks held until the transaction ends, whichever replica takes them. */
export class Locks {
  constructor(private readonly db: Queryable) {}

  /**
   * Serialises all work on the given keys (conversations, an account's public timeline, a
   * contact). Keys are locked in sorted order, so two transactions never wait on each other crosswise.
   */
  async keys(keys: string[]): Promise<void> {
    for (const key of [...new Set(keys)].sort()) await this.db.query(`SELECT ${LOCK}`, [key]);
  }

  /**
   * Taken (shared) by every transaction that decides between holding and processing a
   * delivery, and (exclusive) by the one that stores the account's partner configuration: a
   * delivery is either held before the configuration commits, so the release after it sees
   * the delivery, or processed with the configuration.
   */
  async accountShared(accountId: string): Promise<void> {
    await this.db.query('SELECT pg_advisory_xact_lock_shared(hashtextextended($1, 0))', [accountKey(accountId)]);
  }

  async accountExclusive(accountId: string): Promise<void> {
    await this.db.query(`SELECT ${LOCK}`, [accountKey(accountId)]);
  }
}
