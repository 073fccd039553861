import { ACCOUNT_REVOKED_KEY } from './account-events';
import { AuthAccountEventKeys } from './auth-account-events';
import { SilenceEventKeys } from './silence-events';
import { SOCIAL_ACTIONS } from './commands';
import { TrackingCommandKeys, TrackingEventKeys } from './tracking-events';

/** Plain description of exchanges and queues; libs/messaging declares it on the broker. */
export interface ExchangeSpec {
  name: string;
  /** x-consistent-hash: RabbitMQ's consistent-hash exchange (plugin rabbitmq_consistent_hash_exchange). */
  type: 'topic' | 'direct' | 'fanout' | 'x-consistent-hash';
  /** Declaration arguments, e.g. the consistent-hash exchange's `hash-header`. */
  arguments?: Record<string, string>;
  /** Exchanges this one is bound to as a destination (exchange-to-exchange bindings). */
  bindings?: BindingSpec[];
}

export interface BindingSpec {
  exchange: string;
  routingKey: string;
}

export interface RetryPolicy {
  /** Delay before each retry; the last one repeats while attempts remain. */
  delaysMs: number[];
  /** Attempts in all (the first one included) before the message goes to `<queue>.dlq`. */
  maxAttempts: number;
}

export interface QueueSpec {
  name: string;
  /**
   * work: durable quorum queue with retries and a DLQ. rpc: durable request queue, answered by reply; callers publish to its (first) binding's exchange.
   * presence: a queue nothing is published to, which every replica of a service consumes: its consumer count is the number of replicas.
   */
  kind: 'work' | 'rpc' | 'presence';
  bindings?: BindingSpec[];
  retry?: RetryPolicy;
  /** Work queues: one consumer at a time gets its messages (x-single-active-consumer), the others stand by. */
  singleActiveConsumer?: boolean;
}

export interface Topology {
  exchanges: ExchangeSpec[];
  queues: QueueSpec[];
}

export const DEFAULT_RETRY: RetryPolicy = { delaysMs: [1_000, 5_000, 30_000, 120_000, 600_000], maxAttempts: 8 };

export const Exchanges = {
  socialActivity: 'social.activity',
  socialCommands: 'social.commands',
  socialCommandResults: 'social.command-results',
  accountEvents: 'account.events',
  /** Fanout: every process with a cache of credential checks binds a queue of its own. */
  accessEvents: 'access.events',
  /** Every ticket change, for the CRM (crm-events.ts); routing key = event type. */
  crmEvents: 'crm.events',
  /** RPC requests go through their own exchanges, so a caller needs write on these, never on the default exchange (which reaches every queue). */
  authRpc: 'rpc.auth',
  trackingRpc: 'rpc.tracking',
  /** Direct: follow_task / unfollow_task for tracking (tracking-events.ts). */
  trackingCommands: 'tracking.commands',
  /** Topic: changes of followed tasks, routing key = event name (tracking-events.ts). */
  trackingEvents: 'tracking.events',
} as const;

export const Queues = {
  /** Partitioned: ticketingActivityPartition(i) names each queue; this name is the one before partitions (drained on upgrade). */
  ticketingActivity: 'ticketing.activity',
  ticketingCommandResults: 'ticketing.command-results',
  ticketingAccountEvents: 'ticketing.account-events',
  /** The changes of tasks ticketing follows for tickets linked to orders. */
  ticketingTrackingEvents: 'ticketing.tracking-events',
  authRpc: 'auth.rpc',
  authCommands: 'auth.commands',
  authActivity: 'auth.activity',
  authAccountEvents: 'auth.account-events',
  trackingRpc: 'tracking.rpc',
  trackingFollows: 'tracking.follows',
  /** Presence: every ticketing replica consumes it, so its consumer count says how many share the activity partitions. */
  ticketingReplicas: 'ticketing.replicas',
} as const;

/** Header on `social.activity` carrying the account id (for_user_id): what picks an activity partition. */
export const ACCOUNT_HEADER = 'x-account-id';

/** The consistent-hash exchange that spreads `social.activity` over ticketing's activity partitions by account. */
export const ACTIVITY_PARTITIONS_EXCHANGE = 'ticketing.activity.partitions';

/**
 * 8: up to 8 ticketing replicas each hold a partition, with 2 partitions per replica at the
 * usual 2 to 4 replicas, so a takeover moves a share of the load rather than all of it.
 */
export const DEFAULT_ACTIVITY_PARTITIONS = 8;

export const ticketingActivityPartition = (index: number) => `${Queues.ticketingActivity}.${index}`;

/** ACTIVITY_PARTITIONS (1 to 64), the same for every service of a deployment; DEFAULT_ACTIVITY_PARTITIONS without it. */
export function activityPartitionsFrom(env: NodeJS.ProcessEnv): number {
  const text = env.ACTIVITY_PARTITIONS?.trim();
  if (!text) return DEFAULT_ACTIVITY_PARTITIONS;
  const count = Number(text);
  if (!/^[0-9]+$/.test(text) || count < 1 || count > 64) throw new Error(`ACTIVITY_PARTITIONS must be a whole number from 1 to 64 (got '${text}')`);
  return count;
}

