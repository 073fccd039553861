import type { Pool, PoolClient } from '@crm/db';

export const ACCOUNT_STATUSES = ['connected', 'disconnected', 'revoked', 'needs_reconnect'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

export interface AccountChange {
  accountId: string;
  status: AccountStatus;
  /** When the change happened: an older change never overrides a newer one. */
  at: Date;
  screenName?: string | null;
  /** Masked credentials to show; undefined keeps what is stored, null forgets it. */
  consumerKeyMasked?: string | null;
  accessTokenMasked?: string | null;
}

/** Records an account's status as auth (or a revoke delivery) reports it; returns whether it changed anything. */
export async function recordAccountChange(client: PoolClient | Pool, change: AccountChange): Promise<boolean> {
  const keep = (value: string | null | undefined) => (value === undefined ? { keep: true, value: null } : { keep: false, value });
  const consumerKey = keep(change.consumerKeyMasked);
  const accessToken = keep(change.accessTokenMasked);
  const { rowCount } = await client.query(
    `INSERT INTO accounts (account_id, status, screen_name, consumer_key_masked, access_token_masked, status_changed_at)
     VALUES ($1, $2, $3, $5, $7, $8)
     ON CONFLICT (account_id) DO UPDATE SET
       status = EXCLUDED.status,
       screen_name = COALESCE(EXCLUDED.screen_name, accounts.screen_name),
       consumer_key_masked = CASE WHEN $4 THEN accounts.consumer_key_masked ELSE EXCLUDED.consumer_key_masked END,
       access_token_masked = CASE WHEN $6 THEN accounts.access_token_masked ELSE EXCLUDED.access_token_masked END,
       status_changed_at = EXCLUDED.status_changed_at,
       updated_at = now()
     WHERE CASE WHEN EXCLUDED.status = 'revoked' OR accounts.status = 'revoked'
             -- The platform gives revoke times to the second: compare to the second, the revoke
             -- winning a tie (it beats the connection it revokes, also a redelivered one).
             THEN (date_trunc('second', accounts.status_changed_at), accounts.status = 'revoked')
                  <= (date_trunc('second', EXCLUDED.status_changed_at), EXCLUDED.status = 'revoked')
             ELSE accounts.status_changed_at <= EXCLUDED.status_changed_at END`,
    [change.accountId, change.status, change.screenName ?? null, consumerKey.keep, consumerKey.value, accessToken.keep, accessToken.value, change.at],
  );
  return (rowCount ?? 0) > 0;
}

export interface AccountRow {
  account_id: string;
  status: AccountStatus;
  screen_name: string | null;
  consumer_key_masked: string | null;
  access_token_masked: string | null;
  status_changed_at: Date;
}

export async function findAccount(pool: Pool, accountId: string): Promise<AccountRow | null> {
  const { rows } = await pool.query<AccountRow>('SELECT * FROM accounts WHERE account_id = $1', [accountId]);
  return rows[0] ?? null;
}

export async function listAccounts(pool: Pool): Promise<AccountRow[]> {
  const { rows } = await pool.query<AccountRow>('SELECT * FROM accounts ORDER BY account_id');
  return rows;
}
