import amqp, { type AmqpConnectionManager } from 'amqp-connection-manager';
import type { Logger } from '@crm/logging';
import { coalesceWrites } from './coalesced-writes';
import type { TopologyMode } from './topology';

export interface BrokerOptions {
  /** One broker URL, or the nodes of a cluster separated by commas (all with the same user). */
  url: string;
  /** Shown in the broker's connection list. */
  name: string;
  logger: Logger;
  heartbeatSeconds?: number;
  reconnectSeconds?: number;
  /** Declare the topology at connect (default), or only verify it exists (a provisioned broker; see TopologyMode). */
  topology?: TopologyMode;
}

/** The URLs of a comma-separated list (AMQP_URL naming a cluster's nodes). */
export function brokerUrls(urls: string): string[] {
  return urls
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
}

/** The user a broker URL (the first of a list) logs in as (amqplib's default: guest). RabbitMQ checks a message's `userId` against it. */
export function brokerUser(url: string): string {
  return decodeURIComponent(new URL(brokerUrls(url)[0] ?? url).username) || 'guest';
}

/** host:port of a broker URL, for logs: never the credentials. */
const brokerAddress = (url: string) => {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port || '5672'}`;
};

/**
 * The one broker connection of a process. It reconnects by itself; every channel made from
 * it re-runs its setup (declarations, consumers) after each reconnect. Given several URLs (a
 * cluster's nodes), each attempt takes the next in turn (amqp-connection-manager's round
 * robin, with its reconnect delay), so a node that refuses or dies is passed over.
 */
export class Broker {
  readonly connection: AmqpConnectionManager;
  private closed = false;

  constructor(readonly options: BrokerOptions) {
    const { url, name, logger } = options;
    this.connection = amqp.connect(brokerUrls(url), {
      heartbeatIntervalInSeconds: options.heartbeatSeconds ?? 5,
      reconnectTimeInSeconds: options.reconnectSeconds ?? 1,
      // Nagle's algorithm off: a publish waiting for its confirm, or an RPC for its reply, is not held back behind the previous frame's ACK.
      connectionOptions: { clientProperties: { connection_name: name }, noDelay: true },
    });
    this.connection.on('connect', ({ connection, url: connectedTo }) => {
      coalesceWrites(connection);
      logger.info('broker connected', { broker: typeof connectedTo === 'string' ? brokerAddress(connectedTo) : undefined });
    });
    this.connection.on('disconnect', ({ err }) => {
      if (!this.closed) logger.warn('broker disconnected; reconnecting', { reason: err?.message });
    });
    this.connection.on('connectFailed', ({ err }) => logger.warn('broker connection failed; retrying', { reason: err?.message }));
    this.connection.on('blocked', ({ reason }) => logger.warn('broker blocked publishing', { reason }));
    this.connection.on('unblocked', () => logger.info('broker unblocked publishing'));
  }

  get logger(): Logger {
    return this.options.logger;
  }

  get topologyMode(): TopologyMode {
    return this.options.topology ?? 'declare';
  }

  /** The broker user of this connection. */
  get user(): string {
    return brokerUser(this.options.url);
  }

  /** True once close() was called: errors of channels going down are expected then. */
  get closing(): boolean {
    return this.closed;
  }

  isConnected(): boolean {
    return this.connection.isConnected();
  }

  /** Resolves once connected; rejects after `timeoutMs` (reconnect attempts go on). */
  async waitUntilConnected(timeoutMs = 30_000): Promise<void> {
    await this.connection.connect({ timeout: timeoutMs });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.connection.close();
  }
}
