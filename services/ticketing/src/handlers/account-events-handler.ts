import {
  AccountConnected,
  AccountDisconnected,
  AccountNeedsReconnect,
  WebhookInvalid,
  type AccountConnectedPayload,
  type AccountDisconnectedPayload,
  type AccountNeedsReconnectPayload,
  type Contract,
  type Envelope,
  type WebhookInvalidPayload,
} from '@crm/contracts';
import type { Pool } from '@crm/db';
import type { Logger } from '@crm/logging';
import type { MessageHandler } from '@crm/messaging';
import { mask } from '@crm/secrets';
import { recordAccountChange, type AccountChange } from '../adapters/db/accounts';

export type AccountEventPayload =
  | AccountConnectedPayload
  | AccountDisconnectedPayload
  | AccountNeedsReconnectPayload
  | WebhookInvalidPayload;

/**
 * The message types `ticketing.account-events` accepts: auth's. `account.revoked` is
 * ticketing's own, recorded with the revoke delivery, so the queue is not bound to it.
 */
export const ACCOUNT_EVENT_CONTRACTS = [AccountConnected, AccountDisconnected, AccountNeedsReconnect, WebhookInvalid] as Contract<AccountEventPayload>[];

/** What an account event changes in ticketing's mirror of the account; null for events about no account. */
export function accountChangeOf(envelope: Envelope<AccountEventPayload>): AccountChange | null {
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
  return null;
}

/**
 * Consumes `ticketing.account-events`: keeps the accounts table (status and the masked
 * credentials the partner configuration shows) in step with auth. The newest event wins, so
 * redelivered and reordered events settle the same way.
 */
export function createAccountEventsHandler({ pool, logger }: { pool: Pool; logger: Logger }): MessageHandler<AccountEventPayload> {
  return async (envelope) => {
    const change = accountChangeOf(envelope);
    if (!change) {
      const event = envelope.payload as WebhookInvalidPayload;
      logger.warn('the webhook is invalid', { envName: event.envName, webhookId: event.webhookId, reason: event.reason });
      return;
    }
    const applied = await recordAccountChange(pool, change);
    logger.info('account event handled', { envelopeId: envelope.id, type: envelope.type, accountId: change.accountId, status: change.status, applied });
  };
}
