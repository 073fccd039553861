import { randomUUID } from 'node:crypto';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import { RpcReply, validateEnvelope, type Contract, type Envelope, type RpcReplyPayload, type Topology } from '@crm/contracts';
import { inSpan, SpanKind } from '@crm/telemetry';
import type { Broker } from './broker';
import { makeEnvelope, messageProperties } from './publisher';
import { QueueConsumer, settle } from './queue-consumer';
import { prepareTopology } from './topology';

/** An answer the RPC handler chose to give as an error (unknown environment, bad input, ...). */
export class RpcError extends Error {
  override name = 'RpcError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class RpcTimeout extends Error {
  override name = 'RpcTimeout';
}

type AnyHandler = (payload: unknown, envelope: Envelope) => Promise<unknown>;

/**
 * A method an RpcServer answers: requests of `type`, already validated against its contract.
 * With `callers`, only requests whose broker-validated `userId` (RabbitMQ refuses a publish whose
 * userId is not the connection's user) is one of them are answered; others get `forbidden`.
 */
export interface RpcMethod {
  type: string;
  handle: AnyHandler;
  callers?: readonly string[];
}

export function rpcMethod<P, R>(contract: Contract<P>, handle: (payload: P, envelope: Envelope<P>) => Promise<R>, options: { callers?: readonly string[] } = {}): RpcMethod {
  return { type: contract.type, handle: handle as AnyHandler, callers: options.callers };
}

/**
 * Answers requests on an RPC queue. Every request gets a reply on its `replyTo` with its
 * correlation id: a result, or an error (invalid request, unknown method, handler error).
 */
export class RpcServer extends QueueConsumer {
  private readonly methods = new Map<string, RpcMethod>();

  constructor(
    broker: Broker,
    options: { queue: string; topology: Topology; producer: string; methods: RpcMethod[]; prefetch?: number },
  ) {
    super(broker, { queue: options.queue, topology: options.topology, prefetch: options.prefetch });
    this.producer = options.producer;
    for (const method of options.methods) this.methods.set(method.type, method);
  }

  private readonly producer: string;

  protected async handle(channel: ConfirmChannel, message: ConsumeMessage): Promise<void> {
    const { replyTo, correlationId } = message.properties;
    const reply = await this.answer(message);
    if (replyTo && correlationId) {
      // The envelope carries the caller's trace (the current context); the property matches the reply to its request.
      const envelope = makeEnvelope(RpcReply, this.producer, reply);
      try {
        channel.sendToQueue(replyTo, Buffer.from(JSON.stringify(envelope)), { ...messageProperties(envelope), persistent: false, correlationId });
      } catch (error) {
        this.logger.warn('could not send RPC reply', { reason: (error as Error).message });
      }
    } else {
      this.logger.warn('RPC request without replyTo or correlationId; nobody to answer');
    }
    settle(channel, message, 'ack');
  }

  private async answer(message: ConsumeMessage): Promise<RpcReplyPayload> {
    let envelope: Envelope;
    try {
      envelope = validateEnvelope(JSON.parse(message.content.toString('utf8')));
    } catch (error) {
      return { ok: false, error: { code: 'invalid_request', message: (error as Error).message } };
    }
    const method = this.methods.get(envelope.type);
    if (!method) return { ok: false, error: { code: 'unknown_method', message: `no method '${envelope.type}' on ${this.options.queue}` } };
    const caller = message.properties.userId as string | undefined;
    if (method.callers && !(caller && method.callers.includes(caller))) {
      this.logger.warn('RPC request refused: caller not allowed', { method: envelope.type, caller: caller ?? null });
      return { ok: false, error: { code: 'forbidden', message: `'${envelope.type}' is not open to this caller` } };
    }
    try {
      return { ok: true, result: (await method.handle(envelope.payload, envelope)) ?? null };
    } catch (error) {
      if (error instanceof RpcError) return { ok: false, error: { code: error.code, message: error.message } };
      this.logger.error('RPC handler failed', { method: envelope.type, err: error });
      return { ok: false, error: { code: 'internal', message: 'the service failed to answer; try again' } };
    }
  }
}

