import type { Envelope, RawActivityPayload } from '@crm/contracts';
import type { Queryable } from './queryable';
import { appendRawLog, rawLogRows } from './raw-log';

const LOCK = 'pg_advisory_xact_lock(hashtextextended($1, 0))';

const sortedKeys = (keys: string[]) => [...new Set(keys)].sort();

const accountKey = (accountId: string) => `account:${accountId}`;

/** Advisory locks held until the transaction ends, whichever replica takes them. */
export class Locks {
  constructor(
    private readonly db: Queryable,
    private readonly clock?: { learn(at: Date): void },
  ) {}

  /**
   * Serialises all work on the given keys (conversations, an account's public timeline, a
   * contact). Keys are locked in sorted order, so two transactions never wait on each other crosswise.
   */
  async keys(keys: string[]): Promise<void> {
    // One statement: unnest yields the sorted keys in order, and each lock is taken as its row is.
    await this.db.query('SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0))) FROM unnest($1::text[]) AS k', [sortedKeys(keys)]);
  }

  /**
   * What recording deliveries takes first, in one statement: the locks of each delivery's keys
   * without waiting (for each set, true when one of its keys is held by another transaction:
   * busy; every free key is held from now on, a key this transaction holds counts as free),
   * and the accounts' locks, shared (see accountShared), which are waited for. `logged`: raw log
   * entries appended in the same statement (RawLog.append's, without a round trip of its own).
   */
  async forDeliveries(sets: string[][], accountIds: string[], logged: Envelope<RawActivityPayload>[] = []): Promise<boolean[]> {
    // Each key tried once: tried for every delivery, a key another transaction held at the first
    // try could be free at a later one (that transaction committed meanwhile), and a later
    // delivery into the conversation would be recorded before the earlier one left busy.
    const { rows } = await this.db.query<{ busy: string[]; now: Date }>(
      `WITH logged AS (${appendRawLog('$3')})
       SELECT ARRAY(SELECT k FROM unnest($1::text[]) AS k WHERE NOT pg_try_advisory_xact_lock(hashtextextended(k, 0))) AS busy,
              (SELECT count(pg_advisory_xact_lock_shared(hashtextextended(k, 0))) FROM unnest($2::text[]) AS k) AS shared,
              now() AS now`,
      [sortedKeys(sets.flat()), sortedKeys(accountIds.map(accountKey)), rawLogRows(logged)],
    );
    this.clock?.learn(rows[0]!.now);
    const busy = new Set(rows[0]!.busy);
    return sets.map((keys) => keys.some((key) => busy.has(key)));
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
