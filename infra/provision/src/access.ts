import { Exchanges, Queues, SYSTEM_TOPOLOGY } from '@crm/contracts';
import { requeueExchangeName } from '@crm/messaging';

export const SERVICES = ['webhook-ingest', 'ticketing', 'auth', 'tracking'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** The services with a database of their own. */
export const DATABASE_SERVICES = ['ticketing', 'auth', 'tracking'] as const satisfies readonly ServiceName[];
export type DatabaseServiceName = (typeof DATABASE_SERVICES)[number];

/**
 * What each service may do on the broker (docs/messaging.md, "Broker users"). RabbitMQ checks
 * `write` on the exchange a message is published to and `read` on the queue consumed; nobody
 * gets `configure`, as the provisioner declares the whole topology. Only RPC servers write to
 * the default exchange (`amq.default`), which their direct reply-to answers go through.
 */
export interface BrokerAccess {
  /** Exchanges the service publishes to (its work queues' requeue exchanges included). */
  write: string[];
  /** Queues the service consumes. */
  read: string[];
}

const consumes = (...queues: string[]) => ({ read: queues, requeue: queues.filter((q) => SYSTEM_TOPOLOGY.queues.find((spec) => spec.name === q)?.kind === 'work').map(requeueExchangeName) });

function access(publishes: string[], ...queues: string[]): BrokerAccess {
  const { read, requeue } = consumes(...queues);
  return { write: [...publishes, ...requeue], read };
}

/** The RPC servers' replies (direct reply-to) go through the default exchange. */
const REPLIES = 'amq.default';

export const BROKER_ACCESS: Record<ServiceName, BrokerAccess> = {
  'webhook-ingest': access([Exchanges.socialActivity, Exchanges.authRpc]),
  // rpc.auth: auth.credential.verify; the webhook key is refused to ticketing by the method's callers.
  ticketing: access([Exchanges.socialCommands, Exchanges.accountEvents, Exchanges.trackingRpc, Exchanges.authRpc], Queues.ticketingActivity, Queues.ticketingCommandResults, Queues.ticketingAccountEvents),
  auth: access([Exchanges.socialCommandResults, Exchanges.accountEvents, REPLIES], Queues.authRpc, Queues.authCommands, Queues.authActivity),
  tracking: access([REPLIES, Exchanges.authRpc], Queues.trackingRpc),
};

const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/** A permission regex matching exactly `names` (`^$` matches no resource). */
export function exactly(names: string[]): string {
  return names.length ? `^(${names.map(escape).join('|')})$` : '^$';
}

/** RabbitMQ's configure, write and read regexes for a service. */
export function permissionsOf(service: ServiceName): { configure: string; write: string; read: string } {
  const { write, read } = BROKER_ACCESS[service];
  return { configure: '^$', write: exactly(write), read: exactly(read) };
}