/** The names of ticketing's activity partition queues for `count` partitions. */
export function activityPartitionQueues(count: number): string[] {
  return Array.from({ length: count }, (_, index) => ticketingActivityPartition(index));
}

/**
 * ticketing's activity partitions: quorum queues with a single active consumer, each bound
 * with weight 1 to the consistent-hash exchange, which hashes the account header. All of an
 * account's deliveries land in one partition and are taken by one replica at a time, in order.
 */
function activityPartitionSpecs(count: number): QueueSpec[] {
  return activityPartitionQueues(count).map((name) => ({
    name,
    kind: 'work',
    bindings: [{ exchange: ACTIVITY_PARTITIONS_EXCHANGE, routingKey: '1' }],
    retry: DEFAULT_RETRY,
    singleActiveConsumer: true,
  }));
}

/**
 * The whole system's topology (docs/architecture.md, "Broker topology"). Every service declares all of it at
 * connect, so a message published before its consumer first started is kept, not dropped by
 * an exchange without bindings.
 */
export function systemTopology(activityPartitions: number): Topology {
  return {
    exchanges: [...SYSTEM_EXCHANGES, { name: ACTIVITY_PARTITIONS_EXCHANGE, type: 'x-consistent-hash', arguments: { 'hash-header': ACCOUNT_HEADER }, bindings: [{ exchange: Exchanges.socialActivity, routingKey: '#' }] }],
    queues: [...activityPartitionSpecs(activityPartitions), ...SYSTEM_QUEUES],
  };
}

const SYSTEM_EXCHANGES: ExchangeSpec[] = [
    { name: Exchanges.socialActivity, type: 'topic' },
    { name: Exchanges.socialCommands, type: 'direct' },
    { name: Exchanges.socialCommandResults, type: 'topic' },
    { name: Exchanges.accountEvents, type: 'topic' },
    { name: Exchanges.accessEvents, type: 'fanout' },
    { name: Exchanges.crmEvents, type: 'topic' },
    { name: Exchanges.authRpc, type: 'direct' },
    { name: Exchanges.trackingRpc, type: 'direct' },
    { name: Exchanges.trackingCommands, type: 'direct' },
    { name: Exchanges.trackingEvents, type: 'topic' },
];

const SYSTEM_QUEUES: QueueSpec[] = [
  { name: Queues.ticketingReplicas, kind: 'presence' },
    { name: Queues.ticketingCommandResults, kind: 'work', bindings: [{ exchange: Exchanges.socialCommandResults, routingKey: '#' }], retry: DEFAULT_RETRY },
    // auth's account events, `account.revoked` (auth's too) included.
    {
      name: Queues.ticketingAccountEvents,
      kind: 'work',
      bindings: [...Object.values(AuthAccountEventKeys), ACCOUNT_REVOKED_KEY].map((routingKey) => ({ exchange: Exchanges.accountEvents, routingKey })),
      retry: DEFAULT_RETRY,
    },
    { name: Queues.authRpc, kind: 'rpc', bindings: [{ exchange: Exchanges.authRpc, routingKey: Queues.authRpc }] },
    { name: Queues.authCommands, kind: 'work', bindings: SOCIAL_ACTIONS.map((action) => ({ exchange: Exchanges.socialCommands, routingKey: action })), retry: DEFAULT_RETRY },
    { name: Queues.trackingRpc, kind: 'rpc', bindings: [{ exchange: Exchanges.trackingRpc, routingKey: Queues.trackingRpc }] },
    // The platform's user events (webhook-ingest routes them `user_event.<revoking user id>`): auth records a revoke and announces account.revoked.
    { name: Queues.authActivity, kind: 'work', bindings: [{ exchange: Exchanges.socialActivity, routingKey: 'user_event.#' }], retry: DEFAULT_RETRY },
    // ticketing's silence alarm: auth asks the platform to replay the silent window of an account with XAA subscriptions.
    { name: Queues.authAccountEvents, kind: 'work', bindings: [{ exchange: Exchanges.accountEvents, routingKey: SilenceEventKeys.silent }], retry: DEFAULT_RETRY },
    // Following tasks: tracking hears follow_task / unfollow_task.
    {
      name: Queues.trackingFollows,
      kind: 'work',
      bindings: Object.values(TrackingCommandKeys).map((routingKey) => ({ exchange: Exchanges.trackingCommands, routingKey })),
      retry: DEFAULT_RETRY,
    },
    // Following tasks: ticketing hears the changes of the tasks its tickets follow.
    {
      name: Queues.ticketingTrackingEvents,
      kind: 'work',
      bindings: Object.values(TrackingEventKeys).map((routingKey) => ({ exchange: Exchanges.trackingEvents, routingKey })),
      retry: DEFAULT_RETRY,
    },
];

/** ticketing's activity partition queues, as many as ACTIVITY_PARTITIONS of this process's environment says. */
export const ACTIVITY_PARTITION_QUEUES: readonly string[] = activityPartitionQueues(activityPartitionsFrom(process.env));

/** The topology with ACTIVITY_PARTITIONS of this process's environment. */
export const SYSTEM_TOPOLOGY: Topology = systemTopology(ACTIVITY_PARTITION_QUEUES.length);
