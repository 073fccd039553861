/**
 * Messages holding text no database can store are cleaned before any handler sees them, and
 * a handler the database refuses for the data itself is not retried for half an hour.
 */
import { randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { defineContract, type Envelope, type Topology } from '@crm/contracts';
import { amqpUrl, databaseServerUrl, deleteBrokerObjects, testLogger, waitFor, testPool } from '@crm/testing';
import { Broker } from './broker';
import { Consumer } from './consumer';
import { listDeadLetters } from './dead-letters';
import { makeEnvelope, Publisher } from './publisher';

const Note = defineContract('test.note.v1', Type.Object({ text: Type.String() }));

const suffix = randomBytes(4).toString('hex');
const exchange = `test.notes.${suffix}`;
const queue = `test.notes.work.${suffix}`;
const retry = { delaysMs: [60_000], maxAttempts: 5 };
const topology: Topology = { exchanges: [{ name: exchange, type: 'topic' }], queues: [{ name: queue, kind: 'work', bindings: [{ exchange, routingKey: '#' }], retry }] };

let broker: Broker;
let publisher: Publisher;
let consumer: Consumer<{ text: string }> | undefined;
const database = testPool(databaseServerUrl(), { max: 2 });

beforeAll(async () => {
  broker = new Broker({ url: amqpUrl(), name: 'unstorable-text-test', logger: testLogger() });
  publisher = new Publisher(broker, topology);
  await publisher.ready();
});

afterEach(async () => {
  await consumer?.stop(2000);
});

afterAll(async () => {
  await publisher.close();
  await broker.close();
  await deleteBrokerObjects([queue, `${queue}.delay.60000ms`], [exchange]);
  await database.end();
});

it('hands handlers text with NUL and lone surrogates replaced, so storing it succeeds', async () => {
  const stored: string[] = [];
  consumer = new Consumer(broker, {
    queue,
    topology,
    contracts: [Note],
    handler: async (envelope: Envelope<{ text: string }>) => {
      const { rows } = await database.query<{ text: string }>('SELECT $1::text AS text', [envelope.payload.text]);
      stored.push(rows[0]!.text);
    },
  });
  await consumer.ready();
  await publisher.publish(exchange, 'note', makeEnvelope(Note, 'test', { text: 'where\u0000 is \uD83D my order 😀' }));
  await waitFor(() => stored.length === 1, { what: 'the note stored' });
  expect(stored[0]).toBe('where\uFFFD is \uFFFD my order 😀');
});

it('dead-letters at once, with the reason, a message whose data the database refuses', async () => {
  consumer = new Consumer(broker, {
    queue,
    topology,
    contracts: [Note],
    handler: async (envelope: Envelope<{ text: string }>) => {
      await database.query('SELECT $1::int', [envelope.payload.text]); // 22P02: invalid input syntax for type integer
    },
  });
  await consumer.ready();
  await publisher.publish(exchange, 'note', makeEnvelope(Note, 'test', { text: 'not a number' }));
  const letters = await waitFor(async () => {
    const found = await listDeadLetters(amqpUrl(), queue);
    return found.length > 0 ? found : null;
  }, { what: 'the message in the DLQ' });
  const dead = letters![0];
  expect(dead!.attempts).toBe(1);
  expect(dead!.reason).toContain('invalid input syntax for type integer');
});
