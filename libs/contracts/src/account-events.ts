import { Type, type Static } from '@sinclair/typebox';
import { defineContract } from './envelope';
import { Nullable, StringEnum } from './schema';

/**
 * `account.revoked` on the `account.events` topic exchange: the account's owner revoked the
 * app's access on the platform. auth announces it when a `user_event` revoke delivery arrives,
 * in the transaction that forgets the credentials; ticketing mirrors it. The other account
 * events (connected, disconnected, needs-reconnect, webhook.invalid) are auth's, in
 * auth-account-events.ts.
 */
export const ACCOUNT_REVOKED_KEY = 'account.revoked';

const digits = Type.String({ pattern: '^[0-9]{1,30}$' });

export const AccountRevokedPayloadSchema = Type.Object(
  {
    accountId: digits,
    appId: Nullable(Type.String({ pattern: '^[0-9]{1,30}$', description: 'The app whose access was revoked, when the platform said.' })),
    revokedAt: Type.String({ format: 'date-time' }),
    detectedBy: StringEnum(['webhook', 'api'], { description: 'How it was learnt: a `user_event` delivery, or an API answer.' }),
  },
  { additionalProperties: false, description: "The account's owner revoked the app's access on the platform." },
);
export type AccountRevokedPayload = Static<typeof AccountRevokedPayloadSchema>;
export const AccountRevoked = defineContract('account.revoked.v1', AccountRevokedPayloadSchema);
