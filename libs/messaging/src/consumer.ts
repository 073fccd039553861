import type { ConfirmChannel, ConsumeMessage, MessageProperties } from 'amqplib';
import { cleanJson, ContractViolation, validateEnvelope, DEFAULT_RETRY, type Contract, type Envelope, type RetryPolicy, type Topology } from '@crm/contracts';
import type { Broker } from './broker';
import { attemptsOf, deferralsOf, Headers } from './headers';
import { brokerMetrics, type ConsumeOutcome } from './metrics';
import { messageProperties } from './publisher';
import { publishConfirmed, PutBack, QueueConsumer, settle } from './queue-consumer';
import { BROKER_DELIVERY_LIMIT, declareRetryQueues, delayQueueName, dlqName, requeueExchangeName, retryDelay } from './topology';

/** Thrown by a handler for a message that can never succeed: it goes to the DLQ at once. */
export class PermanentFailure extends Error {
  override name = 'PermanentFailure';
}

/**
 * Thrown by a handler that cannot do the work right now through no fault of the message (what
 * it needs is busy elsewhere): the message waits in the first delay queue and comes back, its
 * attempts unchanged, so the consumer's slot goes to other messages meanwhile. After
 * `maxDeferrals` (ConsumerOptions) a deferral counts as a failed attempt, so nothing waits forever.
 */
export class RetryLater extends Error {
  override name = 'RetryLater';
}

/** Deferrals before each further one counts as a failed attempt: at the first retry delay (1 s by default), some 5 minutes. */
export const DEFAULT_MAX_DEFERRALS = 300;

export interface MessageContext {
  routingKey: string;
  /** 1 for the first delivery, 2 for the first retry, ... */
  attempt: number;
  /** True when a failure now sends the message to the DLQ instead of a retry. */
  lastAttempt: boolean;
  redelivered: boolean;
  /**
   * Sends a message of its own to the queue's DLQ, with the reason and `headers`, once the broker
   * confirms it: a part of the message that can never be handled (one event of a delivery), while
   * the handler goes on with the rest. Published at least once: the same part of a message
   * handled again is dead-lettered again, under the same message id.
   */
  deadLetter(envelope: Envelope, reason: string, headers?: Record<string, unknown>): Promise<void>;
  /**
   * Aborted (its reason a PutBack) once the message is to be handled again, untried: an ordered
   * consumer handles what it holds again after a failure, and a closed channel's messages come
   * back anyway. A handler checks it before it begins work a later message must not do before an
   * earlier one, and throws its reason: the message then comes again in its place.
   */
  signal: AbortSignal;
}

export type MessageHandler<P> = (envelope: Envelope<P>, context: MessageContext) => Promise<void>;

export interface ConsumerOptions<P> {
  queue: string;
  topology: Topology;
  /** The message types this queue accepts; anything else is dead-lettered as invalid. */
  contracts: Contract<P>[];
  handler: MessageHandler<P>;
  retry?: RetryPolicy;
  prefetch?: number;
  /** RetryLater deferrals of one message that do not count as attempts (DEFAULT_MAX_DEFERRALS). */
  maxDeferrals?: number;
  /**
   * The queue's order matters (a partition whose messages must be handled in the order they
   * came): a failure that may pass (anything but a PermanentFailure or invalid data) has every
   * message in hand handled again, in order, after a pause (QueueConsumer.rewind;
   * ORDERED_PAUSES_MS, growing with the failed message's own failures), instead of sending the
   * message to a delay queue where later ones would overtake it. A message that failed
   * ORDERED_FAILURES times itself goes the usual way (delay queues, then the DLQ), so none holds
   * its queue for good; so does one that a further return would bring to the broker's delivery limit.
   */
  ordered?: boolean;
  /** An ordered consumer's pauses (default ORDERED_PAUSES_MS). */
  orderedPausesMs?: readonly number[];
}

/** Pauses before an ordered consumer takes its messages again, after a message's first, second, ... failure; the last repeats. */
export const ORDERED_PAUSES_MS = [500, 1_000, 2_000, 4_000, 8_000];
/**
 * Failures of one message after which an ordered consumer retries it the usual way. Its own
 * failures, counted by the consumer: the broker's x-delivery-count also counts each time the
 * message went back with an earlier one that failed, so a message behind a busy one would go the
 * usual way at its first failure, and be overtaken.
 */
export const ORDERED_FAILURES = 12;
/** Messages whose failures an ordered consumer remembers at most (the oldest are forgotten): more than it ever holds. */
const REMEMBERED_FAILURES = 10_000;

/** Copies what identifies a message when it is republished to a retry queue, a DLQ or back from it. */
export function republishProperties(properties: MessageProperties, headers: Record<string, unknown>) {
  return {
    persistent: true,
    messageId: properties.messageId,
    correlationId: properties.correlationId,
    type: properties.type,
    appId: properties.appId,
    contentType: properties.contentType,
    timestamp: properties.timestamp,
    headers: { ...(properties.headers ?? {}), ...headers },
  };
}

