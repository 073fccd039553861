import pg from 'pg';
import { ACTIVITY_PARTITION_QUEUES } from '@crm/contracts';
import { listActivityDeadLetters } from '@crm/messaging';
import { directMessageReceived } from '@crm/social-platform-simulator/src/deliveries';
import { capturingLogger, freshDatabase, freshVirtualHost, queueDepth, waitFor, type TestDatabase, type TestVirtualHost, testClient } from '@crm/testing';
import { startTicketing, type RunningTicketing } from './service';
import { dmDelivery, dmEvent, userObject } from './testing/deliveries';
import { apiClient, HandledMessages, TestPublisher, testConfig } from './testing/harness';

/**
 * A conversation busy with a very large delivery holds up neither other conversations nor the
 * consumer's slots: deliveries of the same conversation wait in the delay queue instead of in
 * a slot, and a lock that cannot be had in time is a reason to try again, not a dead letter.
 */

const BIG_ACCOUNT = '7300000001';
const OTHER_ACCOUNT = '7300000002';
const SENDER = '9730000001';
const DMS = 5_000;
const T0 = Date.parse('2026-10-01T09:00:00Z');

let vhost: TestVirtualHost;
let db: TestDatabase;
let service: RunningTicketing;
let publisher: TestPublisher;
let client: pg.Client;
const handled = new HandledMessages();

beforeAll(async () => {
  [vhost, db] = await Promise.all([freshVirtualHost('busy'), freshDatabase('busy')]);
  const { logger } = capturingLogger('ticketing-busy');
  service = await startTicketing(testConfig({ AMQP_URL: vhost.url, DATABASE_URL: db.url, ACTIVITY_PREFETCH: 10 }), { logger, host: '127.0.0.1', onHandled: handled.note });
  publisher = new TestPublisher(vhost.url);
  await publisher.ready();
  const api = apiClient(() => `http://127.0.0.1:${service.port}`);
  for (const account of [BIG_ACCOUNT, OTHER_ACCOUNT]) expect((await api.put(`/v1/partner-configs/${account}`, {})).status).toBe(201);
  client = testClient(db.url);
  await client.connect();
}, 60_000);

afterAll(async () => {
  await client?.end();
  await publisher?.close();
  await service?.stop();
  await Promise.all([db?.drop(), vhost?.drop()]);
});

/** Whether a transaction holds the advisory lock of `key` right now (a delivery being recorded holds its conversation's). */
async function lockHeld(key: string): Promise<boolean> {
  const { rows } = await client.query<{ held: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_locks l JOIN pg_database d ON d.oid = l.database
                     WHERE l.locktype = 'advisory' AND l.granted AND d.datname = current_database()
                       AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended($1, 0)) AS held`,
    [key],
  );
  return rows[0]!.held;
}

async function countOf(sql: string, params: unknown[]): Promise<number> {
  return (await client.query<{ n: number }>(sql, params)).rows[0]!.n;
}

it(`records a ${DMS}-DM delivery in one conversation while another account's DM becomes a ticket before it is done`, async () => {
  const users = [userObject(SENDER, 'bulk', 'Bulk Sender'), userObject(BIG_ACCOUNT, 'acme', 'Acme')];
  const events = Array.from({ length: DMS }, (_, i) => dmEvent({ id: `8300${String(i).padStart(6, '0')}`, from: SENDER, to: BIG_ACCOUNT, text: `message ${i} about my order`, at: T0 + i * 1000 }));
  const big = await publisher.delivery(dmDelivery(BIG_ACCOUNT, events, users));
  await waitFor(() => lockHeld(`dm:${BIG_ACCOUNT}:${SENDER}`), { what: 'the large delivery being recorded', intervalMs: 10 });

  // The same sender goes on writing: with a waiting lock, these would fill the consumer's other nine slots.
  const sameSender: string[] = [];
  for (let i = 0; i < 9; i += 1) {
    const event = dmEvent({ id: `8301${String(i).padStart(6, '0')}`, from: SENDER, to: BIG_ACCOUNT, text: `and one more (${i})`, at: T0 + (DMS + i) * 1000 });
    sameSender.push(await publisher.delivery(dmDelivery(BIG_ACCOUNT, [event], users)));
  }
  // They reach the consumer first: none waits in the queue any more.
  await waitFor(async () => (await Promise.all(ACTIVITY_PARTITION_QUEUES.map((queue) => queueDepth(queue, vhost.url)))).every((depth) => depth === 0), { what: 'the same sender\'s deliveries taken by the consumer', intervalMs: 10 });

  const other = await publisher.delivery(directMessageReceived({ account: OTHER_ACCOUNT, customer: { id: '9730000002', screenName: 'ana', name: 'Ana' }, text: 'where is my parcel?' }));
  await handled.wait(other);
  expect(handled.total).toBe(1); // the large delivery was still being recorded: the other account did not wait for it
  expect(await countOf('SELECT count(*)::int AS n FROM tickets WHERE account_id = $1', [OTHER_ACCOUNT])).toBe(1);

  await handled.wait(big);
  for (const id of sameSender) await handled.wait(id);
  expect(await countOf('SELECT count(DISTINCT ticket_id)::int AS n FROM activities WHERE account_id = $1', [BIG_ACCOUNT])).toBe(1);
  expect(await countOf('SELECT count(*)::int AS n FROM activities WHERE account_id = $1 AND ticket_id IS NOT NULL', [BIG_ACCOUNT])).toBe(DMS + 9);
  expect(await listActivityDeadLetters(vhost.url)).toEqual([]);
}, 120_000);

it('tries a delivery again later when a lock is not had within the lock timeout, instead of dead-lettering it', async () => {
  const account = '7300000003';
  await apiClient(() => `http://127.0.0.1:${service.port}`).put(`/v1/partner-configs/${account}`, {});
  // Saving the account's configuration holds its lock exclusively (here: for longer than the lock timeout).
  const holder = testClient(db.url);
  await holder.connect();
  const settled: string[] = [];
  const stopListening = service.consumer.onSettled((id) => id && settled.push(id));
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`account:${account}`]);
    const id = await publisher.delivery(directMessageReceived({ account, customer: { id: '9730000003', screenName: 'bob', name: 'Bob' }, text: 'hello?' }));
    // The first attempt gave up waiting and went to the delay queue.
    await waitFor(() => settled.includes(id), { what: 'the first attempt settled' });
    expect(await countOf('SELECT count(*)::int AS n FROM activities WHERE account_id = $1', [account])).toBe(0);
    await holder.query('COMMIT');
    await handled.wait(id);
    expect(await countOf('SELECT count(*)::int AS n FROM tickets WHERE account_id = $1', [account])).toBe(1);
    expect(await listActivityDeadLetters(vhost.url)).toEqual([]);
  } finally {
    stopListening();
    await holder.end();
  }
}, 60_000);
