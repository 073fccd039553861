import type { AccountRevokedPayload } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import type { MessageHandler } from '@crm/messaging';
import type { AccountStore } from '../adapters/accounts';

/**
 * Consumes `auth.account-events` (`account.revoked`, published by ticketing when the platform
 * delivers a revoke): the account's owner removed the app, so its token pair is forgotten and
 * the account shown as revoked. Idempotent: a redelivered or outdated revoke changes nothing.
 */
export function createAccountEventsHandler(deps: { accounts: AccountStore; logger: Logger }): MessageHandler<AccountRevokedPayload> {
  return async (envelope) => {
    const { accountId, revokedAt, detectedBy } = envelope.payload;
    const reason = detectedBy === 'webhook' ? "the account's owner revoked the app's access (platform delivery)" : "the platform said the app's access was revoked";
    const changed = await deps.accounts.markRevoked(accountId, new Date(revokedAt), reason);
    deps.logger.info(changed ? 'account revoked; its credentials are forgotten' : 'account revoke changed nothing (unknown, already revoked, or connected again since)', {
      accountId,
      revokedAt,
      envelopeId: envelope.id,
    });
  };
}
