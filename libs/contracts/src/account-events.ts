import { defineContract } from './envelope';

/**
 * `account.revoked` on the `account.events` topic exchange: the account's owner revoked the
 * app's access on the platform. auth announces it when a `user_event` revoke delivery arrives,
 * in the transaction that forgets the credentials; ticketing mirrors it. The other account
 * events (connected, disconnected, needs-reconnect, webhook.invalid) are auth's, in
 * auth-account-events.ts.
 */
export const ACCOUNT_REVOKED_KEY = 'account.revoked';

export interface AccountRevokedPayload {
  accountId: string;
  /** The app whose access was revoked, when the platform said. */
  appId: string | null;
  revokedAt: string;
  /** How it was learnt: a `user_event` delivery, or an API answer. */
  detectedBy: 'webhook' | 'api';
}

export const AccountRevoked = defineContract<AccountRevokedPayload>('account.revoked.v1', {
  type: 'object',
  required: ['accountId', 'appId', 'revokedAt', 'detectedBy'],
  additionalProperties: false,
  properties: {
    accountId: { type: 'string', pattern: '^[0-9]{1,30}$' },
    appId: { type: ['string', 'null'], pattern: '^[0-9]{1,30}$' },
    revokedAt: { type: 'string', format: 'date-time' },
    detectedBy: { type: 'string', enum: ['webhook', 'api'] },
  },
});
