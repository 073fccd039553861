import type { Pool, PoolClient } from '@crm/db';
import { registerSecret } from '@crm/logging';
import { mask } from '@crm/secrets';
import { aadFor } from './key-rotation';
import type { Keyring } from './keyring';

export type AccountStatus = 'connected' | 'needs_reconnect' | 'revoked';

/** What may be shown of an account: never a token or secret, only the token masked. */
export interface AccountSummary {
  accountId: string;
  screenName: string;
  name: string | null;
  envName: string;
  consumerKey: string;
  accessTokenMasked: string;
  status: AccountStatus;
  statusReason: string | null;
  via: 'oauth' | 'import';
  connectedAt: string;
  updatedAt: string;
}

export interface AccessToken {
  key: string;
  secret: string;
}

export interface NewAccount {
  accountId: string;
  screenName: string;
  name: string | null;
  envName: string;
  consumerKey: string;
  token: AccessToken;
  via: 'oauth' | 'import';
}

interface AccountRow {
  account_id: string;
  screen_name: string;
  name: string | null;
  env_name: string;
  consumer_key: string;
  access_token_masked: string;
  /** Null once the account is revoked. */
  access_token_sealed: string | null;
  access_token_secret_sealed: string | null;
  status: AccountStatus;
  status_reason: string | null;
  connected_via: 'oauth' | 'import';
  connected_at: Date;
  updated_at: Date;
}

const SUMMARY_COLUMNS = 'account_id, screen_name, name, env_name, consumer_key, access_token_masked, status, status_reason, connected_via, connected_at, updated_at';

function summary(row: Omit<AccountRow, 'access_token_sealed' | 'access_token_secret_sealed'>): AccountSummary {
  return {
    accountId: row.account_id,
    screenName: row.screen_name,
    name: row.name,
    envName: row.env_name,
    consumerKey: row.consumer_key,
    accessTokenMasked: row.access_token_masked,
    status: row.status,
    statusReason: row.status_reason,
    via: row.connected_via,
    connectedAt: row.connected_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

type Queryable = Pool | PoolClient;

/** Connected accounts and their access tokens, sealed at rest. */
export class AccountStore {
  constructor(
    private readonly pool: Pool,
    private readonly keys: Keyring,
  ) {}

  /** Stores (or replaces) an account's token pair; the account is connected again. */
  async save(account: NewAccount, db: Queryable = this.pool): Promise<AccountSummary> {
    registerSecret(account.token.key);
    registerSecret(account.token.secret);
    const { rows } = await db.query<AccountRow>(
      `INSERT INTO accounts (account_id, screen_name, name, env_name, consumer_key, access_token_sealed, access_token_secret_sealed, access_token_masked, status, status_reason, connected_via)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'connected', NULL, $9)
       ON CONFLICT (account_id) DO UPDATE SET screen_name = $2, name = $3, env_name = $4, consumer_key = $5, access_token_sealed = $6,
         access_token_secret_sealed = $7, access_token_masked = $8, status = 'connected', status_reason = NULL, connected_via = $9,
         connected_at = now(), updated_at = now()
       RETURNING ${SUMMARY_COLUMNS}`,
      [
        account.accountId,
        account.screenName,
        account.name,
        account.envName,
        account.consumerKey,
        this.keys.seal(account.token.key, aadFor.accessToken(account.accountId)),
        this.keys.seal(account.token.secret, aadFor.accessTokenSecret(account.accountId)),
        mask(account.token.key),
        account.via,
      ],
    );
    return summary(rows[0]!);
  }

  async list(): Promise<AccountSummary[]> {
    const { rows } = await this.pool.query<AccountRow>(`SELECT ${SUMMARY_COLUMNS} FROM accounts ORDER BY connected_at, account_id`);
    return rows.map(summary);
  }

  async find(accountId: string): Promise<AccountSummary | null> {
    const { rows } = await this.pool.query<AccountRow>(`SELECT ${SUMMARY_COLUMNS} FROM accounts WHERE account_id = $1`, [accountId]);
    return rows[0] ? summary(rows[0]) : null;
  }

  /**
   * The account with its token pair opened (registered as secrets, so no log line can show
   * them); null when auth holds none (unknown or revoked account).
   */
  async credentials(accountId: string): Promise<{ account: AccountSummary; token: AccessToken } | null> {
    const { rows } = await this.pool.query<AccountRow>(`SELECT * FROM accounts WHERE account_id = $1`, [accountId]);
    const row = rows[0];
    if (!row?.access_token_sealed || !row.access_token_secret_sealed) return null;
    const token = {
      key: this.keys.open(row.access_token_sealed, aadFor.accessToken(accountId)),
      secret: this.keys.open(row.access_token_secret_sealed, aadFor.accessTokenSecret(accountId)),
    };
    registerSecret(token.key);
    registerSecret(token.secret);
    return { account: summary(row), token };
  }

  /** Marks the account as needing a reconnect; null when it already was (or is gone), so the event goes out once. */
  async markNeedsReconnect(accountId: string, reason: string, db: Queryable = this.pool): Promise<AccountSummary | null> {
    const { rows } = await db.query<AccountRow>(
      `UPDATE accounts SET status = 'needs_reconnect', status_reason = $2, updated_at = now()
       WHERE account_id = $1 AND status = 'connected' RETURNING ${SUMMARY_COLUMNS}`,
      [accountId, reason],
    );
    return rows[0] ? summary(rows[0]) : null;
  }

  /**
   * The account's owner revoked the app (at `revokedAt`): the token pair is dropped and the
   * account shown as revoked. A revoke older than the account's latest connection changes
   * nothing (it was connected again since); the platform gives revoke times to the second, so
   * one in the same second as the connection counts as after it (forgetting is the safe side).
   * Returns whether it changed anything.
   */
  async markRevoked(accountId: string, revokedAt: Date, reason: string, db: Queryable = this.pool): Promise<boolean> {
    const { rowCount } = await db.query(
      `UPDATE accounts SET status = 'revoked', status_reason = $3, access_token_sealed = NULL, access_token_secret_sealed = NULL, updated_at = now()
       WHERE account_id = $1 AND status <> 'revoked' AND date_trunc('second', connected_at) <= $2`,
      [accountId, revokedAt, reason],
    );
    return (rowCount ?? 0) > 0;
  }

  async delete(accountId: string, db: Queryable = this.pool): Promise<boolean> {
    const { rowCount } = await db.query('DELETE FROM accounts WHERE account_id = $1', [accountId]);
    return (rowCount ?? 0) > 0;
  }
}
