import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import amqplib from 'amqplib';
import { defineContract, ContractViolation, type Envelope, type Topology } from '@crm/contracts';
import { currentCorrelationId, runWithContext } from '@crm/logging';
import { amqpUrl, deleteBrokerObjects, queueDepth, startPrivateBroker, testLogger, waitFor, type PrivateBroker } from '@crm/testing';
import { Broker } from './broker';
import { brokerMetrics } from './metrics';
import { Consumer, PermanentFailure, RetryLater, type MessageContext } from './consumer';
import { listDeadLetters, replayDeadLetters } from './dead-letters';
import { makeEnvelope, Publisher } from './publisher';
import { RpcClient, RpcError, RpcServer, RpcTimeout, rpcMethod } from './rpc';
import { delayQueueName, dlqName } from './topology';

const PingSchema = Type.Object({ n: Type.Integer() }, { additionalProperties: false });
type Ping = Static<typeof PingSchema>;
const PingContract = defineContract('test.ping.v1', PingSchema);
/**
 * A handler that takes its messages one at a time, in the order they came, as a conversation's
 * deliveries are recorded: each waits for the one before to settle, and one whose signal was
 * aborted before its turn (an earlier one failed, or the queue is handed over) throws the
 * reason untried. `work` gets the message's number.
 */
function oneAtATime(work: (n: number, context: MessageContext) => Promise<void> | void): (envelope: Envelope<Ping>, context: MessageContext) => Promise<void> {
  let previous: Promise<unknown> = Promise.resolve();
  return (envelope, context) => {
    const turn = previous.then(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      if (context.signal.aborted) throw context.signal.reason;
      await work(envelope.payload.n, context);
    });
    previous = turn.catch(() => undefined);
    return turn;
  };
}

const EchoRequest = defineContract('test.echo.v1', Type.Object({ text: Type.String() }));

const suffix = randomBytes(4).toString('hex');
const exchange = `test.events.${suffix}`;
const queue = `test.work.${suffix}`;
const rpcQueue = `test.rpc.${suffix}`;
/** A queue with a single active consumer, as ticketing's activity partitions. */
const sacQueue = `test.sac.${suffix}`;
const retry = { delaysMs: [50, 100], maxAttempts: 3 };
const topology: Topology = {
  exchanges: [{ name: exchange, type: 'topic' }],
  queues: [
    { name: queue, kind: 'work', bindings: [{ exchange, routingKey: 'ping.#' }], retry },
    { name: rpcQueue, kind: 'rpc' },
    { name: sacQueue, kind: 'work', bindings: [{ exchange, routingKey: 'sac.#' }], retry, singleActiveConsumer: true },
  ],
};
const logger = testLogger('messaging-test');

let broker: Broker;
let publisher: Publisher;
const consumers: Consumer<Ping>[] = [];

function consume(handler: (envelope: Envelope<Ping>, context: MessageContext) => Promise<void>): Consumer<Ping> {
  const consumer = new Consumer<Ping>(broker, { queue, topology, contracts: [PingContract], handler, prefetch: 20 });
  consumers.push(consumer);
  return consumer;
}

async function stopConsumers(): Promise<void> {
  await Promise.all(consumers.splice(0).map((c) => c.stop(2000)));
}

/** Publishes bytes straight to the queue, bypassing the publisher's validation. */
/** The consumers this process has on `name` (the messaging_consumers gauge). */
async function consumersOn(name: string): Promise<number> {
  return (await brokerMetrics.consumers.get()).values.find((value) => value.labels.queue === name)?.value ?? 0;
}

async function publishRaw(body: string): Promise<void> {
  const connection = await amqplib.connect(amqpUrl());
  const channel = await connection.createConfirmChannel();
  channel.sendToQueue(queue, Buffer.from(body), { persistent: true, messageId: 'raw-1' });
  await channel.waitForConfirms();
  await connection.close();
}

