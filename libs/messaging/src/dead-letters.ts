import amqplib, { type GetMessage } from 'amqplib';
import { republishProperties } from './consumer';
import { Headers } from './headers';
import { dlqName } from './topology';

export interface DeadLetter {
  messageId: string | undefined;
  type: string | undefined;
  reason: string | undefined;
  attempts: number;
  failedAt: string | undefined;
  routingKey: string | undefined;
  body: string;
}

function describe(message: GetMessage): DeadLetter {
  const headers = message.properties.headers ?? {};
  const reason = headers[Headers.failureReason] ?? (Array.isArray(headers['x-death']) ? `broker: ${headers['x-death'][0]?.reason}` : undefined);
  return {
    messageId: message.properties.messageId,
    type: message.properties.type,
    reason: reason === undefined ? undefined : String(reason),
    attempts: Number(headers[Headers.attempts] ?? headers['x-delivery-count'] ?? 0),
    failedAt: headers[Headers.failedAt] as string | undefined,
    routingKey: headers[Headers.originalRoutingKey] as string | undefined,
    body: message.content.toString('utf8'),
  };
}

/**
 * Lists up to `limit` messages of a work queue's DLQ without removing them: they are
 * fetched unacknowledged and returned to the queue when the channel closes.
 */
export async function listDeadLetters(url: string, queue: string, limit = 100): Promise<DeadLetter[]> {
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createChannel();
    const found: DeadLetter[] = [];
    while (found.length < limit) {
      const message = await channel.get(dlqName(queue), { noAck: false });
      if (!message) break;
      found.push(describe(message));
    }
    await channel.close();
    return found;
  } finally {
    await connection.close();
  }
}

/**
 * Moves up to `limit` messages from `<queue>.dlq` back to `queue` with their attempt count
 * reset; each is removed from the DLQ only after the broker confirmed its copy.
 */
export async function replayDeadLetters(url: string, queue: string, limit = 1000): Promise<number> {
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createConfirmChannel();
    let replayed = 0;
    while (replayed < limit) {
      const message = await channel.get(dlqName(queue), { noAck: false });
      if (!message) break;
      const { [Headers.attempts]: _a, [Headers.failureReason]: _r, [Headers.failedAt]: _f, 'x-death': _d, ...headers } = message.properties.headers ?? {};
      channel.sendToQueue(queue, message.content, republishProperties({ ...message.properties, headers }, { 'x-replayed-at': new Date().toISOString() }));
      await channel.waitForConfirms();
      channel.ack(message);
      replayed += 1;
    }
    await channel.close();
    return replayed;
  } finally {
    await connection.close();
  }
}
