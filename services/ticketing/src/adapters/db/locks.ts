import type { PoolClient } from '@crm/db';

const LOCK = 'pg_advisory_xact_lock(hashtextextended($1, 0))';

/**
 * Serialises all work on the given keys (conversations, an account's public timeline, a
 * contact) until the transaction ends, whichever replica does it. Keys are locked in sorted
 * order, so two transactions never wait on each other crosswise. Returns the transaction's clock.
 */
export async function lockKeys(client: PoolClient, keys: string[]): Promise<Date> {
  for (const key of [...new Set(keys)].sort()) await client.query(`SELECT ${LOCK}`, [key]);
  const { rows } = await client.query<{ now: Date }>('SELECT now() AS now');
  return rows[0]!.now;
}

const accountKey = (accountId: string) => `account:${accountId}`;

/**
 * Taken (shared) by every transaction that decides between holding and processing a
 * delivery, and (exclusive) by the one that stores the account's partner configuration: a
 * delivery is either held before the configuration commits, so the release after it sees
 * the delivery, or processed with the configuration.
 */
export async function lockAccountShared(client: PoolClient, accountId: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock_shared(hashtextextended($1, 0))', [accountKey(accountId)]);
}

export async function lockAccountExclusive(client: PoolClient, accountId: string): Promise<void> {
  await client.query(`SELECT ${LOCK}`, [accountKey(accountId)]);
}
