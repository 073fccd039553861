import type { ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Topology } from '@crm/contracts';
import { runWithContext, type Logger } from '@crm/logging';
import { contextOf, inSpan, SpanKind } from '@crm/telemetry';
import type { Broker } from './broker';
import { Headers } from './headers';
import { brokerMetrics } from './metrics';
import { prepareTopology, type TopologyMode } from './topology';

/**
 * The reason a message's signal is aborted: its consumer rewinds (an ordered consumer's, after a
 * failure), hands its queue over, or its channel is gone. A handler that has not begun its work
 * throws it (or lets it through) and the message is left unsettled, to be handled again in its
 * place (by the rewind, or after the broker returns it).
 */
export class PutBack extends Error {
  override name = 'PutBack';
}

export interface QueueConsumerOptions {
  queue: string;
  topology: Topology;
  prefetch?: number;
  /** Extra declarations this consumer needs beyond the shared topology (e.g. retry queues). */
  declare?: (channel: ConfirmChannel) => Promise<void>;
}

/**
 * Per channel, the messages it delivered that are not settled yet, by delivery tag (ascending, the
 * order the queue gave them): what a rewind hands to the handler again.
 */
const unsettledOn = new WeakMap<ConfirmChannel, Map<number, ConsumeMessage>>();

function hold(channel: ConfirmChannel, message: ConsumeMessage): void {
  let held = unsettledOn.get(channel);
  if (!held) unsettledOn.set(channel, (held = new Map()));
  held.set(message.fields.deliveryTag, message);
}

/**
 * Consumes one queue on a confirm channel that is re-created after every reconnect.
 * Subclasses settle each message on the channel that delivered it: an ack on a dead
 * channel is impossible, and the broker redelivers instead.
 */
export abstract class QueueConsumer {
  /** The consumer's channel; a new one after each hand-over to a peer (yieldToPeers). */
  private channel: ChannelWrapper;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly consumerTags = new Map<ConfirmChannel, string>();
  private readonly settledListeners = new Set<(messageId: string | undefined) => void>();
  /** Channels whose messages are being rewound: what they deliver meanwhile is left for the rewind to handle, after the others. */
  private readonly rewinding = new Set<ConfirmChannel>();
  /** Per channel, what aborts the signal of the messages it delivered: a rewind, or the channel's close. */
  private readonly putBack = new Map<ConfirmChannel, AbortController>();
  private stopping = false;
  /** Handing the queue to a peer: what is delivered meanwhile is left for the channel's close to return. */
  private yielding = false;
  private deliveredSinceCount = 0;
  protected readonly logger: Logger;
  protected readonly topologyMode: TopologyMode;

  constructor(
    private readonly broker: Broker,
    protected readonly options: QueueConsumerOptions,
  ) {
    this.logger = broker.logger;
    this.topologyMode = broker.topologyMode;
    this.channel = this.openChannel();
    // The queue's series exists (at 0) from the start, so a consumer that never registers shows too.
    brokerMetrics.consumers.inc({ queue: options.queue }, 0);
  }

  private openChannel(): ChannelWrapper {
    const { broker } = this;
    const channel = broker.connection.createChannel({
      name: `consumer:${this.options.queue}`,
      confirm: true,
      setup: (raw: ConfirmChannel) => this.setup(raw),
    });
    // A failed setup (e.g. a declaration the broker refuses) is retried on the next connect; it must not crash the process.
    channel.on('error', (error: Error) => broker.closing || broker.logger.error('channel setup failed', { channel: 'consumer', reason: error.message }));
    return channel;
  }

  private async setup(channel: ConfirmChannel): Promise<void> {
    // A channel the broker closes for an error (a declaration it refuses, a publish to a missing
    // exchange, an unknown delivery tag) is not opened again before the connection is: the
    // consumer is gone until then, which messaging_consumers shows. Unheard, the error would end the process.
    channel.on('error', (error: Error) => this.logger.error('consumer channel closed by the broker; no consumer on the queue until the connection is re-established', { queue: this.options.queue, reason: error.message }));
    await prepareTopology(channel, this.options.topology, this.topologyMode);
    await this.options.declare?.(channel);
    if (this.stopping) return;
    await channel.prefetch(this.options.prefetch ?? 10);
    await this.consumeOn(channel);
    channel.once('close', () => {
      this.forget(channel);
      this.putBack.get(channel)?.abort(new PutBack('the channel that delivered the message is closed; the broker returns the message'));
      this.putBack.delete(channel);
    });
  }

