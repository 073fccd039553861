import { randomUUID } from 'node:crypto';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel } from 'amqplib';
import { validateEnvelope, type Contract, type Envelope, type Topology } from '@crm/contracts';
import { currentCorrelationId } from '@crm/logging';
import { inSpan, SpanKind, traceCarrier } from '@crm/telemetry';
import type { Broker } from './broker';
import { Headers } from './headers';
import { prepareTopology } from './topology';
import { brokerMetrics } from './metrics';

export class PublishError extends Error {
  override name = 'PublishError';
}

export interface EnvelopeOptions {
  id?: string;
  correlationId?: string;
  occurredAt?: string;
}

/** Builds an envelope for `contract`; the correlation id defaults to the current work's. */
export function makeEnvelope<P>(contract: Contract<P>, producer: string, payload: P, options: EnvelopeOptions = {}): Envelope<P> {
  return {
    id: options.id ?? randomUUID(),
    type: contract.type,
    occurredAt: options.occurredAt ?? new Date().toISOString(),
    producer,
    correlationId: options.correlationId ?? currentCorrelationId(),
    payload,
  };
}

/** A message's properties; its headers carry the correlation id and the W3C trace context of the work that sends it. */
export function messageProperties(envelope: Envelope, headers: Record<string, unknown> = {}) {
  return {
    persistent: true,
    messageId: envelope.id,
    correlationId: envelope.correlationId,
    type: envelope.type,
    appId: envelope.producer,
    contentType: 'application/json',
    timestamp: Math.floor(Date.now() / 1000),
    headers: { [Headers.correlationId]: envelope.correlationId, ...traceCarrier(), ...headers },
  };
}

/** OpenTelemetry's messaging attributes of a publish. */
export function publishAttributes(exchange: string, routingKey: string, envelope: Envelope) {
  return {
    'messaging.system': 'rabbitmq',
    'messaging.operation.type': 'send',
    'messaging.destination.name': exchange,
    'messaging.rabbitmq.destination.routing_key': routingKey,
    'messaging.message.id': envelope.id,
    'messaging.message.conversation_id': envelope.correlationId,
    'crm.message.type': envelope.type,
  };
}

/**
 * Publishes persistent, validated envelopes on a confirm channel. `publish` resolves only
 * once the broker has confirmed the message; it rejects on a nack or when no confirm
 * arrives in time (the caller decides: answer 503, retry, ...).
 */
export class Publisher {
  private readonly channel: ChannelWrapper;
  /** Ids of mandatory messages the broker returned (routed to no queue), each until its publish reads it. */
  private readonly returned = new Map<string, number>();

  constructor(
    private readonly broker: Broker,
    topology: Topology,
    private readonly defaultTimeoutMs = 5_000,
  ) {
    this.channel = broker.connection.createChannel({
      name: 'publisher',
      confirm: true,
      setup: (channel: ConfirmChannel) => {
        // The broker returns a mandatory message no queue took before it confirms it (the confirm alone says nothing of a queue).
        channel.on('return', (message: { properties: { messageId?: unknown } }) => {
          const id = message.properties.messageId;
          if (typeof id === 'string') this.returned.set(id, (this.returned.get(id) ?? 0) + 1);
        });
        return prepareTopology(channel, topology, broker.topologyMode);
      },
    });
    // A failed setup (e.g. a declaration the broker refuses) is retried on the next connect; it must not crash the process.
    this.channel.on('error', (error: Error) => broker.closing || broker.logger.error('channel setup failed', { channel: 'publisher', reason: error.message }));
  }

  /** Resolves when the channel is set up (topology declared). */
  async ready(timeoutMs = 30_000): Promise<void> {
    await Promise.race([
      this.channel.waitForConnect(),
      new Promise((_, reject) => setTimeout(() => reject(new PublishError('broker not reachable')), timeoutMs).unref()),
    ]);
  }

  /**
   * Publishes `envelope` once it is valid. `options.json` is its JSON when the caller has it
   * already (webhook-ingest writes a delivery's received JSON into it instead of serialising
   * the delivery's parse again); it must be the JSON of the same envelope. `options.headers`
   * go with the message (e.g. the account header the activity partitions hash). `options.mandatory`:
   * the message must reach a queue; one the exchange routes nowhere (a binding missing, a queue
   * deleted) rejects, though the broker confirmed it, instead of being dropped.
   */
  async publish(exchange: string, routingKey: string, envelope: Envelope, options: { timeoutMs?: number; json?: string; headers?: Record<string, string>; mandatory?: boolean } = {}): Promise<void> {
    validateEnvelope(envelope);
    const body = Buffer.from(options.json ?? JSON.stringify(envelope));
    // A span of its own: the message's headers name it, so the consumer's span is its child.
    await inSpan(`${exchange || '(default)'} publish`, { kind: SpanKind.PRODUCER, attributes: publishAttributes(exchange, routingKey, envelope) }, async () => {
      try {
        await this.channel.publish(exchange, routingKey, body, { ...messageProperties(envelope, options.headers), mandatory: options.mandatory ?? false, timeout: options.timeoutMs ?? this.defaultTimeoutMs });
      } catch (error) {
        brokerMetrics.publishFailures.inc({ exchange });
        throw new PublishError(`broker did not confirm ${envelope.type} ${envelope.id}: ${(error as Error).message}`);
      }
      if (options.mandatory && this.takeReturned(envelope.id)) {
        brokerMetrics.publishFailures.inc({ exchange });
        throw new PublishError(`no queue took ${envelope.type} ${envelope.id}: '${exchange}' routed it (key '${routingKey}') to none`);
      }
      brokerMetrics.published.inc({ exchange });
    });
  }

  /** Whether the broker returned a message with this id; takes one return off. */
  private takeReturned(id: string): boolean {
    const count = this.returned.get(id);
    if (!count) return false;
    if (count === 1) this.returned.delete(id);
    else this.returned.set(id, count - 1);
    return true;
  }

  async close(): Promise<void> {
    await this.channel.close();
  }
}
