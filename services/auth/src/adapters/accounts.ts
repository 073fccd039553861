import type { Pool, PoolClient } from '@crm/db';
import { registerSecret } from '@crm/logging';
import { mask } from '@crm/secrets';
import { aadFor } from './key-rotation';
import type { Keyring } from './keyring';
import { OAUTH2_SCOPES, type OAuth2Tokens } from './platform/oauth2';

export type AccountStatus = 'connected' | 'needs_reconnect' | 'revoked';
/** How the account signs its calls: an OAuth 1.0a token pair, or an OAuth 2.0 bearer access token (refreshed). */
export type AccountProtocol = 'oauth1' | 'oauth2';

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
  protocol: AccountProtocol;
  /** OAuth 2.0: the scopes the account granted; null for OAuth 1.0a. */
  scopes: string[] | null;
  /** OAuth 2.0: the scopes auth asks for now that the account did not grant (connected with an older set: connect it again); [] otherwise. */
  missingScopes: string[];
  /** OAuth 2.0: when the current access token expires; null for OAuth 1.0a. */
  accessTokenExpiresAt: string | null;
  connectedAt: string;
  updatedAt: string;
}

/** An OAuth 2.0 account's tokens, as the token endpoint gave them. */
export type { OAuth2Tokens };

/** What signs an account's calls, opened (registered as secrets). */
export type AccountCredentials =
  | { account: AccountSummary; protocol: 'oauth1'; token: AccessToken }
  | { account: AccountSummary; protocol: 'oauth2'; accessToken: string; expiresAt: Date };

/** An OAuth 2.0 account locked for a refresh, with its tokens opened (null when it holds none: revoked). */
export interface LockedForRefresh {
  account: AccountSummary;
  tokens: { accessToken: string; refreshToken: string; expiresAt: Date } | null;
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

export type NewOAuth2Account = Omit<NewAccount, 'token' | 'via'> & { tokens: OAuth2Tokens };

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
  protocol: AccountProtocol;
  refresh_token_sealed: string | null;
  access_token_expires_at: Date | null;
  scopes: string[] | null;
  connected_at: Date;
  updated_at: Date;
}

const SUMMARY_COLUMNS =
  'account_id, screen_name, name, env_name, consumer_key, access_token_masked, status, status_reason, connected_via, protocol, scopes, access_token_expires_at, connected_at, updated_at';

/** The scopes auth asks an OAuth 2.0 account for that it did not grant. */
export const missingScopesOf = (protocol: AccountProtocol, scopes: string[] | null): string[] =>
  protocol === 'oauth2' ? OAUTH2_SCOPES.filter((scope) => !(scopes ?? []).includes(scope)) : [];

