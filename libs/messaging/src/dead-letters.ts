import amqplib, { type Channel, type ChannelModel, type GetMessage } from 'amqplib';
import { ACTIVITY_PARTITION_QUEUES } from '@crm/contracts';
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
  /** Every header, the ones above and any the handler added (e.g. which part of its message it is). */
  headers: Record<string, unknown>;
  body: string;
}

/** The DLQ asked for does not exist (a typo, or not a work queue). */
export class UnknownQueue extends Error {
  override name = 'UnknownQueue';
}

/**
 * How many messages `<queue>.dlq` holds, or UnknownQueue. Checked on a throwaway channel: the
 * broker closes a channel that asks about a missing queue.
 */
async function deadLetterCount(connection: ChannelModel, queue: string): Promise<number> {
  const channel: Channel = await connection.createChannel();
  channel.on('error', () => undefined); // the failed check below says what happened
  try {
    return (await channel.checkQueue(dlqName(queue))).messageCount;
  } catch (error) {
    if ((error as { code?: number }).code === 404) throw new UnknownQueue(`no queue '${dlqName(queue)}' on the broker: is '${queue}' a work queue?`);
    throw error;
  } finally {
    await channel.close().catch(() => undefined);
  }
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
    headers,
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
    const depth = await deadLetterCount(connection, queue);
    const channel = await connection.createChannel();
    const found: DeadLetter[] = [];
    while (found.length < Math.min(limit, depth)) {
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
 * reset; each is removed from the DLQ only after the broker confirmed its copy. At most as
 * many as the DLQ held when the replay began: a message that fails again goes to the DLQ's
 * end and is not replayed a second time in the same run.
 */
export async function replayDeadLetters(url: string, queue: string, limit = 1000, onProgress?: (replayed: number, total: number) => void): Promise<number> {
  const connection = await amqplib.connect(url);
  try {
    const depth = await deadLetterCount(connection, queue);
    const channel = await connection.createConfirmChannel();
    let replayed = 0;
    const total = Math.min(limit, depth);
    while (replayed < total) {
      const message = await channel.get(dlqName(queue), { noAck: false });
      if (!message) break;
      const { [Headers.attempts]: _a, [Headers.failureReason]: _r, [Headers.failedAt]: _f, 'x-death': _d, ...headers } = message.properties.headers ?? {};
      channel.sendToQueue(queue, message.content, republishProperties({ ...message.properties, headers }, { 'x-replayed-at': new Date().toISOString() }));
      await channel.waitForConfirms();
      channel.ack(message);
      replayed += 1;
      onProgress?.(replayed, total);
    }
    await channel.close();
    return replayed;
  } finally {
    await connection.close();
  }
}

/** The dead letters of every ticketing activity partition (up to `limit` of each). */
export async function listActivityDeadLetters(url: string, limit = 100): Promise<DeadLetter[]> {
  const lists = await Promise.all(ACTIVITY_PARTITION_QUEUES.map((queue) => listDeadLetters(url, queue, limit)));
  return lists.flat();
}