/**
 * PostgreSQL refused the data itself (SQLSTATE class 22: invalid text, out of range, ...):
 * the same message fails the same way every time, so it goes to the DLQ at once.
 */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/** Retry and DLQ hops change a message's routing key; the first one is kept in a header. */
function originalRoutingKey(message: ConsumeMessage): string {
  const kept = message.properties.headers?.[Headers.originalRoutingKey];
  return typeof kept === 'string' ? kept : message.fields.routingKey;
}

function originalExchange(message: ConsumeMessage): string {
  const kept = message.properties.headers?.[Headers.originalExchange];
  return typeof kept === 'string' ? kept : message.fields.exchange;
}

/**
 * Consumes a work queue. A message is acked only after its handler resolved (i.e. its
 * transaction committed). A handler failure is retried after a growing delay through TTL
 * queues; after `maxAttempts`, or at once for an invalid message or a PermanentFailure, the
 * message goes to `<queue>.dlq` with the reason and attempt count in its headers.
 */
export class Consumer<P = unknown> extends QueueConsumer {
  private readonly retry: RetryPolicy;
  private readonly accepted: Set<string>;
  /** An ordered consumer's count of each failed message's own failures, by message id, until it is settled. */
  private readonly failures = new Map<string, number>();

  constructor(
    broker: Broker,
    private readonly consumerOptions: ConsumerOptions<P>,
  ) {
    const retry = consumerOptions.retry ?? consumerOptions.topology.queues.find((q) => q.name === consumerOptions.queue)?.retry ?? DEFAULT_RETRY;
    super(broker, {
      queue: consumerOptions.queue,
      topology: consumerOptions.topology,
      prefetch: consumerOptions.prefetch,
      declare: (channel) => declareRetryQueues(channel, consumerOptions.queue, retry, broker.topologyMode),
    });
    this.retry = retry;
    this.accepted = new Set(consumerOptions.contracts.map((c) => c.type));
  }

  protected async handle(channel: ConfirmChannel, message: ConsumeMessage, signal: AbortSignal): Promise<void> {
    const stop = brokerMetrics.handlerDuration.startTimer({ queue: this.options.queue });
    const outcome = await this.handleOnce(channel, message, signal);
    stop();
    if (outcome !== 'rewound' && outcome !== 'put_back' && typeof message.properties.messageId === 'string') this.failures.delete(message.properties.messageId);
    brokerMetrics.consumed.inc({ queue: this.options.queue, outcome });
  }

  private async handleOnce(channel: ConfirmChannel, message: ConsumeMessage, signal: AbortSignal): Promise<ConsumeOutcome> {
    const previousAttempts = attemptsOf(message.properties.headers);
    let envelope: Envelope<P>;
    try {
      envelope = this.parse(message);
    } catch (error) {
      await this.deadLetter(channel, message, (error as Error).message, previousAttempts);
      return 'dead_lettered';
    }
    try {
      await this.consumerOptions.handler(envelope, {
        routingKey: originalRoutingKey(message),
        attempt: previousAttempts + 1,
        lastAttempt: previousAttempts + 1 >= this.retry.maxAttempts,
        redelivered: message.fields.redelivered,
        deadLetter: (part, reason, headers = {}) => this.deadLetterPart(channel, message, part, reason, { ...headers, [Headers.attempts]: previousAttempts + 1 }),
        signal,
      });
      settle(channel, message, 'ack');
      return 'acked';
    } catch (error) {
      // Untried: unsettled, it comes again with the channel's others (the rewind, or the broker after the channel's close), its attempts unchanged.
      if (error instanceof PutBack && signal.aborted) return 'put_back';
      const reason = `${(error as Error).name}: ${(error as Error).message}`;
      const failures = this.ownFailures(error, message);
      if (failures !== null) {
        this.rewindInOrder(channel, reason, failures);
        return 'rewound';
      }
      const deferrals = deferralsOf(message.properties.headers);
      if (error instanceof RetryLater && deferrals < (this.consumerOptions.maxDeferrals ?? DEFAULT_MAX_DEFERRALS)) {
        await this.defer(channel, message, reason, previousAttempts, deferrals + 1);
        return 'deferred';
      }
      if (error instanceof PermanentFailure || error instanceof ContractViolation || isDataError(error)) {
        await this.deadLetter(channel, message, reason, previousAttempts + 1);
        return 'dead_lettered';
      }
      return this.retryLater(channel, message, reason, previousAttempts + 1);
    }
  }

