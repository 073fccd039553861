import type { Queryable } from './queryable';

const LOCK = 'pg_advisory_xact_lock(hashtextextended($1, 0))';

const sortedKeys = (keys: string[]) => [...new Set(keys)].sort();

const accountKey = (accountId: string) => `account:${accountId}`;

/** Advisory locks held until the transaction ends, whichever replica takes them. */
export class Locks {
  constructor(private readonly db: Queryable) {}

  /**
   * Serialises all work on the given keys (conversations, an account's public timeline, a
   * contact). Keys are locked in sorted order, so two transactions never wait on each other crosswise.
   */
  async keys(keys: string[]): Promise<void> {
    // One statement: unnest yields the sorted keys in order, and each lock is taken as its row is.
    await this.db.query('SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0))) FROM unnest($1::text[]) AS k', [sortedKeys(keys)]);
  }

  /**
   * The same locks without waiting: true when every one was free and is now held; false when
   * one is held by another transaction (those taken stay held until this transaction ends).
   */
  async tryKeys(keys: string[]): Promise<boolean> {
    const { rows } = await this.db.query<{ busy: number }>(
      'SELECT count(*) FILTER (WHERE NOT pg_try_advisory_xact_lock(hashtextextended(k, 0)))::int AS busy FROM unnest($1::text[]) AS k',
      [sortedKeys(keys)],
    );
    return rows[0]!.busy === 0;
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