  private async consumeOn(channel: ConfirmChannel): Promise<void> {
    const { consumerTag } = await channel.consume(this.options.queue, (message) => {
      if (message) this.track(channel, message);
      else {
        this.logger.warn('consumer cancelled by the broker', { queue: this.options.queue });
        this.forget(channel);
      }
    });
    this.consumerTags.set(channel, consumerTag);
    brokerMetrics.consumers.inc({ queue: this.options.queue });
  }

  /**
   * Hands a queue with a single active consumer to the next consumer waiting on it, in order: the
   * messages in hand not begun go back (their signal aborted, PutBack), those begun finish (up to
   * `timeoutMs`), then the channel closes, which returns what it still holds and activates the next
   * consumer in one step of the queue, so that one takes the returned messages first. A new channel
   * then consumes again, behind the others waiting. A cancel would not do: the queue activates the
   * next consumer at once, which takes later messages while this one still holds earlier ones.
   */
  async yieldToPeers(timeoutMs = 10_000): Promise<void> {
    if (this.stopping || this.yielding) return;
    this.yielding = true;
    try {
      for (const controller of this.putBack.values()) controller.abort(new PutBack('its consumer hands the queue to a peer: the message goes back on the queue for it'));
      this.putBack.clear();
      await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
      for (const channel of [...this.consumerTags.keys()]) this.forget(channel);
      const handedOver = this.channel;
      await handedOver.close().catch((error: Error) => this.logger.warn('closing the channel to hand the queue over failed; the connection returns its messages', { queue: this.options.queue, reason: error.message }));
      if (!this.stopping) this.channel = this.openChannel();
    } finally {
      this.yielding = false;
    }
  }

  /**
   * Handles every message this channel holds again, in the order they came, after `pauseMs`:
   * what the channel delivers meanwhile waits, the messages in hand that began finish, then all
   * the others (the failed one first) are handed to the handler again here. They stay with this
   * consumer, unsettled, rather than going back to the queue: on a single-active-consumer queue a
   * cancel would hand the queue to a peer while the earlier messages are still held here; a nack
   * counts a delivery of every message in hand against the broker's delivery limit (a crash
   * loop's bound, not a failure's), and a quorum queue (RabbitMQ 3.10) requeues one multiple nack
   * of more than 32 messages out of order. The signal of every message in hand is aborted at once
   * (PutBack), so the ones not yet begun wait too rather than being done before the failed one.
   * Should the channel close or the queue be handed over meanwhile, the broker returns them
   * (in order). Once at a time per channel: answers false when one is under way.
   */
  protected rewind(channel: ConfirmChannel, pauseMs: number): boolean {
    if (this.rewinding.has(channel)) return false;
    this.rewinding.add(channel);
    // The messages in hand whose work has not begun wait for the failed one instead of being done before it.
    this.putBack.get(channel)?.abort(new PutBack('an earlier message of the queue failed: this one is handled again after it'));
    this.putBack.delete(channel);
    void (async () => {
      await Promise.allSettled([...this.inFlight]);
      await new Promise((resolve) => setTimeout(resolve, pauseMs).unref());
      this.rewinding.delete(channel);
      if (!this.consumerTags.has(channel) || this.yielding || this.stopping) return;
      for (const message of [...(unsettledOn.get(channel)?.values() ?? [])]) this.track(channel, message);
    })();
    return true;
  }

  /** Messages delivered since the last call: a consumer that got any is the queue's active one. */
  takeDeliveredCount(): number {
    const count = this.deliveredSinceCount;
    this.deliveredSinceCount = 0;
    return count;
  }


  /** The consumer on `channel` is gone (cancelled, its channel closed, or stopped). */
  private forget(channel: ConfirmChannel): void {
    if (this.consumerTags.delete(channel)) brokerMetrics.consumers.dec({ queue: this.options.queue });
  }

