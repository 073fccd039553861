import { Type } from '@sinclair/typebox';
import { trace } from '@opentelemetry/api';
import amqplib from 'amqplib';
import { defineContract, type Topology } from '@crm/contracts';
import { withTransaction, type Pool } from '@crm/db';
import { inSpan } from '@crm/telemetry';
import { inMemoryTracing } from '@crm/telemetry/src/testing/in-memory';
import { freshDatabase, freshVirtualHost, testLogger, waitFor, type TestDatabase, type TestVirtualHost, testPool } from '@crm/testing';
import { Broker } from './broker';
import { enqueueOutbox, OutboxRelay, type OutboxRow } from './outbox';
import { makeEnvelope, Publisher } from './publisher';

const Note = defineContract('test.note.v1', Type.Object({ n: Type.Integer() }, { additionalProperties: false }));

const exchange = 'test.notes';
const topology: Topology = { exchanges: [{ name: exchange, type: 'topic' }], queues: [] };
const logger = testLogger('outbox-test');

let db: TestDatabase;
let vhost: TestVirtualHost;
let pool: Pool;
let broker: Broker;
let publisher: Publisher;
let received: { messageId: string; routingKey: string; headers: Record<string, unknown>; body: { payload: { n: number } } }[];
const spans = inMemoryTracing('outbox-test');
let connection: amqplib.ChannelModel;

beforeAll(async () => {
  [db, vhost] = await Promise.all([freshDatabase('outbox'), freshVirtualHost('outbox')]);
  pool = testPool(db.url);
  await pool.query(`CREATE TABLE outbox (
    id bigserial PRIMARY KEY, exchange text NOT NULL, routing_key text NOT NULL, envelope jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(), attempts integer NOT NULL DEFAULT 0, last_error text, trace_context jsonb)`);
  await pool.query('CREATE TABLE notes (n integer PRIMARY KEY, settled text)');
  broker = new Broker({ url: vhost.url, name: 'outbox-test', logger });
  publisher = new Publisher(broker, topology);
  await publisher.ready();

  received = [];
  connection = await amqplib.connect(vhost.url);
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  const { queue } = await channel.assertQueue('', { exclusive: true });
  await channel.bindQueue(queue, exchange, '#');
  await channel.consume(queue, (message) => {
    if (!message) return;
    received.push({ messageId: String(message.properties.messageId), routingKey: message.fields.routingKey, headers: message.properties.headers ?? {}, body: JSON.parse(message.content.toString('utf8')) });
  }, { noAck: true });
});

afterAll(async () => {
  await connection?.close();
  await publisher?.close();
  await broker?.close();
  await pool?.end();
  await Promise.all([db?.drop(), vhost?.drop()]);
});

beforeEach(async () => {
  received.length = 0;
  await pool.query('TRUNCATE outbox, notes');
});

const outboxRows = async () => (await pool.query<{ id: string; attempts: number; last_error: string | null }>('SELECT id, attempts, last_error FROM outbox ORDER BY id')).rows;

/** A note and its announcement, stored together (or, when `fail`, not at all). */
function storeNote(n: number, options: { fail?: boolean; routingKey?: string } = {}): Promise<string> {
  const envelope = makeEnvelope(Note, 'outbox-test', { n });
  return withTransaction(pool, async (client) => {
    await client.query('INSERT INTO notes (n) VALUES ($1)', [n]);
    await enqueueOutbox(client, exchange, options.routingKey ?? `note.${n}`, envelope);
    if (options.fail) throw new Error('the change is abandoned');
    return envelope.id;
  });
}

