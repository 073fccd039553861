import type { ConfirmChannel, Channel, Options } from 'amqplib';
import type { QueueSpec, RetryPolicy, Topology } from '@crm/contracts';

/** Messages that were delivered this many times without an ack (a crash loop) are dead-lettered by the broker. */
export const BROKER_DELIVERY_LIMIT = 20;

export const dlqName = (queue: string) => `${queue}.dlq`;
/** The queue a message of `queue` waits in for `delayMs` before it comes back to `queue` (a retry, a deferral). */
export const delayQueueName = (queue: string, delayMs: number) => `${queue}.delay.${delayMs}ms`;
/**
 * The direct exchange a work queue's consumer moves messages through to its retry queues and
 * DLQ (routing key: the target queue's name), so that no service needs write on the default
 * exchange, which reaches every queue.
 */
export const requeueExchangeName = (queue: string) => `${queue}.requeue`;

/**
 * declare: a process declares the topology it uses at connect (needs `configure` rights;
 * development and tests). verify: it only checks, passively, that its exchanges and queues
 * exist (needs no `configure` right): a provisioned broker, where `pnpm provision` declared all.
 */
export type TopologyMode = 'declare' | 'verify';

function workQueueArguments(spec: QueueSpec): Options.AssertQueue['arguments'] {
  return {
    'x-queue-type': 'quorum',
    'x-delivery-limit': BROKER_DELIVERY_LIMIT,
    'x-dead-letter-exchange': '',
    'x-dead-letter-routing-key': dlqName(spec.name),
    ...(spec.singleActiveConsumer ? { 'x-single-active-consumer': true } : {}),
  };
}

async function declareQueue(channel: Channel | ConfirmChannel, spec: QueueSpec): Promise<void> {
  if (spec.kind === 'work') {
    await channel.assertQueue(dlqName(spec.name), { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await channel.assertQueue(spec.name, { durable: true, arguments: workQueueArguments(spec) });
  } else {
    // rpc and presence queues: classic, durable.
    await channel.assertQueue(spec.name, { durable: true });
  }
  for (const binding of spec.bindings ?? []) {
    await channel.bindQueue(spec.name, binding.exchange, binding.routingKey);
  }
}

/** Declares exchanges, queues, their DLQs and bindings. Idempotent: run after every (re)connect. */
export async function declareTopology(channel: Channel | ConfirmChannel, topology: Topology): Promise<void> {
  for (const exchange of topology.exchanges) {
    await channel.assertExchange(exchange.name, exchange.type, { durable: true, ...(exchange.arguments ? { arguments: exchange.arguments } : {}) });
  }
  for (const exchange of topology.exchanges) {
    for (const binding of exchange.bindings ?? []) await channel.bindExchange(exchange.name, binding.exchange, binding.routingKey);
  }
  for (const queue of topology.queues) await declareQueue(channel, queue);
}

/** Passively checks that every exchange and queue of `topology` exists: a refusal closes the channel (the setup is retried). */
export async function verifyTopology(channel: Channel | ConfirmChannel, topology: Topology): Promise<void> {
  for (const exchange of topology.exchanges) await channel.checkExchange(exchange.name);
  for (const queue of topology.queues) {
    await channel.checkQueue(queue.name);
    if (queue.kind === 'work') await channel.checkQueue(dlqName(queue.name));
  }
}

/** Declares or verifies `topology`, as `mode` says. */
export function prepareTopology(channel: Channel | ConfirmChannel, topology: Topology, mode: TopologyMode): Promise<void> {
  return mode === 'verify' ? verifyTopology(channel, topology) : declareTopology(channel, topology);
}

/**
 * Declares the delay queues of one work queue: each holds messages for its TTL, then
 * dead-letters them back to the work queue. The delay is in the name, so changing a delay
 * makes a new queue instead of clashing with the old one's arguments. Declares too the queue's
 * requeue exchange, which routes to the delay queues and the DLQ (verify mode: checks them).
 */
export async function declareRetryQueues(channel: Channel | ConfirmChannel, queue: string, retry: RetryPolicy, mode: TopologyMode = 'declare'): Promise<void> {
  const exchange = requeueExchangeName(queue);
  const delayQueues = [...new Set(retry.delaysMs)].map((delayMs) => ({ delayMs, name: delayQueueName(queue, delayMs) }));
  if (mode === 'verify') {
    await channel.checkExchange(exchange);
    for (const { name } of delayQueues) await channel.checkQueue(name);
    return;
  }
  await channel.assertExchange(exchange, 'direct', { durable: true });
  await channel.bindQueue(dlqName(queue), exchange, dlqName(queue));
  for (const { delayMs, name } of delayQueues) {
    await channel.assertQueue(name, {
      durable: true,
      arguments: { 'x-message-ttl': delayMs, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': queue },
    });
    await channel.bindQueue(name, exchange, name);
  }
}

/** The delay before retry number `attempt` (1-based). */
export function retryDelay(retry: RetryPolicy, attempt: number): number {
  const index = Math.min(attempt - 1, retry.delaysMs.length - 1);
  return retry.delaysMs[Math.max(index, 0)] ?? 1000;
}
