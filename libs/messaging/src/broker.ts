import amqp, { type AmqpConnectionManager } from 'amqp-connection-manager';
import type { Logger } from '@crm/logging';
import { coalesceWrites } from './coalesced-writes';
import type { TopologyMode } from './topology';

export interface BrokerOptions {
  url: string;
  /** Shown in the broker's connection list. */
  name: string;
  logger: Logger;
  heartbeatSeconds?: number;
  reconnectSeconds?: number;
  /** Declare the topology at connect (default), or only verify it exists (a provisioned broker; see TopologyMode). */
  topology?: TopologyMode;
}

/** The user a broker URL logs in as (amqplib's default: guest). RabbitMQ checks a message's `userId` against it. */
export function brokerUser(url: string): string {
  return decodeURIComponent(new URL(url).username) || 'guest';
}

/**
 * The one broker connection of a process. It reconnects by itself; every channel made from
 * it re-runs its setup (declarations, consumers) after each reconnect.
 */
export class Broker {
  readonly connection: AmqpConnectionManager;
  private closed = false;

  constructor(readonly options: BrokerOptions) {
    const { url, name, logger } = options;
    this.connection = amqp.connect([url], {
      heartbeatIntervalInSeconds: options.heartbeatSeconds ?? 5,
      reconnectTimeInSeconds: options.reconnectSeconds ?? 1,
      // Nagle's algorithm off: a publish waiting for its confirm, or an RPC for its reply, is not held back behind the previous frame's ACK.
      connectionOptions: { clientProperties: { connection_name: name }, noDelay: true },
    });
    this.connection.on('connect', ({ connection }) => {
      coalesceWrites(connection);
      logger.info('broker connected');
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