const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';

interface Pending {
  resolve: (reply: RpcReplyPayload) => void;
  timer: NodeJS.Timeout;
}

/**
 * Calls RPC queues with RabbitMQ's direct reply-to: no reply queue to declare or clean up.
 * Requests expire in the queue with their timeout, so a late server does no stale work.
 */
export class RpcClient {
  private readonly channel: ChannelWrapper;
  private readonly pending = new Map<string, Pending>();
  private readonly user: string;

  constructor(
    broker: Broker,
    private readonly producer: string,
    private readonly topology: Topology,
  ) {
    this.user = broker.user;
    this.channel = broker.connection.createChannel({
      name: 'rpc-client',
      confirm: false,
      setup: async (channel: Channel) => {
        await prepareTopology(channel, topology, broker.topologyMode);
        await channel.consume(DIRECT_REPLY_TO, (message) => message && this.onReply(message), { noAck: true });
      },
    });
    // A failed setup (e.g. a declaration the broker refuses) is retried on the next connect; it must not crash the process.
    this.channel.on('error', (error: Error) => broker.closing || broker.logger.error('channel setup failed', { channel: 'rpc-client', reason: error.message }));
  }

  private onReply(message: ConsumeMessage): void {
    const id = message.properties.correlationId as string | undefined;
    const pending = id ? this.pending.get(id) : undefined;
    if (!pending || !id) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    try {
      const envelope = validateEnvelope(JSON.parse(message.content.toString('utf8')), RpcReply);
      pending.resolve(envelope.payload);
    } catch (error) {
      pending.resolve({ ok: false, error: { code: 'invalid_reply', message: (error as Error).message } });
    }
  }

  /** Sends a request and resolves with the result; rejects with RpcError or RpcTimeout. */
  async call<P, R>(queue: string, contract: Contract<P>, payload: P, options: { timeoutMs?: number } = {}): Promise<R> {
    const attributes = { 'messaging.system': 'rabbitmq', 'messaging.operation.type': 'send', 'messaging.destination.name': queue, 'rpc.method': contract.type };
    return inSpan(`${queue} call`, { kind: SpanKind.CLIENT, attributes }, () => this.send<P, R>(queue, contract, payload, options));
  }

  private async send<P, R>(queue: string, contract: Contract<P>, payload: P, options: { timeoutMs?: number }): Promise<R> {
    const timeoutMs = options.timeoutMs ?? 5_000;
    const requestId = randomUUID();
    const envelope = makeEnvelope(contract, this.producer, payload);
    validateEnvelope(envelope, contract);
    const reply = new Promise<RpcReplyPayload>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new RpcTimeout(`no answer from ${queue} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(requestId, { resolve, timer });
    });
    // The timeout may fire while the send still waits for a connection: the rejection is
    // handled here so it never goes unhandled (that would end the process); `await reply` still throws it.
    reply.catch(() => undefined);
    await this.channel
      .publish(this.requestExchange(queue), queue, Buffer.from(JSON.stringify(envelope)), {
        ...messageProperties(envelope),
        userId: this.user,
        persistent: false,
        correlationId: requestId,
        replyTo: DIRECT_REPLY_TO,
        expiration: String(timeoutMs),
        timeout: timeoutMs,
      })
      .catch(() => undefined); // a send that never happens surfaces as the timeout above
    const answer = await reply;
    if (!answer.ok) throw new RpcError(answer.error.code, answer.error.message);
    return answer.result as R;
  }

  /** An RPC queue's requests go to the exchange it is bound to (routing key: its name); the default exchange for an unbound one. */
  private requestExchange(queue: string): string {
    return this.topology.queues.find((spec) => spec.name === queue)?.bindings?.[0]?.exchange ?? '';
  }

  /** Closes the channel; calls still waiting end at once with the error `closed`. */
  async close(): Promise<void> {
    for (const [, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.resolve({ ok: false, error: { code: 'closed', message: 'the RPC client was closed before an answer came' } });
    }
    this.pending.clear();
    await this.channel.close();
  }
}
