/** ticketing's mirror of the connected accounts, as auth (or a revoke delivery) reports them. */

export type AccountStatus = 'connected' | 'disconnected' | 'revoked' | 'needs_reconnect';

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
