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
   * The locks of several sets of keys, without waiting: for each set, true when one of its keys
   * is held by another transaction (busy). Every free key is held from now on, until this
   * transaction ends; a key this transaction holds already counts as free.
   */
  async tryKeysOf(sets: string[][]): Promise<boolean[]> {
    const pairs = sets.flatMap((keys, index) => sortedKeys(keys).map((key) => ({ key, index })));
    const { rows } = await this.db.query<{ index: number }>(
      'SELECT DISTINCT i AS index FROM unnest($1::text[], $2::int[]) AS t(k, i) WHERE NOT pg_try_advisory_xact_lock(hashtextextended(k, 0))',
      [pairs.map((pair) => pair.key), pairs.map((pair) => pair.index)],
    );
    const busy = new Set(rows.map((row) => row.index));
    return sets.map((_, index) => busy.has(index));
  }

  /**
   * Taken (shared) by every transaction that decides between holding and processing a
   * delivery, and (exclusive) by the one that stores the account's partner configuration: a
   * delivery is either held before the configuration commits, so the release after it sees
   * the delivery, or processed with the configuration.
   */
  async accountShared(accountId: string): Promise<void> {
    await this.accountsShared([accountId]);
  }

  /** The same for several accounts, in one statement (sorted: never crosswise with another transaction). */
  async accountsShared(accountIds: string[]): Promise<void> {
    if (accountIds.length === 0) return;
    await this.db.query('SELECT count(pg_advisory_xact_lock_shared(hashtextextended(k, 0))) FROM unnest($1::text[]) AS k', [sortedKeys(accountIds.map(accountKey))]);
  }

  async accountExclusive(accountId: string): Promise<void> {
    await this.db.query(`SELECT ${LOCK}`, [accountKey(accountId)]);
  }
}
