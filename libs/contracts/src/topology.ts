import { ACCOUNT_REVOKED_KEY } from './account-events';
import { AuthAccountEventKeys } from './auth-account-events';
import { SilenceEventKeys } from './silence-events';
import { SOCIAL_ACTIONS } from './commands';
import { TrackingCommandKeys } from './tracking-events';

/** Plain description of exchanges and queues; libs/messaging declares it on the broker. */
export interface ExchangeSpec {
  name: string;
  type: 'topic' | 'direct' | 'fanout';
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
  /** work: durable quorum queue with retries and a DLQ. rpc: durable request queue, answered by reply; callers publish to its (first) binding's exchange. */
  kind: 'work' | 'rpc';
  bindings?: BindingSpec[];
  retry?: RetryPolicy;
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
  ticketingActivity: 'ticketing.activity',
  ticketingCommandResults: 'ticketing.command-results',
  ticketingAccountEvents: 'ticketing.account-events',
  authRpc: 'auth.rpc',
  authCommands: 'auth.commands',
  authActivity: 'auth.activity',
  authAccountEvents: 'auth.account-events',
  trackingRpc: 'tracking.rpc',
  trackingFollows: 'tracking.follows',
} as const;

/**
 * The whole system's topology (docs/architecture.md, "Broker topology"). Every service declares all of it at
 * connect, so a message published before its consumer first started is kept, not dropped by
 * an exchange without bindings.
 */
export const SYSTEM_TOPOLOGY: Topology = {
  exchanges: [
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
  ],
  queues: [
    { name: Queues.ticketingActivity, kind: 'work', bindings: [{ exchange: Exchanges.socialActivity, routingKey: '#' }], retry: DEFAULT_RETRY },
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
  ],
};
