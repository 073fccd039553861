import type { AccountChange, AccountStatus } from '../../domain/accounts';
import type { Queryable } from './queryable';

export interface AccountRow {
  account_id: string;
  status: AccountStatus;
  screen_name: string | null;
  consumer_key_masked: string | null;
  access_token_masked: string | null;
  status_changed_at: Date;
  /** The account's open silence (the silence alarm), if any: since when, when it was noticed. */
  silent_since: Date | null;
  silence_detected_at: Date | null;
}

/** An account with its open silence. */
const SELECT_ACCOUNTS = `SELECT a.*, s.silent_since, s.detected_at AS silence_detected_at
  FROM accounts a LEFT JOIN account_silences s ON s.account_id = a.account_id AND s.ended_at IS NULL`;

/** ticketing's mirror of the connected accounts. */
export class AccountRepository {
  constructor(private readonly db: Queryable) {}

  /** Records an account's status as auth (or a revoke delivery) reports it; returns whether it changed anything. */
  async recordChange(change: AccountChange): Promise<boolean> {
    const keep = (value: string | null | undefined) => (value === undefined ? { keep: true, value: null } : { keep: false, value });
    const consumerKey = keep(change.consumerKeyMasked);
    const accessToken = keep(change.accessTokenMasked);
    const { rowCount } = await this.db.query(
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

  async find(accountId: string): Promise<AccountRow | null> {
    const { rows } = await this.db.query<AccountRow>(`${SELECT_ACCOUNTS} WHERE a.account_id = $1`, [accountId]);
    return rows[0] ?? null;
  }

  async list(): Promise<AccountRow[]> {
    const { rows } = await this.db.query<AccountRow>(`${SELECT_ACCOUNTS} ORDER BY a.account_id`);
    return rows;
  }
}
