import type { RawActivityPayload } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import { PermanentFailure, type MessageHandler } from '@crm/messaging';
import { InvalidRevoke, revokeOf } from '../domain/revokes';
import type { AccountService } from '../operations/accounts';

/**
 * Consumes `auth.activity` (`user_event` deliveries on `social.activity`): when the account's
 * owner revoked the app, its token pair is forgotten, the account shown as revoked and
 * `account.revoked` announced, in one transaction. Idempotent: a redelivered or outdated
 * revoke changes and announces nothing.
 */
export function createActivityHandler(deps: { accounts: Pick<AccountService, 'revoked'>; logger: Logger }): MessageHandler<RawActivityPayload> {
  return async (envelope) => {
    let revoke;
    try {
      revoke = revokeOf(envelope.payload);
    } catch (error) {
      if (error instanceof InvalidRevoke) throw new PermanentFailure(error.message);
      throw error;
    }
    if (!revoke) return; // another user event: nothing auth keeps
    const changed = await deps.accounts.revoked(revoke);
    deps.logger.info(changed ? 'account revoked; its credentials are forgotten' : 'account revoke changed nothing (unknown, already revoked, or connected again since)', {
      accountId: revoke.accountId,
      revokedAt: revoke.revokedAt,
      envelopeId: envelope.id,
    });
  };
}
