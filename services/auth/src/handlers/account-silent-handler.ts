import type { AccountSilentPayload } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import type { MessageHandler } from '@crm/messaging';
import type { XaaReplays } from '../operations/xaa';

/**
 * Consumes `auth.account-events` (`account.silent`, ticketing's silence alarm): an account with
 * X Activity API subscriptions gets a replay of its silent window queued, asked for once the
 * platform's rules allow it; dedupe downstream absorbs what the replay repeats. Idempotent: the
 * same silence heard again queues nothing more.
 */
export function createAccountSilentHandler(deps: { replays: Pick<XaaReplays, 'replaySilence'>; logger: Logger }): MessageHandler<AccountSilentPayload> {
  return async (envelope) => {
    const { accountId, silentSince } = envelope.payload;
    const outcome = await deps.replays.replaySilence(accountId, Date.parse(silentSince));
    if (!outcome) {
      deps.logger.info('silent account has no XAA subscriptions: nothing to replay', { accountId, silentSince, envelopeId: envelope.id });
      return;
    }
    deps.logger.warn('silent account: replay of its silent window queued', { accountId, silentSince, status: outcome.status, from: outcome.from, to: outcome.to, envelopeId: envelope.id });
  };
}