describe('transactional outbox', () => {
  it('relays what a committed transaction enqueued, with its routing key and message id, then deletes it', async () => {
    const relay = new OutboxRelay({ pool, publisher, logger });
    const id = await storeNote(1);
    expect(await outboxRows()).toHaveLength(1);
    await relay.kick();
    await waitFor(() => received.length === 1, { what: 'the note announced' });
    expect(received[0]).toMatchObject({ messageId: id, routingKey: 'note.1', body: { payload: { n: 1 } } });
    expect(await outboxRows()).toEqual([]);
    await relay.stop();
  });

  it('announces nothing when the transaction that enqueued rolls back', async () => {
    const relay = new OutboxRelay({ pool, publisher, logger });
    await expect(storeNote(2, { fail: true })).rejects.toThrow('abandoned');
    await relay.kick();
    expect(await outboxRows()).toEqual([]);
    expect((await pool.query('SELECT * FROM notes')).rows).toEqual([]);
    await storeNote(3);
    await relay.kick();
    await waitFor(() => received.length === 1, { what: 'the next note announced' });
    expect(received.map((m) => m.body.payload.n)).toEqual([3]);
    await relay.stop();
  });

  it('keeps a message the broker did not confirm, with the reason, and relays it on a later round', async () => {
    const refusing = { publish: jest.fn().mockRejectedValue(new Error('no confirm within 5000 ms')) };
    await storeNote(4);
    const down = new OutboxRelay({ pool, publisher: refusing, logger });
    await down.kick();
    await down.stop();
    expect(await outboxRows()).toEqual([expect.objectContaining({ attempts: 1, last_error: 'no confirm within 5000 ms' })]);

    const relay = new OutboxRelay({ pool, publisher, logger });
    relay.start(50);
    await waitFor(() => received.length === 1, { what: 'the kept note announced' });
    await waitFor(async () => (await outboxRows()).length === 0, { what: 'an empty outbox' });
    await relay.stop();
  });

  it('sends a batch at once, in order; the message the broker did not confirm and those after it stay for the next round', async () => {
    for (let n = 10; n < 16; n += 1) await storeNote(n);
    // The broker confirms every message but the third (n = 12).
    const flaky = { publish: (exchangeName: string, key: string, envelope: Parameters<Publisher['publish']>[2]) => (key === 'note.12' ? Promise.reject(new Error('nacked')) : publisher.publish(exchangeName, key, envelope)) };
    const first = new OutboxRelay({ pool, publisher: flaky, logger });
    await first.kick();
    await first.stop();
    // 10 and 11 deleted; 12 kept with its reason, 13 to 15 kept though the broker took them.
    expect((await outboxRows()).map((row) => [row.attempts, row.last_error])).toEqual([[1, 'nacked'], [0, null], [0, null], [0, null]]);
    const relay = new OutboxRelay({ pool, publisher, logger });
    await relay.kick();
    await relay.stop();
    expect(await outboxRows()).toEqual([]);
    await waitFor(() => received.length === 9, { what: 'every note announced' });
    // The kept ones go out again, in order, after the one the broker refused.
    expect(received.map((m) => m.body.payload.n)).toEqual([10, 11, 13, 14, 15, 12, 13, 14, 15]);
  });

  it('hands a message that breaks its contract to onUnpublishable in the same transaction, and drops it', async () => {
    const envelope = { ...makeEnvelope(Note, 'outbox-test', { n: 5 }), payload: { n: 'five' } };
    await withTransaction(pool, async (client) => {
      await client.query('INSERT INTO notes (n) VALUES (5)');
      await enqueueOutbox(client, exchange, 'note.5', envelope as never);
    });
    const seen: OutboxRow[] = [];
    const relay = new OutboxRelay({
      pool,
      publisher,
      logger,
      onUnpublishable: async (client, row, reason) => {
        seen.push(row);
        await client.query('UPDATE notes SET settled = $2 WHERE n = $1', [5, reason]);
      },
    });
    await storeNote(6);
    await relay.kick();
    await waitFor(() => received.length === 1, { what: 'the valid note announced' });
    expect(received[0]!.body.payload.n).toBe(6);
    expect(seen.map((row) => row.envelope.id)).toEqual([envelope.id]);
    expect((await pool.query('SELECT settled FROM notes WHERE n = 5')).rows[0].settled).toEqual(expect.stringContaining('n'));
    expect(await outboxRows()).toEqual([]);
    await relay.stop();
  });

  it('relays each message once when several relays run at the same time (rows locked, skipped by the others)', async () => {
    const ids = [];
    for (let n = 10; n < 55; n += 1) ids.push(await storeNote(n));
    const relays = [1, 2, 3].map(() => new OutboxRelay({ pool, publisher, logger }));
    await Promise.all(relays.map((relay) => relay.kick()));
    await waitFor(async () => (await outboxRows()).length === 0, { what: 'an empty outbox' });
    await waitFor(() => received.length >= ids.length, { what: 'every note announced' });
    expect(received.map((m) => m.messageId).sort()).toEqual([...ids].sort());
    await Promise.all(relays.map((relay) => relay.stop()));
  });

  it('a kick during a run makes it go round again, so a message enqueued meanwhile is not left waiting', async () => {
    const relay = new OutboxRelay({ pool, publisher, logger });
    await storeNote(60);
    const first = relay.kick();
    await storeNote(61);
    void relay.kick();
    await first;
    await waitFor(() => received.length === 2, { what: 'both notes announced' });
    expect(received.map((m) => m.body.payload.n).sort()).toEqual([60, 61]);
    await relay.stop();
  });

  it('publishes a message in the trace of the work that stored it, however much later the relay runs', async () => {
    spans.reset();
    const relay = new OutboxRelay({ pool, publisher, logger });
    const traceId = await inSpan('a request', {}, async () => {
      await storeNote(70);
      return trace.getActiveSpan()!.spanContext().traceId;
    });
    await storeNote(71);
    await relay.kick();
    await waitFor(() => received.length === 2, { what: 'both notes announced' });

    const traced = received.find((m) => m.body.payload.n === 70)!;
    expect(traced.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    const publish = (await spans.finished()).find((span) => span.attributes['messaging.message.id'] === traced.messageId)!;
    expect(publish).toMatchObject({ name: 'test.notes publish' });
    expect(publish.spanContext().traceId).toBe(traceId);
    // The untraced one starts a trace of its own: no stored context, no borrowed one.
    expect(received.find((m) => m.body.payload.n === 71)!.headers.traceparent).not.toContain(traceId);
    await relay.stop();
  });
});