  private track(channel: ConfirmChannel, message: ConsumeMessage): void {
    hold(channel, message);
    if (this.rewinding.has(channel) || this.yielding) return;
    this.deliveredSinceCount += 1;
    let putBack = this.putBack.get(channel);
    if (!putBack) this.putBack.set(channel, (putBack = new AbortController()));
    const signal = putBack.signal;
    const context = {
      correlationId: correlationIdOf(message),
      messageId: message.properties.messageId,
      queue: this.options.queue,
    };
    const work = runWithContext(context, () => this.handleInSpan(channel, message, signal))
      .catch((error: unknown) => {
        this.logger.error('message handling crashed; it will be redelivered', { err: error });
      })
      .finally(() => {
        this.inFlight.delete(work);
        for (const listener of this.settledListeners) listener(message.properties.messageId as string | undefined);
      });
    this.inFlight.add(work);
  }

  /** Handles the message in a consumer span, the child of the span that published it (its headers' trace context). */
  private handleInSpan(channel: ConfirmChannel, message: ConsumeMessage, signal: AbortSignal): Promise<void> {
    const attributes = {
      'messaging.system': 'rabbitmq',
      'messaging.operation.type': 'process',
      'messaging.destination.name': message.fields.exchange,
      'messaging.rabbitmq.destination.routing_key': message.fields.routingKey,
      'messaging.consumer.group.name': this.options.queue,
      'messaging.message.id': message.properties.messageId as string | undefined,
      'crm.message.type': message.properties.type as string | undefined,
      'crm.message.redelivered': message.fields.redelivered,
    };
    return inSpan(`${this.options.queue} process`, { kind: SpanKind.CONSUMER, parent: contextOf(message.properties.headers), attributes }, () => this.handle(channel, message, signal));
  }

  /**
   * Calls `listener` with a message's id once its handling is over (acked, sent to a retry
   * queue or the DLQ, or left for redelivery): the explicit hook to wait on for a message that
   * changes nothing observable. Returns the function that removes the listener.
   */
  onSettled(listener: (messageId: string | undefined) => void): () => void {
    this.settledListeners.add(listener);
    return () => this.settledListeners.delete(listener);
  }

  /**
   * Handles one message and settles it (ack, or republish then ack) on `channel`, or leaves it
   * unsettled once `signal` is aborted (PutBack) before its work began.
   */
  protected abstract handle(channel: ConfirmChannel, message: ConsumeMessage, signal: AbortSignal): Promise<void>;

  /** Resolves once the consumer is registered with the broker. */
  async ready(timeoutMs = 30_000): Promise<void> {
    await Promise.race([
      this.channel.waitForConnect(),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`could not start consuming ${this.options.queue}`)), timeoutMs).unref()),
    ]);
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** Stops taking messages, lets the ones in hand finish (up to `timeoutMs`), closes the channel. */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopping = true;
    for (const [channel, tag] of this.consumerTags) {
      await channel.cancel(tag).catch(() => undefined);
      this.forget(channel);
    }
    const drained = Promise.allSettled([...this.inFlight]);
    await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    if (this.inFlight.size > 0) this.logger.warn('stopped with messages still in hand; the broker redelivers them', { queue: this.options.queue, count: this.inFlight.size });
    await this.channel.close();
  }
}

/** The work's correlation id: the envelope's (in a header, as RPC requests use the property for replies), else the property. */
function correlationIdOf(message: ConsumeMessage): string {
  const header = message.properties.headers?.[Headers.correlationId];
  if (typeof header === 'string' && header) return header;
  return message.properties.correlationId ?? message.properties.messageId ?? 'unknown';
}

/** Publishes on a confirm channel and waits for the broker's confirm. */
export function publishConfirmed(channel: ConfirmChannel, exchange: string, routingKey: string, content: Buffer, options: Parameters<ConfirmChannel['publish']>[3]): Promise<void> {
  return new Promise((resolve, reject) => {
    channel.publish(exchange, routingKey, content, options, (error) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()));
  });
}

/** Acks unless the channel is already gone (then the broker redelivers, which consumers tolerate). */
export function settle(channel: ConfirmChannel, message: ConsumeMessage, how: 'ack' | 'requeue'): void {
  unsettledOn.get(channel)?.delete(message.fields.deliveryTag);
  try {
    if (how === 'ack') channel.ack(message);
    else channel.nack(message, false, true);
  } catch {
    // Channel closed: nothing to settle; the broker will redeliver.
  }
}