function summary(row: Omit<AccountRow, 'access_token_sealed' | 'access_token_secret_sealed' | 'refresh_token_sealed'>): AccountSummary {
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
    protocol: row.protocol,
    scopes: row.scopes,
    missingScopes: missingScopesOf(row.protocol, row.scopes),
    accessTokenExpiresAt: row.access_token_expires_at?.toISOString() ?? null,
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
         protocol = 'oauth1', refresh_token_sealed = NULL, access_token_expires_at = NULL, scopes = NULL, token_refreshed_at = NULL,
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

  /**
   * Connected OAuth 2.0 accounts that lack a scope of `wanted` and were not told yet, taken for
   * the notice (`FOR UPDATE SKIP LOCKED`: two replicas do not both announce one).
   */
  async takeUnnoticedOutdatedScopes(wanted: readonly string[], db: PoolClient): Promise<AccountSummary[]> {
    const { rows } = await db.query<AccountRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM accounts
       WHERE protocol = 'oauth2' AND status = 'connected' AND scopes_notice_at IS NULL AND NOT (coalesce(scopes, '{}') @> $1::text[])
       ORDER BY account_id FOR UPDATE SKIP LOCKED`,
      [wanted],
    );
    return rows.map(summary);
  }

  async markScopesNoticed(accountId: string, db: Queryable = this.pool): Promise<void> {
    await db.query('UPDATE accounts SET scopes_notice_at = now() WHERE account_id = $1', [accountId]);
  }

  /** Stores (or replaces) an OAuth 2.0 account's tokens; the account is connected again (an OAuth 1.0a pair it had is forgotten). */
  async saveOAuth2(account: NewOAuth2Account, db: Queryable = this.pool): Promise<AccountSummary> {
    const { tokens } = account;
    registerSecret(tokens.accessToken);
    registerSecret(tokens.refreshToken);
    const { rows } = await db.query<AccountRow>(
      `INSERT INTO accounts (account_id, screen_name, name, env_name, consumer_key, access_token_sealed, access_token_secret_sealed, access_token_masked, status, status_reason,
         connected_via, protocol, refresh_token_sealed, access_token_expires_at, scopes)
       VALUES ($1, $2, $3, $4, $5, $6, NULL, $7, 'connected', NULL, 'oauth', 'oauth2', $8, $9, $10)
       ON CONFLICT (account_id) DO UPDATE SET screen_name = $2, name = $3, env_name = $4, consumer_key = $5, access_token_sealed = $6,
         access_token_secret_sealed = NULL, access_token_masked = $7, status = 'connected', status_reason = NULL, connected_via = 'oauth',
         protocol = 'oauth2', refresh_token_sealed = $8, access_token_expires_at = $9, scopes = $10, token_refreshed_at = NULL,
         scopes_notice_at = NULL, connected_at = now(), updated_at = now()
       RETURNING ${SUMMARY_COLUMNS}`,
      [
        account.accountId,
        account.screenName,
        account.name,
        account.envName,
        account.consumerKey,
        this.keys.seal(tokens.accessToken, aadFor.accessToken(account.accountId)),
        mask(tokens.accessToken),
        this.keys.seal(tokens.refreshToken, aadFor.refreshToken(account.accountId)),
        tokens.expiresAt,
        tokens.scopes,
      ],
    );
    return summary(rows[0]!);
  }

  /**
   * Locks the account's row for a refresh (until `client`'s transaction ends). With `waitMs`,
   * waits that long for a refresh running elsewhere ('timeout' past it); without, an account
   * being refreshed is skipped (null). Null too when the account is gone.
   */
  async lockForRefresh(accountId: string, client: PoolClient, { waitMs }: { waitMs?: number }): Promise<LockedForRefresh | null | 'timeout'> {
    let row: AccountRow | undefined;
    try {
      if (waitMs !== undefined) await client.query(`SELECT set_config('lock_timeout', $1, true)`, [`${waitMs}ms`]);
      const { rows } = await client.query<AccountRow>(`SELECT * FROM accounts WHERE account_id = $1 FOR UPDATE${waitMs === undefined ? ' SKIP LOCKED' : ''}`, [accountId]);
      row = rows[0];
    } catch (error) {
      if ((error as { code?: string }).code === '55P03') return 'timeout'; // lock_not_available
      throw error;
    }
    if (!row) return null;
    if (row.protocol !== 'oauth2' || !row.access_token_sealed || !row.refresh_token_sealed || !row.access_token_expires_at) return { account: summary(row), tokens: null };
    const tokens = {
      accessToken: this.keys.open(row.access_token_sealed, aadFor.accessToken(accountId)),
      refreshToken: this.keys.open(row.refresh_token_sealed, aadFor.refreshToken(accountId)),
      expiresAt: row.access_token_expires_at,
    };
    registerSecret(tokens.accessToken);
    registerSecret(tokens.refreshToken);
    return { account: summary(row), tokens };
  }

  /** Stores the tokens a refresh gave (the refresh token rotated: the one used is spent). */
  async storeRefreshed(accountId: string, tokens: OAuth2Tokens, client: PoolClient): Promise<AccountSummary> {
    registerSecret(tokens.accessToken);
    registerSecret(tokens.refreshToken);
    const { rows } = await client.query<AccountRow>(
      `UPDATE accounts SET access_token_sealed = $2, access_token_masked = $3, refresh_token_sealed = $4, access_token_expires_at = $5, scopes = $6,
         token_refreshed_at = now(), updated_at = now()
       WHERE account_id = $1 AND protocol = 'oauth2' RETURNING ${SUMMARY_COLUMNS}`,
      [
        accountId,
        this.keys.seal(tokens.accessToken, aadFor.accessToken(accountId)),
        mask(tokens.accessToken),
        this.keys.seal(tokens.refreshToken, aadFor.refreshToken(accountId)),
        tokens.expiresAt,
        tokens.scopes,
      ],
    );
    return summary(rows[0]!);
  }

  /** The connected OAuth 2.0 accounts whose access token expires within `marginSeconds`, soonest first. */
  async dueForRefresh(marginSeconds: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ account_id: string }>(
      `SELECT account_id FROM accounts WHERE protocol = 'oauth2' AND status = 'connected' AND access_token_expires_at < now() + make_interval(secs => $1)
       ORDER BY access_token_expires_at`,
      [marginSeconds],
    );
    return rows.map((row) => row.account_id);
  }

  /** When the first access token of a connected OAuth 2.0 account expires (null with none): one index look-up. */
  async earliestTokenExpiry(): Promise<Date | null> {
    const { rows } = await this.pool.query<{ earliest: Date | null }>(
      `SELECT min(access_token_expires_at) AS earliest FROM accounts WHERE protocol = 'oauth2' AND status = 'connected'`,
    );
    return rows[0]?.earliest ?? null;
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
   * The account with what signs its calls opened (registered as secrets, so no log line can
   * show them): its OAuth 1.0a token pair or its OAuth 2.0 access token; null when auth holds
   * none (unknown or revoked account).
   */
  async credentials(accountId: string): Promise<AccountCredentials | null> {
    const { rows } = await this.pool.query<AccountRow>(`SELECT * FROM accounts WHERE account_id = $1`, [accountId]);
    const row = rows[0];
    if (row?.protocol === 'oauth2' && row.access_token_sealed && row.access_token_expires_at) {
      const accessToken = this.keys.open(row.access_token_sealed, aadFor.accessToken(accountId));
      registerSecret(accessToken);
      return { account: summary(row), protocol: 'oauth2', accessToken, expiresAt: row.access_token_expires_at };
    }
    if (!row?.access_token_sealed || !row.access_token_secret_sealed) return null;
    const token = {
      key: this.keys.open(row.access_token_sealed, aadFor.accessToken(accountId)),
      secret: this.keys.open(row.access_token_secret_sealed, aadFor.accessTokenSecret(accountId)),
    };
    registerSecret(token.key);
    registerSecret(token.secret);
    return { account: summary(row), protocol: 'oauth1', token };
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
   * The account's owner revoked the app (at `revokedAt`): its tokens are dropped and the
   * account shown as revoked. A revoke older than the account's latest connection changes
   * nothing (it was connected again since); the platform gives revoke times to the second, so
   * one in the same second as the connection counts as after it (forgetting is the safe side).
   * Returns whether it changed anything.
   */
  async markRevoked(accountId: string, revokedAt: Date, reason: string, db: Queryable = this.pool): Promise<boolean> {
    const { rowCount } = await db.query(
      `UPDATE accounts SET status = 'revoked', status_reason = $3, access_token_sealed = NULL, access_token_secret_sealed = NULL, refresh_token_sealed = NULL,
         updated_at = now()
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
