/**
 * messaging_consumers: what a process says about its own consumers, for the alert on a work
 * queue nobody consumes (WorkQueueWithoutConsumers, infra/alerting/rules.yml).
 */
import { Type } from '@sinclair/typebox';
import amqplib from 'amqplib';
import { defineContract, type Topology } from '@crm/contracts';
import { freshVirtualHost, testLogger, waitFor, type TestVirtualHost } from '@crm/testing';
import { Broker } from './broker';
import { Consumer } from './consumer';
import { brokerMetrics } from './metrics';
import { RpcServer } from './rpc';
import { dlqName, requeueExchangeName } from './topology';

const PingContract = defineContract('test.ping.v1', Type.Object({ n: Type.Integer() }));
const queue = 'test.work';
const rpcQueue = 'test.rpc';
const topology: Topology = {
  exchanges: [{ name: 'test.events', type: 'topic' }],
  queues: [
    { name: queue, kind: 'work', bindings: [{ exchange: 'test.events', routingKey: '#' }], retry: { delaysMs: [50], maxAttempts: 2 } },
    { name: rpcQueue, kind: 'rpc' },
  ],
};
const logger = testLogger('consumer-metrics-test');

let vhost: TestVirtualHost;
let broker: Broker;

/** messaging_consumers of `name` as /metrics would answer it now (undefined: no series). */
async function consumersOn(name: string): Promise<number | undefined> {
  return (await brokerMetrics.consumers.get()).values.find((value) => value.labels.queue === name)?.value;
}

/** Runs `work` on a channel of a connection of the test's own. */
async function onOwnChannel(work: (channel: amqplib.ConfirmChannel) => Promise<void>): Promise<void> {
  const connection = await amqplib.connect(vhost.url);
  try {
    await work(await connection.createConfirmChannel());
  } finally {
    await connection.close();
  }
}

/** Messages ready in a queue of the test's virtual host. */
async function depth(name: string): Promise<number> {
  let count = 0;
  await onOwnChannel(async (channel) => {
    count = (await channel.checkQueue(name)).messageCount;
  });
  return count;
}

beforeAll(async () => {
  vhost = await freshVirtualHost('consumer-metrics');
  broker = new Broker({ url: vhost.url, name: 'consumer-metrics-test', logger });
  await broker.waitUntilConnected();
});

afterAll(async () => {
  await broker?.close();
  await vhost?.drop();
});

it('counts the consumers of each queue: 0 while the broker has closed their channel, back with the connection, 0 once stopped', async () => {
  const handled: number[] = [];
  const first = new Consumer(broker, { queue, topology, contracts: [PingContract], handler: async (envelope) => void handled.push((envelope.payload as { n: number }).n) });
  const second = new Consumer(broker, { queue, topology, contracts: [PingContract], handler: async () => undefined });
  const rpc = new RpcServer(broker, { queue: rpcQueue, topology, producer: 'test', methods: [] });
  await Promise.all([first.ready(), second.ready(), rpc.ready()]);
  expect([await consumersOn(queue), await consumersOn(rpcQueue)]).toEqual([2, 1]);

  // A message the consumer must dead-letter, while its requeue exchange is gone: the broker
  // closes the channel that publishes to a missing exchange, and with it that consumer.
  await onOwnChannel(async (channel) => {
    await channel.deleteExchange(requeueExchangeName(queue));
    channel.sendToQueue(queue, Buffer.from('{not json'), { persistent: true });
    await channel.waitForConfirms();
  });
  // The first to take the message loses its channel; the other one takes it next, the same way.
  await waitFor(async () => (await consumersOn(queue)) === 0, { what: 'both consumers gone with their channels' });
  // Settled: the message is back in the queue, and no consumer came back for it.
  await waitFor(async () => (await depth(queue)) === 1, { what: 'the message back in the queue' });
  expect(await consumersOn(queue)).toBe(0);
  expect(await depth(queue)).toBe(1);

  // The connection re-established (a broker restart, a network blip, the service restarted):
  // setup declares the exchange again and consumes; the message is dead-lettered at last.
  broker.connection.reconnect();
  await waitFor(async () => (await consumersOn(queue)) === 2, { timeoutMs: 15_000, what: 'both consumers back' });
  await waitFor(async () => (await depth(dlqName(queue))) === 1, { what: 'the message dead-lettered' });
  expect(await consumersOn(rpcQueue)).toBe(1);

  await first.stop(1_000);
  expect(await consumersOn(queue)).toBe(1);
  await Promise.all([second.stop(1_000), rpc.stop(1_000)]);
  expect([await consumersOn(queue), await consumersOn(rpcQueue)]).toEqual([0, 0]);
}, 45_000);
