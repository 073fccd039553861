import type { TSchema } from '@sinclair/typebox';
import { AccountRevoked, ACCOUNT_REVOKED_KEY } from './account-events';
import { ACCOUNT_SCOPES_OUTDATED_KEY, AccountConnected, AppCreditEventKeys, AppCreditRestored, AppOutOfCredit, AccountDisconnected, AccountNeedsReconnect, AccountScopesOutdated, AuthAccountEventKeys, WebhookInvalid } from './auth-account-events';
import { AccountBudgetExhausted, AccountBudgetWarning, BudgetEventKeys } from './budget-events';
import { SocialCommand, SocialCommandResult } from './commands';
import { CredentialGrantSchema, CredentialRevoked, CredentialVerifyRequest } from './credentials';
import { CRM_ACCOUNT_EVENT_TYPES, CRM_EVENT_TYPES, CrmAccountEvents, CrmEvents } from './crm-events';
import type { Contract } from './envelope';
import { RawActivity, SearchPostsRequest, SearchPostsResultSchema, WebhookKeyRequest, WebhookKeyResultSchema } from './messages';
import { Nullable } from './schema';
import { AccountDelivering, AccountSilent, SilenceEventKeys } from './silence-events';
import { ACCOUNT_HEADER, ACTIVITY_PARTITION_QUEUES, Exchanges, Queues } from './topology';
import { FollowTask, TaskEtaMoved, TaskRiderSilent, TaskStatusChanged, TrackingCommandKeys, TrackingEventKeys, UnfollowTask } from './tracking-events';
import {
  TrackingAvailabilityRequest,
  TrackingAvailabilitySchema,
  TrackingLiveRequest,
  TrackingLiveViewSchema,
  TrackingTaskRequest,
  TrackingTaskResultSchema,
} from './tracking';

/**
 * Who sends which message where, and who reads it: the routes of every message type over the
 * topology of topology.ts. The AsyncAPI document (docs/asyncapi.yaml) is generated from these
 * and the contracts' schemas; routes.test.ts checks them against the topology.
 */

export type ServiceName = 'webhook-ingest' | 'ticketing' | 'auth' | 'tracking';
/** What a route needs of a contract: its type and schema. */
type AnyContract = Pick<Contract<unknown>, 'type' | 'schema'>;

/** Messages a service publishes on an exchange. */
export interface Publication {
  contracts: AnyContract[];
  exchange: string;
  /** The routing key; `{name}` marks a part that varies with the message. */
  routingKey: string;
  producer: ServiceName;
  /** `outbox`: written in the transaction of the change, published after it commits. `confirm`: published directly, awaiting the broker's confirm. */
  via: 'outbox' | 'confirm';
  summary: string;
}

/** An event about an account on `account.events`, put there through the producer's outbox. */
const accountEventPublication = (contract: AnyContract, routingKey: string, producer: Publication['producer'], note = ''): Publication => ({
  contracts: [contract],
  exchange: Exchanges.accountEvents,
  routingKey,
  producer,
  via: 'outbox',
  summary: `${contract.schema.description ?? contract.type}${note}`,
});

/** A CRM event ticketing puts on `crm.events` through its outbox, routed by its type. */
const crmPublication = (contract: AnyContract, type: string, summary: string): Publication => ({
  contracts: [contract],
  exchange: Exchanges.crmEvents,
  routingKey: type,
  producer: 'ticketing',
  via: 'outbox',
  summary,
});

export const PUBLICATIONS: Publication[] = [
  {
    contracts: [RawActivity],
    exchange: Exchanges.socialActivity,
    routingKey: '{kind}.{forUserId}',
    producer: 'webhook-ingest',
    via: 'confirm',
    summary: 'Every verified webhook delivery; the routing key is its payload kind and account (`unknown` when the delivery names none), the header `x-account-id` its account again (what picks its activity partition).',
  },
  {
    contracts: [SocialCommand],
    exchange: Exchanges.socialCommands,
    routingKey: '{action}',
    producer: 'ticketing',
    via: 'outbox',
    summary: 'A command for auth to carry out as a connected account (a reply, a DM, a like, ...); the routing key is its action.',
  },
  {
    contracts: [SocialCommandResult],
    exchange: Exchanges.socialCommandResults,
    routingKey: '{action}.{succeeded|failed}',
    producer: 'auth',
    via: 'outbox',
    summary: 'The outcome of each command (an unknown outcome goes with `failed`).',
  },
  ...(
    [
      [AccountConnected, AuthAccountEventKeys.connected],
      [AccountDisconnected, AuthAccountEventKeys.disconnected],
      [AccountNeedsReconnect, AuthAccountEventKeys.needsReconnect],
      [WebhookInvalid, AuthAccountEventKeys.webhookInvalid],
      [AccountRevoked, ACCOUNT_REVOKED_KEY],
      [AccountScopesOutdated, ACCOUNT_SCOPES_OUTDATED_KEY],
      [AccountBudgetWarning, BudgetEventKeys.warning],
      [AccountBudgetExhausted, BudgetEventKeys.exhausted],
      [AppOutOfCredit, AppCreditEventKeys.outOfCredit],
      [AppCreditRestored, AppCreditEventKeys.creditRestored],
    ] as const
  ).map(([contract, routingKey]) => accountEventPublication(contract, routingKey, 'auth')),
  ...(
    [
      [AccountSilent, SilenceEventKeys.silent],
      [AccountDelivering, SilenceEventKeys.delivering],
    ] as const
  ).map(([contract, routingKey]) => accountEventPublication(contract, routingKey, 'ticketing', " (ticketing's silence alarm)")),
  {
    contracts: [CredentialRevoked],
    exchange: Exchanges.accessEvents,
    routingKey: '',
    producer: 'auth',
    via: 'confirm',
    summary: "An API credential was revoked (auth's CLI): every process's cache of credential checks forgets it.",
  },
  ...CRM_EVENT_TYPES.map((type) => crmPublication(CrmEvents[type], type, `The CRM event \`${type}\` (docs/crm-events.md); the CRM binds queues of its own to \`${Exchanges.crmEvents}\`.`)),
  ...CRM_ACCOUNT_EVENT_TYPES.map((type) => crmPublication(CrmAccountEvents[type], type, `The CRM event \`${type}\` about an account (docs/crm-events.md, "Account events").`)),
  ...(
    [
      [FollowTask, TrackingCommandKeys.follow],
      [UnfollowTask, TrackingCommandKeys.unfollow],
    ] as const
  ).map(([contract, routingKey]) => ({
    contracts: [contract],
    exchange: Exchanges.trackingCommands,
    routingKey,
    producer: 'ticketing' as const,
    via: 'outbox' as const,
    summary: `${contract.schema.description ?? contract.type} Sent by the service whose records follow orders (ticketing, for its tickets linked to an order).`,
  })),
  ...(
    [
      [TaskStatusChanged, TrackingEventKeys.statusChanged],
      [TaskEtaMoved, TrackingEventKeys.etaMoved],
      [TaskRiderSilent, TrackingEventKeys.riderSilent],
    ] as const
  ).map(([contract, routingKey]) => ({
    contracts: [contract],
    exchange: Exchanges.trackingEvents,
    routingKey,
    producer: 'tracking' as const,
    via: 'outbox' as const,
    summary: `${contract.schema.description ?? contract.type} One event per change (its eventId is the envelope's id, derived from the change); followers bind queues of their own to \`${Exchanges.trackingEvents}\`.`,
  })),
];

