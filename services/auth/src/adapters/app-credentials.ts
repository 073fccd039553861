import { withTransaction, type Pool } from '@crm/db';
import { registerSecret } from '@crm/logging';
import { aadFor } from './key-rotation';
import type { Keyring } from './keyring';

interface AppCredentialsRow {
  consumer_key: string;
  consumer_secret_sealed: string;
  previous_consumer_secret_sealed: string | null;
  rotated_at: Date | null;
}

export interface AppCredentials {
  consumerKey: string;
  consumerSecret: string;
}

/** The credentials, and the secret they replaced with when (kept for a rotation's overlap). */
export interface StoredAppCredentials extends AppCredentials {
  previous?: { consumerSecret: string; rotatedAt: Date };
}

/** The app credentials of each webhook environment, sealed at rest. */
export class AppCredentialsStore {
  constructor(
    private readonly pool: Pool,
    private readonly keys: Keyring,
  ) {}

  /** Saves an environment's credentials; a secret that differs from the stored one moves that one to `previous`, with the time of the change. */
  async save(envName: string, credentials: AppCredentials): Promise<void> {
    await withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<AppCredentialsRow>('SELECT consumer_secret_sealed FROM app_credentials WHERE env_name = $1 FOR UPDATE', [envName]);
      const stored = rows[0] ? this.keys.open(rows[0].consumer_secret_sealed, aadFor.appSecret(envName)) : null;
      const sealed = this.keys.seal(credentials.consumerSecret, aadFor.appSecret(envName));
      if (stored === null || stored === credentials.consumerSecret) {
        await client.query(
          `INSERT INTO app_credentials (env_name, consumer_key, consumer_secret_sealed)
           VALUES ($1, $2, $3)
           ON CONFLICT (env_name) DO UPDATE SET consumer_key = $2, consumer_secret_sealed = $3, updated_at = now()`,
          [envName, credentials.consumerKey, sealed],
        );
        return;
      }
      await client.query(
        `UPDATE app_credentials SET consumer_key = $2, consumer_secret_sealed = $3, previous_consumer_secret_sealed = $4, rotated_at = now(), updated_at = now()
         WHERE env_name = $1`,
        [envName, credentials.consumerKey, sealed, this.keys.seal(stored, aadFor.previousAppSecret(envName))],
      );
    });
  }

  async find(envName: string): Promise<StoredAppCredentials | null> {
    const { rows } = await this.pool.query<AppCredentialsRow>(
      'SELECT consumer_key, consumer_secret_sealed, previous_consumer_secret_sealed, rotated_at FROM app_credentials WHERE env_name = $1',
      [envName],
    );
    const row = rows[0];
    if (!row) return null;
    const consumerSecret = this.keys.open(row.consumer_secret_sealed, aadFor.appSecret(envName));
    registerSecret(consumerSecret);
    const found: StoredAppCredentials = { consumerKey: row.consumer_key, consumerSecret };
    if (row.previous_consumer_secret_sealed && row.rotated_at) {
      const previous = this.keys.open(row.previous_consumer_secret_sealed, aadFor.previousAppSecret(envName));
      registerSecret(previous);
      found.previous = { consumerSecret: previous, rotatedAt: row.rotated_at };
    }
    return found;
  }
}
