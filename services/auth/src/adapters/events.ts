import {
  AccountConnected,
  AccountDisconnected,
  AccountNeedsReconnect,
  AuthAccountEventKeys,
  commandResultRoutingKey,
  Exchanges,
  SocialCommandResult,
  WebhookInvalid,
  type AccountConnectedPayload,
  type AccountDisconnectedPayload,
  type AccountNeedsReconnectPayload,
  type SocialCommandResultPayload,
  type WebhookInvalidPayload,
} from '@crm/contracts';
import { makeEnvelope, type Publisher } from '@crm/messaging';

const PRODUCER = 'auth';

/** What auth tells the rest of the system: account events and command results, each confirmed by the broker. */
export class AuthEvents {
  constructor(private readonly publisher: Publisher) {}

  accountConnected(payload: AccountConnectedPayload): Promise<void> {
    return this.publisher.publish(Exchanges.accountEvents, AuthAccountEventKeys.connected, makeEnvelope(AccountConnected, PRODUCER, payload));
  }

  accountDisconnected(payload: AccountDisconnectedPayload): Promise<void> {
    return this.publisher.publish(Exchanges.accountEvents, AuthAccountEventKeys.disconnected, makeEnvelope(AccountDisconnected, PRODUCER, payload));
  }

  accountNeedsReconnect(payload: AccountNeedsReconnectPayload): Promise<void> {
    return this.publisher.publish(Exchanges.accountEvents, AuthAccountEventKeys.needsReconnect, makeEnvelope(AccountNeedsReconnect, PRODUCER, payload));
  }

  webhookInvalid(payload: WebhookInvalidPayload): Promise<void> {
    return this.publisher.publish(Exchanges.accountEvents, AuthAccountEventKeys.webhookInvalid, makeEnvelope(WebhookInvalid, PRODUCER, payload));
  }

  /** A command's result; its message id is derived from the command id, so a republished result is recognisable. */
  commandResult(result: SocialCommandResultPayload): Promise<void> {
    const envelope = makeEnvelope(SocialCommandResult, PRODUCER, result, { id: `result-${result.commandId}` });
    return this.publisher.publish(Exchanges.socialCommandResults, commandResultRoutingKey(result.action, result.outcome), envelope);
  }
}