/** A work queue's reader and the message types it accepts (anything else is dead-lettered). */
export interface Consumption {
  queue: string;
  consumer: ServiceName;
  contracts: AnyContract[];
  summary: string;
}

export const CONSUMPTIONS: Consumption[] = [
  ...ACTIVITY_PARTITION_QUEUES.map((queue, index) => ({
    queue,
    consumer: 'ticketing' as const,
    contracts: [RawActivity],
    summary: `Partition ${index} of the activity (the accounts the consistent hash of \`${ACCOUNT_HEADER}\` puts here; one replica active on it at a time): interprets each delivery into tickets, contacts and timeline entries, and keeps it in the raw log, whatever the interpretation makes of it.`,
  })),
  { queue: Queues.ticketingCommandResults, consumer: 'ticketing', contracts: [SocialCommandResult], summary: 'Records the outcome of the commands ticketing sent.' },
  {
    queue: Queues.ticketingAccountEvents,
    consumer: 'ticketing',
    contracts: [AccountConnected, AccountDisconnected, AccountNeedsReconnect, AccountRevoked, WebhookInvalid],
    summary: "Mirrors auth's accounts into the partner configuration.",
  },
  { queue: Queues.authCommands, consumer: 'auth', contracts: [SocialCommand], summary: 'Carries out each command on the platform, once, and publishes its result.' },
  { queue: Queues.authActivity, consumer: 'auth', contracts: [RawActivity], summary: 'Records a revoke (`user_event`) and announces `account.revoked`.' },
  {
    queue: Queues.authAccountEvents,
    consumer: 'auth',
    contracts: [AccountSilent],
    summary: "ticketing's silence alarm: for an account with X Activity API subscriptions, queues a replay of the silent window (within the platform's rules).",
  },
  {
    queue: Queues.trackingFollows,
    consumer: 'tracking',
    contracts: [FollowTask, UnfollowTask],
    summary: 'Adds or removes a follower of a task (idempotent); a task with no follower left is no longer watched.',
  },
];

/** A method of an RPC queue: its request, the schema of its result, who answers and who calls. */
export interface RpcRoute {
  request: AnyContract;
  result: TSchema;
  queue: string;
  server: ServiceName;
  callers: ServiceName[];
}

export const RPC_ROUTES: RpcRoute[] = [
  { request: WebhookKeyRequest, result: WebhookKeyResultSchema, queue: Queues.authRpc, server: 'auth', callers: ['webhook-ingest'] },
  { request: SearchPostsRequest, result: SearchPostsResultSchema, queue: Queues.authRpc, server: 'auth', callers: ['ticketing'] },
  { request: CredentialVerifyRequest, result: Nullable(CredentialGrantSchema), queue: Queues.authRpc, server: 'auth', callers: ['ticketing', 'tracking'] },
  { request: TrackingTaskRequest, result: TrackingTaskResultSchema, queue: Queues.trackingRpc, server: 'tracking', callers: [] },
  { request: TrackingLiveRequest, result: TrackingLiveViewSchema, queue: Queues.trackingRpc, server: 'tracking', callers: ['ticketing'] },
  { request: TrackingAvailabilityRequest, result: TrackingAvailabilitySchema, queue: Queues.trackingRpc, server: 'tracking', callers: ['ticketing'] },
];

/** A fanout every process of the listed services hears on a queue of its own (exclusive, deleted with its connection). */
export interface Broadcast {
  exchange: string;
  listeners: ServiceName[];
  contracts: AnyContract[];
  summary: string;
}

export const BROADCASTS: Broadcast[] = [
  {
    exchange: Exchanges.accessEvents,
    listeners: ['auth', 'ticketing', 'tracking'],
    contracts: [CredentialRevoked],
    summary: 'Each process forgets a revoked credential at once; one revoked while it is disconnected is missed, and its cache TTL bounds it.',
  },
];
