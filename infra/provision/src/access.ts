import { ACTIVITY_PARTITION_QUEUES, Exchanges, Queues, SYSTEM_TOPOLOGY } from '@crm/contracts';
import { requeueExchangeName } from '@crm/messaging';

export const SERVICES = ['webhook-ingest', 'ticketing', 'auth', 'tracking'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** The services with a database of their own. */
export const DATABASE_SERVICES = ['ticketing', 'auth', 'tracking'] as const satisfies readonly ServiceName[];
export type DatabaseServiceName = (typeof DATABASE_SERVICES)[number];

/**
 * The one exception to a service's app role reading and writing every table of its database:
 * these append-only tables it may only read and add to (docs/architecture.md, "Credentials").
 * Their triggers refuse UPDATE and TRUNCATE to everyone, DELETE to all but the table's owner;
 * the rights say the same, however often provisioning runs.
 */
export const APPEND_ONLY_TABLES: Record<DatabaseServiceName, readonly string[]> = {
  ticketing: ['raw_log', 'audit_log'],
  auth: ['audit_log'],
  tracking: ['audit_log'],
};

/**
 * What each service may do on the broker (docs/messaging.md, "Broker users"). RabbitMQ checks
 * `write` on the exchange a message is published to and `read` on the queue consumed; nobody
 * gets `configure`, as the provisioner declares the whole topology. Only RPC servers write to
 * the default exchange (`amq.default`), which their direct reply-to answers go through.
 */
export interface BrokerAccess {
  /** Exchanges the service publishes to (its work queues' requeue exchanges included). */
  write: string[];
  /** Queues the service consumes, and exchanges it binds a queue of its own to. */
  read: string[];
  /**
   * The process declares server-named queues of its own (exclusive, deleted with its
   * connection): the listener of credential revocations on `access.events`.
   */
  ownQueues?: boolean;
}

const consumes = (...queues: string[]) => ({ read: queues, requeue: queues.filter((q) => SYSTEM_TOPOLOGY.queues.find((spec) => spec.name === q)?.kind === 'work').map(requeueExchangeName) });

function access(publishes: string[], ...queues: string[]): BrokerAccess {
  const { read, requeue } = consumes(...queues);
  return { write: [...publishes, ...requeue], read };
}

/** The RPC servers' replies (direct reply-to) go through the default exchange. */
const REPLIES = 'amq.default';

/** Every service that checks API credentials hears their revocations on `access.events`, on a queue of its own. */
const hearsRevocations = (grants: BrokerAccess): BrokerAccess => ({ write: grants.write, read: [...grants.read, Exchanges.accessEvents], ownQueues: true });

export const BROKER_ACCESS: Record<ServiceName, BrokerAccess> = {
  'webhook-ingest': access([Exchanges.socialActivity, Exchanges.authRpc]),
  // rpc.auth: auth.credential.verify and search; the webhook key is refused to ticketing by the method's callers.
  // account.events: the silence alarm's account.silent and account.delivering.
  ticketing: hearsRevocations(
    access(
      [Exchanges.socialCommands, Exchanges.crmEvents, Exchanges.accountEvents, Exchanges.trackingRpc, Exchanges.authRpc, Exchanges.trackingCommands, requeueExchangeName(Queues.ticketingActivity)],
      ...ACTIVITY_PARTITION_QUEUES,
      Queues.ticketingReplicas,
      // The queue from before the partitions, drained after an upgrade.
      Queues.ticketingActivity,
      Queues.ticketingCommandResults,
      Queues.ticketingAccountEvents,
      // Changes of the tasks its tickets follow (tracking.events).
      Queues.ticketingTrackingEvents,
    ),
  ),
  auth: hearsRevocations(
    access([Exchanges.socialCommandResults, Exchanges.accountEvents, Exchanges.accessEvents, REPLIES], Queues.authRpc, Queues.authCommands, Queues.authActivity, Queues.authAccountEvents),
  ),
  // tracking.events: changes of followed tasks (its outbox); tracking.follows: follow_task / unfollow_task.
  tracking: hearsRevocations(access([REPLIES, Exchanges.authRpc, Exchanges.trackingEvents], Queues.trackingRpc, Queues.trackingFollows)),
};

/** The names the broker gives server-named queues. */
const SERVER_NAMED = 'amq\\.gen-.*';

const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/** A permission regex matching exactly `names`, and anything `patterns` match (`^$` matches no resource). */
export function exactly(names: string[], patterns: string[] = []): string {
  const alternatives = [...names.map(escape), ...patterns];
  return alternatives.length ? `^(${alternatives.join('|')})$` : '^$';
}

/** RabbitMQ's configure, write and read regexes for a service (a queue of its own is declared, bound and read). */
export function permissionsOf(service: ServiceName): { configure: string; write: string; read: string } {
  const { write, read, ownQueues } = BROKER_ACCESS[service];
  const own = ownQueues ? [SERVER_NAMED] : [];
  return { configure: exactly([], own), write: exactly(write, own), read: exactly(read, own) };
}
