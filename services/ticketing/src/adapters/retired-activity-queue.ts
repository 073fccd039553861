import amqplib from 'amqplib';
import { DEFAULT_RETRY, Exchanges, Queues, RawActivity, type RawActivityPayload, type Topology } from '@crm/contracts';
import { Consumer, type Broker, type MessageHandler } from '@crm/messaging';

/**
 * The one activity queue from before the partitions (`ticketing.activity`), on a broker upgraded
 * from then: unbound from `social.activity`, so nothing more reaches it, and consumed like a
 * partition, so what waited in it (or comes back from its retry queues) is still recorded.
 * Null when the broker has no such queue. Once it and its retry queues are empty, delete them.
 */
export async function retiredActivityConsumer(
  broker: Broker,
  amqpUrl: string,
  topology: Topology,
  options: { handler: MessageHandler<RawActivityPayload>; prefetch: number },
): Promise<Consumer<RawActivityPayload> | null> {
  const found = await unbindRetired(amqpUrl, broker.topologyMode === 'declare').catch((error: Error) => {
    // The broker is not reachable yet: the consumers wait for it; the old queue is looked for at the next start.
    broker.logger.warn('could not look for the activity queue from before the partitions', { reason: error.message });
    return false;
  });
  if (!found) return null;
  broker.logger.warn('consuming the activity queue from before the partitions until it is deleted', { queue: Queues.ticketingActivity });
  return new Consumer<RawActivityPayload>(broker, { queue: Queues.ticketingActivity, topology, contracts: [RawActivity], retry: DEFAULT_RETRY, prefetch: options.prefetch, handler: options.handler });
}

/** Whether the queue exists; unbinds it when it does (with `unbind`: a provisioned broker's `pnpm provision` does, ticketing has no configure right there). */
async function unbindRetired(amqpUrl: string, unbind: boolean): Promise<boolean> {
  // A connection of its own, briefly: a missing queue closes the channel that asked.
  const connection = await amqplib.connect(amqpUrl.split(',')[0]!.trim());
  try {
    const probe = await connection.createChannel();
    probe.on('error', () => undefined);
    const exists = await probe.checkQueue(Queues.ticketingActivity).then(
      () => true,
      () => false,
    );
    if (exists && unbind) await probe.unbindQueue(Queues.ticketingActivity, Exchanges.socialActivity, '#');
    return exists;
  } finally {
    await connection.close().catch(() => undefined);
  }
}
