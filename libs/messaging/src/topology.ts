import type { ConfirmChannel, Channel, Options } from 'amqplib';
import type { QueueSpec, RetryPolicy, Topology } from '@crm/contracts';

/** Messages that were delivered this many times without an ack (a crash loop) are dead-lettered by the broker. */
export const BROKER_DELIVERY_LIMIT = 20;

export const dlqName = (queue: string) => `${queue}.dlq`;
export const retryQueueName = (queue: string, delayMs: number) => `${queue}.retry.${delayMs}ms`;

function workQueueArguments(queue: string): Options.AssertQueue['arguments'] {
  return {
    'x-queue-type': 'quorum',
    'x-delivery-limit': BROKER_DELIVERY_LIMIT,
    'x-dead-letter-exchange': '',
    'x-dead-letter-routing-key': dlqName(queue),
  };
}

async function declareQueue(channel: Channel | ConfirmChannel, spec: QueueSpec): Promise<void> {
  if (spec.kind === 'work') {
    await channel.assertQueue(dlqName(spec.name), { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await channel.assertQueue(spec.name, { durable: true, arguments: workQueueArguments(spec.name) });
  } else {
    await channel.assertQueue(spec.name, { durable: true });
  }
  for (const binding of spec.bindings ?? []) {
    await channel.bindQueue(spec.name, binding.exchange, binding.routingKey);
  }
}

/** Declares exchanges, queues, their DLQs and bindings. Idempotent: run after every (re)connect. */
export async function declareTopology(channel: Channel | ConfirmChannel, topology: Topology): Promise<void> {
  for (const exchange of topology.exchanges) {
    await channel.assertExchange(exchange.name, exchange.type, { durable: true });
  }
  for (const queue of topology.queues) await declareQueue(channel, queue);
}

/**
 * Declares the delay queues of one work queue: each holds messages for its TTL, then
 * dead-letters them back to the work queue. The delay is in the name, so changing a delay
 * makes a new queue instead of clashing with the old one's arguments.
 */
export async function declareRetryQueues(channel: Channel | ConfirmChannel, queue: string, retry: RetryPolicy): Promise<void> {
  for (const delayMs of new Set(retry.delaysMs)) {
    await channel.assertQueue(retryQueueName(queue, delayMs), {
      durable: true,
      arguments: { 'x-message-ttl': delayMs, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': queue },
    });
  }
}

/** The delay before retry number `attempt` (1-based). */
export function retryDelay(retry: RetryPolicy, attempt: number): number {
  const index = Math.min(attempt - 1, retry.delaysMs.length - 1);
  return retry.delaysMs[Math.max(index, 0)] ?? 1000;
}
