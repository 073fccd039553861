import type { Pool } from '@crm/db';
import { registerSecret } from '@crm/logging';
import { aadFor } from './key-rotation';
import type { Keyring } from './keyring';

interface AppCredentialsRow {
  consumer_key: string;
  consumer_secret_sealed: string;
}

export interface AppCredentials {
  consumerKey: string;
  consumerSecret: string;
}

/** The app credentials of each webhook environment, sealed at rest. */
export class AppCredentialsStore {
  constructor(
    private readonly pool: Pool,
    private readonly keys: Keyring,
  ) {}

  async save(envName: string, credentials: AppCredentials): Promise<void> {
    const sealed = this.keys.seal(credentials.consumerSecret, aadFor.appSecret(envName));
    await this.pool.query(
      `INSERT INTO app_credentials (env_name, consumer_key, consumer_secret_sealed)
       VALUES ($1, $2, $3)
       ON CONFLICT (env_name) DO UPDATE SET consumer_key = $2, consumer_secret_sealed = $3, updated_at = now()`,
      [envName, credentials.consumerKey, sealed],
    );
  }

  async find(envName: string): Promise<AppCredentials | null> {
    const { rows } = await this.pool.query<AppCredentialsRow>('SELECT consumer_key, consumer_secret_sealed FROM app_credentials WHERE env_name = $1', [envName]);
    const row = rows[0];
    if (!row) return null;
    const consumerSecret = this.keys.open(row.consumer_secret_sealed, aadFor.appSecret(envName));
    registerSecret(consumerSecret);
    return { consumerKey: row.consumer_key, consumerSecret };
  }
}
