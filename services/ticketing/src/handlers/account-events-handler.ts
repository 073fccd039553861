import {
  AccountConnected,
  AccountDisconnected,
  AccountNeedsReconnect,
  AccountRevoked,
  WebhookInvalid,
  type AccountConnectedPayload,
  type AccountDisconnectedPayload,
  type AccountNeedsReconnectPayload,
  type AccountRevokedPayload,
  type Contract,
  type Envelope,
  type WebhookInvalidPayload,
} from '@crm/contracts';
import type { MessageHandler } from '@crm/messaging';
import { mask } from '@crm/secrets';
import type { HandlerDeps } from './handler-deps';
import type { AccountChange } from '../domain/accounts';
import { mirrorAccountChange } from '../operations/mirror-account-event';

export type AccountEventPayload =
  | AccountConnectedPayload
  | AccountDisconnectedPayload
  | AccountNeedsReconnectPayload
  | AccountRevokedPayload
  | WebhookInvalidPayload;

/**
 * The message types `ticketing.account-events` accepts: auth's, `account.revoked` included
 * (ticketing also records a revoke from its delivery; whichever comes first, the status is the same).
 */
export const ACCOUNT_EVENT_CONTRACTS = [AccountConnected, AccountDisconnected, AccountNeedsReconnect, AccountRevoked, WebhookInvalid] as Contract<AccountEventPayload>[];

/** What an account event changes in ticketing's mirror of the account; null for events about no account. */
function accountChangeOf(envelope: Envelope<AccountEventPayload>): AccountChange | null {
  const { type } = envelope;
  if (type === AccountConnected.type) {
    const event = envelope.payload as AccountConnectedPayload;
    return {
      accountId: event.accountId,
      status: 'connected',
      at: new Date(event.connectedAt),
      screenName: event.screenName,
      // The consumer key identifies the app; it is shown masked all the same, like the token.
      consumerKeyMasked: mask(event.consumerKey),
      accessTokenMasked: event.accessTokenMasked,
    };
  }
  if (type === AccountDisconnected.type) {
    const event = envelope.payload as AccountDisconnectedPayload;
    return { accountId: event.accountId, status: 'disconnected', at: new Date(event.disconnectedAt), screenName: event.screenName, consumerKeyMasked: null, accessTokenMasked: null };
  }
  if (type === AccountNeedsReconnect.type) {
    const event = envelope.payload as AccountNeedsReconnectPayload;
    return { accountId: event.accountId, status: 'needs_reconnect', at: new Date(event.detectedAt), screenName: event.screenName };
  }
  if (type === AccountRevoked.type) {
    const event = envelope.payload as AccountRevokedPayload;
    return { accountId: event.accountId, status: 'revoked', at: new Date(event.revokedAt), consumerKeyMasked: null, accessTokenMasked: null };
  }
  return null;
}

/** Consumes `ticketing.account-events`: each account event becomes a change of ticketing's mirror of the account. */
export function createAccountEventsHandler({ store, logger, onHandled }: HandlerDeps): MessageHandler<AccountEventPayload> {
  return async (envelope) => {
    const change = accountChangeOf(envelope);
    if (change) {
      const applied = await mirrorAccountChange(store, change);
      logger.info('account event handled', { envelopeId: envelope.id, type: envelope.type, accountId: change.accountId, status: change.status, applied });
    } else {
      const event = envelope.payload as WebhookInvalidPayload;
      logger.warn('the webhook is invalid', { envName: event.envName, webhookId: event.webhookId, reason: event.reason });
    }
    onHandled?.(envelope.id);
  };
}
