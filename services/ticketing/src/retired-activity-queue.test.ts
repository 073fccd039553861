import { ACTIVITY_PARTITION_QUEUES, Exchanges, Queues, RawActivity } from '@crm/contracts';
import { makeEnvelope } from '@crm/messaging';
import { directMessageReceived } from '@crm/social-platform-simulator/src/deliveries';
import { freshDatabase, freshVirtualHost, queueDepth, testLogger, testPool, waitFor } from '@crm/testing';
import amqplib from 'amqplib';
import { startTicketing } from './service';
import { rawActivity } from './testing/deliveries';
import { testConfig } from './testing/harness';

/**
 * A broker from before the partitions: `ticketing.activity` bound to `social.activity` with `#`,
 * deliveries waiting in it. ticketing unbinds it and records what waited there.
 */
it('records the deliveries left in the activity queue from before the partitions, and unbinds it', async () => {
  const [vhost, db] = await Promise.all([freshVirtualHost('retired'), freshDatabase('retired')]);
  const account = '7400000001';
  const customer = { id: '9740000001', screenName: 'ana', name: 'Ana' };
  const dlq = `${Queues.ticketingActivity}.dlq`;
  const connection = await amqplib.connect(vhost.url);
  const channel = await connection.createConfirmChannel();
  await channel.assertExchange(Exchanges.socialActivity, 'topic', { durable: true });
  await channel.assertQueue(dlq, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  const oldArguments = { 'x-queue-type': 'quorum', 'x-delivery-limit': 20, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': dlq };
  await channel.assertQueue(Queues.ticketingActivity, { durable: true, arguments: oldArguments });
  await channel.bindQueue(Queues.ticketingActivity, Exchanges.socialActivity, '#');
  for (const eventId of ['740001', '740002', '740003']) {
    const envelope = makeEnvelope(RawActivity, 'webhook-ingest', rawActivity(directMessageReceived({ account, customer, text: `left over ${eventId}`, eventId })));
    channel.sendToQueue(Queues.ticketingActivity, Buffer.from(JSON.stringify(envelope)), { persistent: true, messageId: envelope.id, type: envelope.type });
  }
  await channel.waitForConfirms();
  await connection.close();

  const service = await startTicketing(testConfig({ AMQP_URL: vhost.url, DATABASE_URL: db.url }), { logger: testLogger('ticketing-retired'), host: '127.0.0.1' });
  const pool = testPool(db.url);
  try {
    const recorded = async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM raw_log')).rows[0]!.n;
    await waitFor(async () => (await recorded()) === 3, { what: 'the three left-over deliveries in the raw log' });
  } finally {
    await pool.end();
    await service.stop();
  }
  // Unbound: with no consumer left, a new delivery waits in a partition, not in the old queue.
  const publisher = await amqplib.connect(vhost.url);
  try {
    const publishing = await publisher.createConfirmChannel();
    const envelope = makeEnvelope(RawActivity, 'webhook-ingest', rawActivity(directMessageReceived({ account, customer, text: 'new', eventId: '740004' })));
    publishing.publish(Exchanges.socialActivity, `direct_message_events.${account}`, Buffer.from(JSON.stringify(envelope)), { persistent: true, messageId: envelope.id, type: envelope.type, headers: { 'x-account-id': account } });
    await publishing.waitForConfirms();
    expect(await queueDepth(Queues.ticketingActivity, vhost.url)).toBe(0);
    const depths = await Promise.all(ACTIVITY_PARTITION_QUEUES.map((queue) => queueDepth(queue, vhost.url)));
    expect(depths.reduce((sum, depth) => sum + depth, 0)).toBe(1);
  } finally {
    await publisher.close();
    await Promise.all([db.drop(), vhost.drop()]);
  }
}, 120_000);