  /**
   * On an ordered queue, the failures of this message so far, this one counted, when it is to go
   * back in order; null when it goes the usual way: a failure that cannot pass, ORDERED_FAILURES
   * reached, or a return that would bring it to the broker's delivery limit (the broker would
   * dead-letter it itself). Every message in hand came after it, so none of them reaches the limit either.
   */
  private ownFailures(error: unknown, message: ConsumeMessage): number | null {
    if (!this.consumerOptions.ordered || error instanceof PermanentFailure || error instanceof ContractViolation || isDataError(error)) return null;
    const deliveries = Number(message.properties.headers?.['x-delivery-count'] ?? 0);
    if (deliveries >= BROKER_DELIVERY_LIMIT - 1) return null;
    const id = message.properties.messageId;
    // A message without an id (none of ours) is known by its deliveries only.
    if (typeof id !== 'string') return deliveries + 1 < ORDERED_FAILURES ? deliveries + 1 : null;
    const failures = (this.failures.get(id) ?? 0) + 1;
    this.failures.delete(id);
    if (failures >= ORDERED_FAILURES) return null;
    this.failures.set(id, failures);
    if (this.failures.size > REMEMBERED_FAILURES) this.failures.delete(this.failures.keys().next().value!);
    return failures;
  }

  /** The first failure starts it; the messages handled meanwhile finish, the rest wait on the queue. */
  private rewindInOrder(channel: ConfirmChannel, reason: string, failures: number): void {
    const pauses = this.consumerOptions.orderedPausesMs ?? ORDERED_PAUSES_MS;
    const pauseMs = pauses[Math.min(failures - 1, pauses.length - 1)]!;
    if (!this.rewind(channel, pauseMs)) return;
    this.logger.warn('message failed; the messages in hand are handled again in order after a pause', { queue: this.options.queue, pauseMs, failures, reason });
  }

  private parse(message: ConsumeMessage): Envelope<P> {
    let body: unknown;
    try {
      // Text no database can store (NUL, lone surrogates) is replaced here, once for every handler.
      body = cleanJson(JSON.parse(message.content.toString('utf8')));
    } catch {
      throw new ContractViolation('invalid message: the body is not JSON');
    }
    const envelope = validateEnvelope<P>(body);
    if (!this.accepted.has(envelope.type)) {
      throw new ContractViolation(`invalid message: '${envelope.type}' is not accepted on ${this.options.queue}`);
    }
    return envelope;
  }

  private async retryLater(channel: ConfirmChannel, message: ConsumeMessage, reason: string, attempts: number): Promise<ConsumeOutcome> {
    if (attempts >= this.retry.maxAttempts) {
      await this.deadLetter(channel, message, `gave up after ${attempts} attempts; last error: ${reason}`, attempts);
      return 'dead_lettered';
    }
    const delayMs = retryDelay(this.retry, attempts);
    this.logger.warn('message failed; retrying later', { attempts, delayMs, reason });
    await this.moveTo(channel, message, delayQueueName(this.options.queue, delayMs), { [Headers.attempts]: attempts, [Headers.failureReason]: reason });
    return 'retried';
  }

  /** Puts the message off to the first delay queue, its attempts unchanged. */
  private async defer(channel: ConfirmChannel, message: ConsumeMessage, reason: string, attempts: number, deferrals: number): Promise<void> {
    const delayMs = retryDelay(this.retry, 1);
    this.logger.debug('message put off', { deferrals, delayMs, reason });
    await this.moveTo(channel, message, delayQueueName(this.options.queue, delayMs), { [Headers.attempts]: attempts, [Headers.deferrals]: deferrals });
  }

  private async deadLetter(channel: ConfirmChannel, message: ConsumeMessage, reason: string, attempts: number): Promise<void> {
    this.logger.error('message dead-lettered', { attempts, reason, routingKey: originalRoutingKey(message) });
    await this.moveTo(channel, message, dlqName(this.options.queue), { [Headers.attempts]: attempts, ...this.failureHeaders(reason) });
  }

  private async deadLetterPart(channel: ConfirmChannel, message: ConsumeMessage, part: Envelope, reason: string, headers: Record<string, unknown>): Promise<void> {
    this.logger.error('part of a message dead-lettered', { messageId: part.id, reason });
    const properties = messageProperties(part, {
      [Headers.originalExchange]: originalExchange(message),
      [Headers.originalRoutingKey]: originalRoutingKey(message),
      ...this.failureHeaders(reason),
      ...headers,
    });
    await publishConfirmed(channel, requeueExchangeName(this.options.queue), dlqName(this.options.queue), Buffer.from(JSON.stringify(part)), properties);
  }

  private failureHeaders(reason: string): Record<string, unknown> {
    return { [Headers.failureReason]: reason.slice(0, 2000), [Headers.sourceQueue]: this.options.queue, [Headers.failedAt]: new Date().toISOString() };
  }

  /** Republishes to `queue` (through the queue's requeue exchange), and acks the original only once the broker confirmed the copy. */
  private async moveTo(channel: ConfirmChannel, message: ConsumeMessage, queue: string, headers: Record<string, unknown>): Promise<void> {
    try {
      const origin = { [Headers.originalExchange]: originalExchange(message), [Headers.originalRoutingKey]: originalRoutingKey(message) };
      await publishConfirmed(channel, requeueExchangeName(this.options.queue), queue, message.content, republishProperties(message.properties, { ...origin, ...headers }));
      settle(channel, message, 'ack');
    } catch (error) {
      this.logger.warn('could not move message; leaving it for redelivery', { target: queue, reason: (error as Error).message });
      settle(channel, message, 'requeue');
    }
  }
}