beforeAll(async () => {
  broker = new Broker({ url: amqpUrl(), name: 'messaging-test', logger });
  await broker.waitUntilConnected();
  publisher = new Publisher(broker, topology);
  await publisher.ready();
});

afterEach(stopConsumers);

afterAll(async () => {
  await publisher.close();
  await broker.close();
  const retries = [queue, sacQueue].flatMap((name) => retry.delaysMs.map((d) => delayQueueName(name, d)));
  await deleteBrokerObjects([queue, rpcQueue, sacQueue], [exchange]);
  const connection = await amqplib.connect(amqpUrl());
  const channel = await connection.createChannel();
  for (const name of retries) await channel.deleteQueue(name);
  await connection.close();
});

describe('publisher and consumer', () => {
  it('delivers a confirmed message once and acks it after the handler resolved', async () => {
    const seen: number[] = [];
    await consume(async (e) => {
      seen.push(e.payload.n);
    }).ready();
    await publisher.publish(exchange, 'ping.a', makeEnvelope(PingContract, 'test', { n: 1 }));
    await waitFor(() => seen.length === 1, { what: 'delivery' });
    await stopConsumers();
    expect(seen).toEqual([1]);
    expect(await queueDepth(queue)).toBe(0);
  });

  it('refuses a mandatory message that the exchange routes to no queue, though the broker confirmed it', async () => {
    const nowhere = `test.nowhere.${suffix}`;
    const lonely = new Publisher(broker, { exchanges: [{ name: nowhere, type: 'topic' }], queues: [] });
    try {
      await lonely.ready();
      await expect(lonely.publish(nowhere, 'ping.a', makeEnvelope(PingContract, 'test', { n: 1 }), { mandatory: true })).rejects.toThrow(/no queue took test\.ping\.v1 .* routed it \(key 'ping\.a'\) to none/);
      // Not mandatory (an event nobody may be listening to): confirmed is enough.
      await expect(lonely.publish(nowhere, 'ping.a', makeEnvelope(PingContract, 'test', { n: 2 }))).resolves.toBeUndefined();
      // Routed to a queue, a mandatory message goes as any other.
      await expect(publisher.publish(exchange, 'ping.a', makeEnvelope(PingContract, 'test', { n: 3 }), { mandatory: true })).resolves.toBeUndefined();
    } finally {
      await lonely.close();
      await deleteBrokerObjects([], [nowhere]);
    }
    await waitFor(async () => (await queueDepth(queue)) === 1, { what: 'the routed message on the queue' });
    await consume(async () => undefined).ready();
    await waitFor(async () => (await queueDepth(queue)) === 0, { what: 'the queue emptied' });
  });

  it('refuses to publish a message that breaks its contract', async () => {
    const bad = makeEnvelope(PingContract, 'test', { n: 'one' } as unknown as Ping);
    await expect(publisher.publish(exchange, 'ping.a', bad)).rejects.toThrow(ContractViolation);
  });

  it('retries a failing message with delays, then dead-letters it with the reason after N attempts', async () => {
    let calls = 0;
    const lastAttempts: boolean[] = [];
    await consume(async (_e, context) => {
      calls += 1;
      lastAttempts.push(context.lastAttempt);
      throw new Error('database unavailable');
    }).ready();
    const envelope = makeEnvelope(PingContract, 'test', { n: 2 });
    await publisher.publish(exchange, 'ping.retry', envelope);
    await waitFor(async () => (await queueDepth(dlqName(queue))) === 1, { what: 'dead letter' });
    expect(calls).toBe(3);
    expect(lastAttempts).toEqual([false, false, true]);
    const [dead] = await listDeadLetters(amqpUrl(), queue);
    expect(dead).toMatchObject({ messageId: envelope.id, attempts: 3, routingKey: 'ping.retry' });
    expect(dead!.reason).toContain('gave up after 3 attempts');
    expect(dead!.reason).toContain('database unavailable');
    // listing leaves the message where it was
    expect(await queueDepth(dlqName(queue))).toBe(1);

    // once the cause is fixed, a replay brings it back and it succeeds
    await stopConsumers();
    const seen: number[] = [];
    await consume(async (e) => {
      seen.push(e.payload.n);
    }).ready();
    expect(await replayDeadLetters(amqpUrl(), queue)).toBe(1);
    await waitFor(() => seen.length === 1, { what: 'replayed delivery' });
    expect(seen).toEqual([2]);
    expect(await queueDepth(dlqName(queue))).toBe(0);
  });

  /** Publishes 1..5, the second failing twice; answers the order the handler finished them in. */
  async function orderThroughFailures(ordered: boolean): Promise<number[]> {
    const finished: number[] = [];
    let failures = 0;
    const consumer = new Consumer<Ping>(broker, {
      queue,
      topology,
      contracts: [PingContract],
      prefetch: 1,
      ordered,
      handler: async (envelope) => {
        if (envelope.payload.n === 2 && failures < 2) {
          failures += 1;
          throw new Error('database unavailable');
        }
        finished.push(envelope.payload.n);
      },
    });
    consumers.push(consumer);
    await consumer.ready();
    for (const n of [1, 2, 3, 4, 5]) await publisher.publish(exchange, 'ping.order', makeEnvelope(PingContract, 'test', { n }));
    await waitFor(() => finished.length === 5, { what: 'the five messages handled' });
    return finished;
  }

  it('on an ordered queue, puts a failed message back with those after it and takes them again in order', async () => {
    expect(await orderThroughFailures(true)).toEqual([1, 2, 3, 4, 5]);
    expect(await queueDepth(`${queue}.delay.50ms`)).toBe(0);
  });

  it('on an ordered queue, counts a message\'s own failures, not the times it went back behind another, so it keeps its place', async () => {
    // Message 1 fails 11 times: each time 2..5 are handled again after it.
    const finished: number[] = [];
    const failures = new Map<number, number>();
    const failing = new Map([[1, 11], [2, 2]]);
    const consumer = new Consumer<Ping>(broker, {
      queue,
      topology,
      contracts: [PingContract],
      prefetch: 10,
      ordered: true,
      orderedPausesMs: [10],
      handler: oneAtATime((n) => {
        const failed = failures.get(n) ?? 0;
        if (failed < (failing.get(n) ?? 0)) {
          failures.set(n, failed + 1);
          throw new Error('database unavailable');
        }
        finished.push(n);
      }),
    });
    consumers.push(consumer);
    for (const n of [1, 2, 3, 4, 5]) await publisher.publish(exchange, 'ping.order', makeEnvelope(PingContract, 'test', { n }));
    await consumer.ready();
    await waitFor(() => finished.length === 5, { what: 'the five messages handled' });
    // Message 2 had been handed to the handler 12 times when it failed itself: it still kept its place.
    expect(finished).toEqual([1, 2, 3, 4, 5]);
    expect(failures).toEqual(new Map([[1, 11], [2, 2]]));
  });

  it('on an ordered queue, handles a full prefetch window again in order after a failure (more messages than a quorum queue requeues in order at once)', async () => {
    const count = 60;
    const finished: number[] = [];
    let failed = false;
    const consumer = new Consumer<Ping>(broker, {
      queue,
      topology,
      contracts: [PingContract],
      prefetch: 100,
      ordered: true,
      orderedPausesMs: [10],
      handler: oneAtATime(async (n) => {
        if (n === 1 && !failed) {
          // Fails once every message is in hand, so all of them are handled again after it.
          await waitFor(() => consumer.inFlightCount === count, { what: 'every message in hand' });
          failed = true;
          throw new Error('database unavailable');
        }
        finished.push(n);
      }),
    });
    consumers.push(consumer);
    for (let n = 1; n <= count; n += 1) await publisher.publish(exchange, 'ping.order', makeEnvelope(PingContract, 'test', { n }));
    await consumer.ready();
    await waitFor(() => finished.length === count, { what: 'every message handled' });
    expect(finished).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  });

  it("on an ordered queue, handles the messages in hand again itself after each failure, never through the broker (each return would spend the broker's delivery limit)", async () => {
    const count = 25;
    const finished: number[] = [];
    const redelivered: number[] = [];
    const failedOnce = new Set<number>();
    const consumer = new Consumer<Ping>(broker, {
      queue,
      topology,
      contracts: [PingContract],
      prefetch: 30,
      ordered: true,
      orderedPausesMs: [1],
      // Each message fails once (the first time it is tried), then passes.
      handler: oneAtATime(async (n, context) => {
        if (!failedOnce.has(n)) {
          if (n === 1) await waitFor(() => consumer.inFlightCount === count, { what: 'every message in hand' });
          failedOnce.add(n);
          throw new Error('database unavailable');
        }
        if (context.redelivered) redelivered.push(n);
        finished.push(n);
      }),
    });
    consumers.push(consumer);
    for (let n = 1; n <= count; n += 1) await publisher.publish(exchange, 'ping.order', makeEnvelope(PingContract, 'test', { n }));
    await consumer.ready();
    await waitFor(() => finished.length === count, { what: 'every message handled' });
    expect(finished).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    // The last message was in hand through 24 rewinds: returned to the broker each time, it would have come back redelivered.
    expect(redelivered).toEqual([]);
    expect(await queueDepth(`${queue}.delay.50ms`)).toBe(0);
  });

  it('on an ordered queue, puts back with a failed message the one in hand not yet begun, instead of doing it first', async () => {
    const finished: number[] = [];
    const putBack: number[] = [];
    let failed = false;
    const consumer = new Consumer<Ping>(broker, {
      queue,
      topology,
      contracts: [PingContract],
      prefetch: 2,
      ordered: true,
      handler: async (envelope, context) => {
        const { n } = envelope.payload;
        if (n === 1 && !failed) {
          await waitFor(() => consumer.inFlightCount === 2, { what: 'message 2 in hand' });
          failed = true;
          throw new Error('database unavailable');
        }
        // Message 2 waits for message 1 (as a delivery waits for its conversation's running transaction), then would begin.
        if (n === 2) await waitFor(() => failed, { what: 'message 1 failed' });
        await new Promise((resolve) => setImmediate(resolve));
        if (context.signal.aborted) {
          putBack.push(n);
          throw context.signal.reason;
        }
        finished.push(n);
      },
    });
    consumers.push(consumer);
    await consumer.ready();
    for (const n of [1, 2, 3, 4]) await publisher.publish(exchange, 'ping.order', makeEnvelope(PingContract, 'test', { n }));
    await waitFor(() => finished.length === 4, { what: 'the four messages handled' });
    expect(finished).toEqual([1, 2, 3, 4]);
    expect(putBack).toEqual([2]);
    expect(await queueDepth(`${queue}.delay.50ms`)).toBe(0);
  });

  it('on an ordered queue, puts back a message that fails while its consumer yields to its peers', async () => {
    const handled: number[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let failures = 0;
    const consumer = new Consumer<Ping>(broker, {
      queue,
      topology,
      contracts: [PingContract],
      prefetch: 1,
      ordered: true,
      handler: async (envelope) => {
        if (failures === 0) {
          await held;
          failures += 1;
          throw new Error('database unavailable');
        }
        handled.push(envelope.payload.n);
      },
    });
    consumers.push(consumer);
    await consumer.ready();
    await publisher.publish(exchange, 'ping.order', makeEnvelope(PingContract, 'test', { n: 1 }));
    await waitFor(() => consumer.inFlightCount === 1, { what: 'message 1 in hand' });
    // Handing the queue over while message 1 is in hand, which then fails: it must not stay unsettled on the channel.
    const yielded = consumer.yieldToPeers();
    release();
    await yielded;
    await waitFor(() => handled.length === 1, { what: 'message 1 handled again' });
    expect(handled).toEqual([1]);
  });

  it('hands a queue with a single active consumer to the waiting peer in order: the peer takes nothing before the first settled what it held', async () => {
    const handled: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const orderedConsumer = (name: string) => {
      const consumer = new Consumer<Ping>(broker, {
        queue: sacQueue,
        topology,
        contracts: [PingContract],
        prefetch: 10,
        ordered: true,
        handler: oneAtATime(async (n) => {
          if (name === 'first' && n === 1) await held;
          handled.push(`${name}:${n}`);
        }),
      });
      consumers.push(consumer);
      return consumer;
    };
    const first = orderedConsumer('first');
    await first.ready();
    const peer = orderedConsumer('peer');
    await peer.ready();
    for (const n of [1, 2, 3]) await publisher.publish(exchange, 'sac.order', makeEnvelope(PingContract, 'test', { n }));
    await waitFor(() => first.inFlightCount === 3, { what: "three messages in the first consumer's hand, the first begun" });
    const yielded = first.yieldToPeers();
    for (const n of [4, 5]) await publisher.publish(exchange, 'sac.order', makeEnvelope(PingContract, 'test', { n }));
    // Were the queue handed over at the cancel, the peer would take 4 and 5 now, before 1, 2 and 3.
    await new Promise((resolve) => setTimeout(resolve, 500));
    release();
    await yielded;
    await waitFor(() => handled.length === 5, { what: 'the five messages handled' });
    expect(handled.map((one) => Number(one.split(':')[1]))).toEqual([1, 2, 3, 4, 5]);
    expect(handled.slice(3)).toEqual(['peer:4', 'peer:5']);
  });

  it('elsewhere, lets later messages overtake one that waits in a retry queue', async () => {
    expect(await orderThroughFailures(false)).toEqual([1, 3, 4, 5, 2]);
  });

  it('dead-letters a schema-invalid message at once, without calling the handler', async () => {
    let calls = 0;
    await consume(async () => {
      calls += 1;
    }).ready();
    const invalid = { ...makeEnvelope(PingContract, 'test', { n: 3 }), payload: { n: 'three' } };
    await publishRaw(JSON.stringify(invalid));
    await publishRaw('not json at all');
    await waitFor(async () => (await queueDepth(dlqName(queue))) === 2, { what: 'dead letters' });
    expect(calls).toBe(0);
    const dead = await listDeadLetters(amqpUrl(), queue);
    expect(dead.map((d) => d.attempts)).toEqual([0, 0]);
    expect(dead[0]!.reason).toContain('invalid test.ping.v1 payload: /payload/n must be integer');
    expect(dead[1]!.reason).toContain('the body is not JSON');
    await stopConsumers();
    // purge for the next tests
    const connection = await amqplib.connect(amqpUrl());
    await (await connection.createChannel()).purgeQueue(dlqName(queue));
    await connection.close();
  });

  it('dead-letters at once on a PermanentFailure', async () => {
    await consume(async () => {
      throw new PermanentFailure('unknown payload kind');
    }).ready();
    await publisher.publish(exchange, 'ping.p', makeEnvelope(PingContract, 'test', { n: 4 }));
    await waitFor(async () => (await queueDepth(dlqName(queue))) === 1, { what: 'dead letter' });
    const [dead] = await listDeadLetters(amqpUrl(), queue);
    expect(dead).toMatchObject({ attempts: 1 });
    expect(dead!.reason).toContain('PermanentFailure: unknown payload kind');
    await stopConsumers();
    const connection = await amqplib.connect(amqpUrl());
    await (await connection.createChannel()).purgeQueue(dlqName(queue));
    await connection.close();
  });

  it('puts a message off on RetryLater without counting an attempt, until the deferrals run out', async () => {
    const attempts: number[] = [];
    const consumer = new Consumer<Ping>(broker, {
      queue,
      topology,
      contracts: [PingContract],
      maxDeferrals: 2,
      handler: async (_e, context) => {
        attempts.push(context.attempt);
        if (attempts.length <= 3) throw new RetryLater('the conversation is busy');
      },
    });
    consumers.push(consumer);
    await consumer.ready();
    await publisher.publish(exchange, 'ping.later', makeEnvelope(PingContract, 'test', { n: 5 }));
    await waitFor(() => attempts.length === 4, { what: 'the message handled after its deferrals' });
    // two deferrals leave the attempt at 1; the third counts as a failed attempt
    expect(attempts).toEqual([1, 1, 1, 2]);
    await stopConsumers();
    expect(await queueDepth(dlqName(queue))).toBe(0);
  });

  it('finishes the message in hand when stopped, and acks it', async () => {
    let release!: () => void;
    const started = new Promise<void>((resolve) => {
      release = resolve;
    });
    let finished = false;
    let finish!: () => void;
    const finishing = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const consumer = consume(async () => {
      release();
      await finishing;
      finished = true;
    });
    await consumer.ready();
    await publisher.publish(exchange, 'ping.slow', makeEnvelope(PingContract, 'test', { n: 5 }));
    await started;
    const consuming = await consumersOn(queue);
    const stopping = consumer.stop(5000);
    // The handler ends only once the stop has cancelled the consumer: the stop must wait for it.
    await waitFor(async () => (await consumersOn(queue)) < consuming, { what: 'the stop to cancel the consumer' });
    finish();
    await stopping;
    expect(finished).toBe(true);
    expect(await queueDepth(queue)).toBe(0);
  });
});

describe('rpc', () => {
  it('answers requests, reports handler errors, and times out without a server', async () => {
    const client = new RpcClient(broker, 'test', topology);
    await expect(client.call(rpcQueue, EchoRequest, { text: 'nobody' }, { timeoutMs: 300 })).rejects.toThrow(RpcTimeout);

    const server = new RpcServer(broker, {
      queue: rpcQueue,
      topology,
      producer: 'test',
      methods: [
        rpcMethod(EchoRequest, async ({ text }) => {
          if (text === 'trace') return { echoed: currentCorrelationId() };
          if (text === 'fail') throw new RpcError('not_found', 'no such thing');
          return { echoed: text.toUpperCase() };
        }),
      ],
    });
    await server.ready();
    // the request that timed out expired in the queue: the server does not answer it late
    await expect(client.call(rpcQueue, EchoRequest, { text: 'hello' })).resolves.toEqual({ echoed: 'HELLO' });
    await expect(client.call(rpcQueue, EchoRequest, { text: 'fail' })).rejects.toMatchObject({ code: 'not_found', message: 'no such thing' });
    await expect(client.call(rpcQueue, PingContract, { n: 1 })).rejects.toMatchObject({ code: 'unknown_method' });
    // the server works in the caller's correlation context, not the request's reply id
    await expect(runWithContext({ correlationId: 'trace-42' }, () => client.call(rpcQueue, EchoRequest, { text: 'trace' }))).resolves.toEqual({ echoed: 'trace-42' });
    await server.stop();
    // a call still waiting when the client closes ends at once instead of hanging
    const waiting = expect(client.call(rpcQueue, EchoRequest, { text: 'nobody answers now' }, { timeoutMs: 60_000 })).rejects.toMatchObject({ code: 'closed' });
    await client.close();
    await waiting;
  });

  it("answers a method with callers only to them, by the broker-validated user id of the caller's connection", async () => {
    const client = new RpcClient(broker, 'test', topology);
    const server = new RpcServer(broker, {
      queue: rpcQueue,
      topology,
      producer: 'test',
      methods: [rpcMethod(EchoRequest, async ({ text }) => ({ echoed: text }), { callers: [broker.user] }), rpcMethod(PingContract, async () => ({ pong: true }), { callers: ['someone-else'] })],
    });
    await server.ready();
    await expect(client.call(rpcQueue, EchoRequest, { text: 'mine' })).resolves.toEqual({ echoed: 'mine' });
    await expect(client.call(rpcQueue, PingContract, { n: 1 })).rejects.toMatchObject({ code: 'forbidden' });
    await server.stop();
    await client.close();
  });
});

describe('rpc without a broker', () => {
  it('rejects a call that times out while its send still waits for a connection, and leaves no rejection unhandled', () => {
    const tsx = join(__dirname, '..', '..', '..', 'node_modules', '.bin', 'tsx');
    const out = execFileSync(tsx, [join(__dirname, 'testing', 'rpc-timeout-probe.ts')], { encoding: 'utf8', timeout: 30_000 });
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({ ended: 'RpcTimeout', unhandled: [] });
  });
});

describe('broker restart', () => {
  // A broker of this test's own: the machine's is never stopped.
  let own: PrivateBroker;
  let ownBroker: Broker;
  let ownPublisher: Publisher;
  const consumeOwn = (handler: (envelope: Envelope<Ping>) => Promise<void>) => {
    const consumer = new Consumer<Ping>(ownBroker, { queue, topology, contracts: [PingContract], handler, prefetch: 20 });
    consumers.push(consumer);
    return consumer;
  };
  const restart = async () => {
    await own.stopApp();
    await own.startApp();
  };

  beforeAll(async () => {
    own = await startPrivateBroker('messaging');
    ownBroker = new Broker({ url: own.url, name: 'messaging-restart-test', logger });
    await ownBroker.waitUntilConnected();
    ownPublisher = new Publisher(ownBroker, topology);
    await ownPublisher.ready();
  }, 90_000);

  afterAll(async () => {
    await stopConsumers();
    await ownPublisher?.close();
    await ownBroker?.close();
    await own?.stop();
  });

  it('publisher and consumer recover on their own and nothing published before the restart is lost', async () => {
    const seen = new Set<number>();
    const consumer = consumeOwn(async (e) => {
      seen.add(e.payload.n);
    });
    await consumer.ready();
    await consumer.stop(); // stop consuming so messages wait in the queue across the restart
    consumers.length = 0;

    for (let n = 100; n < 150; n += 1) await ownPublisher.publish(exchange, 'ping.before', makeEnvelope(PingContract, 'test', { n }));
    expect(await queueDepth(queue, own.url)).toBe(50);

    await restart();

    // the same publisher and a consumer on the same broker connection carry on
    await waitFor(() => ownBroker.isConnected(), { timeoutMs: 30_000, what: 'reconnect' });
    for (let n = 150; n < 160; n += 1) await ownPublisher.publish(exchange, 'ping.after', makeEnvelope(PingContract, 'test', { n }), { timeoutMs: 20_000 });
    const resumed = consumeOwn(async (e) => {
      seen.add(e.payload.n);
    });
    await resumed.ready();
    await waitFor(() => seen.size === 60, { timeoutMs: 30_000, what: 'all 60 messages' });
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => 100 + i));
  }, 90_000);

  it('a consumer already running when the broker restarts resumes by itself', async () => {
    const seen = new Set<number>();
    await consumeOwn(async (e) => {
      seen.add(e.payload.n);
    }).ready();
    await restart();
    for (let n = 200; n < 210; n += 1) await ownPublisher.publish(exchange, 'ping.x', makeEnvelope(PingContract, 'test', { n }), { timeoutMs: 20_000 });
    await waitFor(() => seen.size === 10, { timeoutMs: 30_000, what: 'messages after restart' });
  }, 90_000);
});
