import {
  AccountBudgetExhausted,
  AccountBudgetWarning,
  BudgetEventKeys,
  type AccountBudgetExhaustedPayload,
  type AccountBudgetWarningPayload,
  AccountConnected,
  AccountDisconnected,
  AccountNeedsReconnect,
  AccountRevoked,
  AccountScopesOutdated,
  ACCOUNT_SCOPES_OUTDATED_KEY,
  AppCreditEventKeys,
  AppCreditRestored,
  AppOutOfCredit,
  ACCOUNT_REVOKED_KEY,
  AuthAccountEventKeys,
  commandResultRoutingKey,
  CredentialRevoked,
  Exchanges,
  SocialCommandResult,
  WebhookInvalid,
  type AccountConnectedPayload,
  type AccountDisconnectedPayload,
  type AccountNeedsReconnectPayload,
  type AccountRevokedPayload,
  type AccountScopesOutdatedPayload,
  type AppCreditRestoredPayload,
  type AppOutOfCreditPayload,
  type CredentialRevokedPayload,
  type SocialCommandResultPayload,
  type WebhookInvalidPayload,
} from '@crm/contracts';
import { withTransaction, type Pool, type PoolClient } from '@crm/db';
import { enqueueOutbox, makeEnvelope, type OutboxRelay } from '@crm/messaging';

const PRODUCER = 'auth';

/**
 * What auth tells the rest of the system: account events, command results and ended sessions. Each is enqueued
 * in the outbox inside the transaction that stores the change it announces, so a change is
 * announced exactly when it is stored; the relay publishes it (broker-confirmed) after the commit.
 */
export class AuthEvents {
  constructor(
    private readonly pool: Pool,
    private readonly relay: Pick<OutboxRelay, 'kick'>,
  ) {}

  /** Runs `work` in one transaction, then relays at once what it enqueued (the relay's round would too, later). */
  async storeAndAnnounce<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const result = await withTransaction(this.pool, work);
    void this.relay.kick();
    return result;
  }

  accountConnected(client: PoolClient, payload: AccountConnectedPayload): Promise<void> {
    return enqueueOutbox(client, Exchanges.accountEvents, AuthAccountEventKeys.connected, makeEnvelope(AccountConnected, PRODUCER, payload));
  }

  accountDisconnected(client: PoolClient, payload: AccountDisconnectedPayload): Promise<void> {
    return enqueueOutbox(client, Exchanges.accountEvents, AuthAccountEventKeys.disconnected, makeEnvelope(AccountDisconnected, PRODUCER, payload));
  }

  accountNeedsReconnect(client: PoolClient, payload: AccountNeedsReconnectPayload): Promise<void> {
    return enqueueOutbox(client, Exchanges.accountEvents, AuthAccountEventKeys.needsReconnect, makeEnvelope(AccountNeedsReconnect, PRODUCER, payload));
  }

  accountScopesOutdated(client: PoolClient, payload: AccountScopesOutdatedPayload): Promise<void> {
    return enqueueOutbox(client, Exchanges.accountEvents, ACCOUNT_SCOPES_OUTDATED_KEY, makeEnvelope(AccountScopesOutdated, PRODUCER, payload));
  }

  accountRevoked(client: PoolClient, payload: AccountRevokedPayload): Promise<void> {
    return enqueueOutbox(client, Exchanges.accountEvents, ACCOUNT_REVOKED_KEY, makeEnvelope(AccountRevoked, PRODUCER, payload));
  }

  accountBudgetWarning(client: PoolClient, payload: AccountBudgetWarningPayload): Promise<void> {
    return enqueueOutbox(client, Exchanges.accountEvents, BudgetEventKeys.warning, makeEnvelope(AccountBudgetWarning, PRODUCER, payload));
  }

  accountBudgetExhausted(client: PoolClient, payload: AccountBudgetExhaustedPayload): Promise<void> {
    return enqueueOutbox(client, Exchanges.accountEvents, BudgetEventKeys.exhausted, makeEnvelope(AccountBudgetExhausted, PRODUCER, payload));
  }

  appOutOfCredit(client: PoolClient, payload: AppOutOfCreditPayload): Promise<void> {
    return enqueueOutbox(client, Exchanges.accountEvents, AppCreditEventKeys.outOfCredit, makeEnvelope(AppOutOfCredit, PRODUCER, payload));
  }

  appCreditRestored(client: PoolClient, payload: AppCreditRestoredPayload): Promise<void> {
    return enqueueOutbox(client, Exchanges.accountEvents, AppCreditEventKeys.creditRestored, makeEnvelope(AppCreditRestored, PRODUCER, payload));
  }

  webhookInvalid(client: PoolClient, payload: WebhookInvalidPayload): Promise<void> {
    return enqueueOutbox(client, Exchanges.accountEvents, AuthAccountEventKeys.webhookInvalid, makeEnvelope(WebhookInvalid, PRODUCER, payload));
  }

  /** A command's result; its message id is derived from the command id, so a republished result is recognisable. */
  commandResult(client: PoolClient, result: SocialCommandResultPayload): Promise<void> {
    const envelope = makeEnvelope(SocialCommandResult, PRODUCER, result, { id: `result-${result.commandId}` });
    return enqueueOutbox(client, Exchanges.socialCommandResults, commandResultRoutingKey(result.action, result.outcome), envelope);
  }

  /** A session ended (sign-out): on the `access.events` fanout, so every service's cache of checks forgets it and its open streams close. */
  credentialRevoked(client: PoolClient, payload: CredentialRevokedPayload): Promise<void> {
    return enqueueOutbox(client, Exchanges.accessEvents, '', makeEnvelope(CredentialRevoked, PRODUCER, payload));
  }
}
