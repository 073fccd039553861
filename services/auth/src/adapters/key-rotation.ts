import { withTransaction, type Pool } from '@crm/db';
import type { Keyring } from './keyring';

/** Every sealed column, with how its associated data is made from the row's key. */
const SEALED_COLUMNS = [
  { table: 'app_credentials', key: 'env_name', column: 'consumer_secret_sealed', aad: (k: string) => `app:${k}` },
  { table: 'accounts', key: 'account_id', column: 'access_token_sealed', aad: (k: string) => `account:${k}:token` },
  { table: 'accounts', key: 'account_id', column: 'access_token_secret_sealed', aad: (k: string) => `account:${k}:secret` },
  { table: 'connection_requests', key: 'token_sha256', column: 'token_secret_sealed', aad: (k: string) => `connection:${k}` },
  { table: 'app_credentials', key: 'env_name', column: 'previous_consumer_secret_sealed', aad: (k: string) => `app:${k}:previous` },
  { table: 'accounts', key: 'account_id', column: 'refresh_token_sealed', aad: (k: string) => `account:${k}:refresh` },
  { table: 'connection_requests', key: 'token_sha256', column: 'code_verifier_sealed', aad: (k: string) => `connection:${k}:verifier` },
] as const;

export const aadFor = {
  appSecret: SEALED_COLUMNS[0].aad,
  accessToken: SEALED_COLUMNS[1].aad,
  accessTokenSecret: SEALED_COLUMNS[2].aad,
  connectionSecret: SEALED_COLUMNS[3].aad,
  previousAppSecret: SEALED_COLUMNS[4].aad,
  refreshToken: SEALED_COLUMNS[5].aad,
  codeVerifier: SEALED_COLUMNS[6].aad,
};

/**
 * Re-seals with the current key every value still sealed with another one (readable through
 * CREDENTIALS_KEY_PREVIOUS), in one transaction: either all move to the new key or none.
 * Returns how many values were re-sealed per column.
 */
export async function rotateCredentialsKey(pool: Pool, keys: Keyring): Promise<Record<string, number>> {
  return withTransaction(pool, async (client) => {
    const counts: Record<string, number> = {};
    for (const { table, key, column, aad } of SEALED_COLUMNS) {
      const { rows } = await client.query<{ k: string; sealed: string }>(`SELECT ${key} AS k, ${column} AS sealed FROM ${table} WHERE ${column} IS NOT NULL FOR UPDATE`);
      let resealed = 0;
      for (const row of rows) {
        if (!keys.isStale(row.sealed)) continue;
        const plaintext = keys.open(row.sealed, aad(row.k));
        await client.query(`UPDATE ${table} SET ${column} = $2 WHERE ${key} = $1`, [row.k, keys.seal(plaintext, aad(row.k))]);
        resealed += 1;
      }
      counts[`${table}.${column}`] = resealed;
    }
    return counts;
  });
}
