import type { ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel } from 'amqplib';
import type { Broker } from './broker';

/**
 * This process's consumer on a presence queue (nothing is published to it): the queue's
 * consumer count is the number of processes present, the broker forgetting one with its
 * connection. Re-registered after every reconnect.
 */
export class ReplicaPresence {
  private readonly channel: ChannelWrapper;

  constructor(
    broker: Broker,
    private readonly queue: string,
  ) {
    this.channel = broker.connection.createChannel({
      name: `presence:${queue}`,
      setup: async (channel: ConfirmChannel) => {
        // Declared here too: this channel may be set up before a consumer's declared the topology.
        if (broker.topologyMode === 'declare') await channel.assertQueue(queue, { durable: true });
        await channel.consume(queue, () => undefined, { noAck: true });
      },
    });
    this.channel.on('error', (error: Error) => broker.closing || broker.logger.error('presence channel setup failed', { queue, reason: error.message }));
  }

  /** Processes present now, this one included. */
  async count(): Promise<number> {
    return (await this.channel.checkQueue(this.queue)).consumerCount;
  }

  async close(): Promise<void> {
    await this.channel.close();
  }
}
