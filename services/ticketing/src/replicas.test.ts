import { randomInt } from 'node:crypto';
import {
  appRevoked,
  markedRead,
  postCreated,
  postDeleted,
  postLiked,
  typingIndicated,
  userRelation,
} from '@crm/social-platform-simulator/src/activity-deliveries';
import { directMessageReceived, directMessageSent } from '@crm/social-platform-simulator/src/deliveries';
import type { UserInput } from '@crm/social-platform-simulator/src/users';
import { capturingLogger, freshDatabase, freshVirtualHost, testLogger, waitFor, type TestDatabase, type TestVirtualHost, testClient } from '@crm/testing';
import { Queues } from '@crm/contracts';
import amqplib from 'amqplib';
import { runCli } from './cli-commands';
import { startTicketing, type RunningTicketing } from './service';
import { apiClient, HandledMessages, logEntries, seededRandom, shuffled, TestPublisher, testConfig } from './testing/harness';

/**
 * Two ticketing replicas on the same activity partitions and one database, fed every delivery twice (the same
 * message redelivered, or the same events in another message) in a shuffled order, end with
 * exactly the tickets, activities and contacts one replica makes of the same deliveries
 * given one at a time in order. Run it with REPLICAS_TEST_SEED=<n> to repeat a shuffle.
 */

const SEED = Number(process.env.REPLICAS_TEST_SEED ?? randomInt(1_000_000));
const ACCOUNTS = ['7100000001', '7100000002'];

interface Stack {
  vhost: TestVirtualHost;
  db: TestDatabase;
  replicas: { service: RunningTicketing; lines: string[]; handled: HandledMessages }[];
  publisher: TestPublisher;
}

async function startStack(name: string, replicas: number): Promise<Stack> {
  const [vhost, db] = await Promise.all([freshVirtualHost(name), freshDatabase(name)]);
  const started: Stack['replicas'] = [];
  for (let i = 0; i < replicas; i += 1) {
    const { logger, lines } = capturingLogger(`ticketing-${name}-${i}`);
    const handled = new HandledMessages();
    const service = await startTicketing(testConfig({ AMQP_URL: vhost.url, DATABASE_URL: db.url, ACTIVITY_PREFETCH: 5 }), { logger, host: '127.0.0.1', onHandled: handled.note });
    started.push({ service, lines, handled });
  }
  const publisher = new TestPublisher(vhost.url);
  await publisher.ready();
  const api = apiClient(() => `http://127.0.0.1:${started[0]!.service.port}`);
  for (const [index, account] of ACCOUNTS.entries()) {
    const policy = index === 1 ? { likeOfAccount: 'ticket', mention: 'ticket' } : {};
    const routing = { rules: [{ name: 'refunds', when: { keywords: ['refund'] }, queue: 'billing', folder: 'refunds' }] };
    expect((await api.put(`/v1/partner-configs/${account}`, { policy, routing })).status).toBe(201);
  }
  return { vhost, db, replicas: started, publisher };
}

async function stopStack(stack: Stack | undefined): Promise<void> {
  if (!stack) return;
  await stack.publisher.close();
  for (const { service } of stack.replicas) await service.stop();
  await Promise.all([stack.db.drop(), stack.vhost.drop()]);
}

const handledCount = (stack: Stack) => stack.replicas.reduce((sum, { handled }) => sum + handled.total, 0);

/** Every kind of activity for one account, in the order it happened. */
function scenario(account: string): object[] {
  const t0 = Date.parse('2026-09-01T10:00:00Z');
  const time = (minutes: number) => t0 + minutes * 60_000;
  let sequence = 0;
  const id = () => `${account}${String((sequence += 1)).padStart(6, '0')}`;
  const user = (n: number, screenName: string, name: string, extra: Partial<UserInput> = {}): UserInput => ({ id: `9${account.slice(-3)}00000${n}`, screenName, name, ...extra });
  const [ana, bob, cid, dan, eve] = [user(1, 'ana', 'Ana'), user(2, 'bob', 'Bob'), user(3, 'cid', 'Cid'), user(4, 'dan', 'Dan'), user(5, 'eve', 'Eve')] as const;
  const deliveries: object[] = [];
  const add = <T extends object>(delivery: T) => {
    deliveries.push(delivery);
    return delivery;
  };
  const postId = (delivery: object) => (delivery as { tweet_create_events: { id_str: string }[] }).tweet_create_events[0]!.id_str;

  // DM conversations: the account sometimes writes first; profiles change along the way.
  [ana, bob, cid, dan].forEach((customer, i) => {
    const m = i * 10;
    if (i % 2 === 0) add(directMessageSent({ account, customer, text: `hello ${customer.screenName}, about your order`, eventId: id(), createdAt: time(m) }));
    add(directMessageReceived({ account, customer, text: `${customer.screenName}: I need a refund`, eventId: id(), createdAt: time(m + 1) }));
    add(directMessageReceived({ account, customer: { ...customer, name: `${customer.name} II`, followersCount: 10 + i }, text: `${customer.screenName}: second`, eventId: id(), createdAt: time(m + 2) }));
    const reply = add(directMessageSent({ account, customer, text: `sorry ${customer.screenName}`, eventId: id(), createdAt: time(m + 3) }));
    add(directMessageReceived({ account, customer, text: `${customer.screenName}: photo`, eventId: id(), createdAt: time(m + 4), media: { url: `https://img.example/${i}.jpg` } }));
    add(typingIndicated({ account, sender: customer, recipient: account, createdAt: time(m + 5) }));
    add(markedRead({ account, sender: customer, recipient: account, lastReadEventId: reply.direct_message_events[0]!.id, createdAt: time(m + 6) }));
    add(typingIndicated({ account, sender: account, recipient: customer, createdAt: time(m + 7) }));
  });
  // One delivery with several events.
  const first = directMessageReceived({ account, customer: eve, text: 'eve: two at once (1)', eventId: id(), createdAt: time(45) });
  const second = directMessageReceived({ account, customer: eve, text: 'eve: two at once (2)', eventId: id(), createdAt: time(46) });
  add({ ...first, direct_message_events: [...first.direct_message_events, ...second.direct_message_events] });

  // A thread started by a customer's mention.
  const mention = add(postCreated({ account, author: ana, text: '@acme my parcel is lost', mentions: [account], eventId: id(), createdAt: time(50) }));
  const ourReply = add(postCreated({ account, author: account, text: '@ana so sorry', inReplyTo: { id: postId(mention), author: ana }, eventId: id(), createdAt: time(51) }));
  add(postCreated({ account, author: bob, text: '@ana @acme mine too', inReplyTo: { id: postId(mention), author: ana }, mentions: [account], eventId: id(), createdAt: time(52) }));
  const anaAgain = add(postCreated({ account, author: ana, text: 'any news?', inReplyTo: { id: postId(ourReply), author: account }, eventId: id(), createdAt: time(53) }));
  add(postCreated({ account, author: account, text: '@ana tomorrow', inReplyTo: { id: postId(anaAgain), author: ana }, eventId: id(), createdAt: time(54) }));

  // The account's own post, replied to.
  const post = add(postCreated({ account, author: account, text: 'Our sale starts today', eventId: id(), createdAt: time(60) }));
  const danReply = add(postCreated({ account, author: { ...dan, verified: true }, text: 'free shipping?', inReplyTo: { id: postId(post), author: account }, eventId: id(), createdAt: time(61) }));
  const ourAnswer = add(postCreated({ account, author: account, text: '@dan yes', inReplyTo: { id: postId(danReply), author: dan }, eventId: id(), createdAt: time(62) }));
  add(postCreated({ account, author: eve, text: 'me too?', inReplyTo: { id: postId(ourAnswer), author: account }, eventId: id(), createdAt: time(63) }));

  // Quotes.
  const quote = add(postCreated({ account, author: eve, text: 'meh', quoteOf: { id: postId(post), author: account, text: 'Our sale starts today' }, eventId: id(), createdAt: time(70) }));
  add(postCreated({ account, author: account, text: 'Tell us more, Eve', quoteOf: { id: postId(quote), author: eve, text: 'meh' }, eventId: id(), createdAt: time(71) }));

  // A mention deleted later.
  const deleted = add(postCreated({ account, author: cid, text: '@acme oops', mentions: [account], eventId: id(), createdAt: time(80) }));
  add(postDeleted({ account, postId: postId(deleted), author: cid, createdAt: time(81) }));

  // Reactions and relations.
  add(postCreated({ account, author: dan, text: '', repostOf: { id: postId(post), author: account, text: 'Our sale starts today' }, eventId: id(), createdAt: time(90) }));
  add(postLiked({ account, liker: dan, post: { id: postId(post), author: account, text: 'Our sale starts today' }, createdAt: time(91) }));
  add(userRelation('follow_events', { account, type: 'follow', source: eve, target: account, createdAt: time(92) }));
  add(userRelation('follow_events', { account, type: 'unfollow', source: eve, target: account, createdAt: time(93) }));
  add(postLiked({ account, liker: account, post: { id: postId(mention), author: ana, text: '@acme my parcel is lost' }, createdAt: time(94) }));
  add(postCreated({ account, author: account, text: '', repostOf: { id: postId(quote), author: eve, text: 'meh' }, eventId: id(), createdAt: time(95) }));
  add(userRelation('follow_events', { account, type: 'follow', source: account, target: cid, createdAt: time(96) }));
  add(userRelation('block_events', { account, type: 'block', source: account, target: bob, createdAt: time(100) }));
  add(userRelation('block_events', { account, type: 'unblock', source: account, target: bob, createdAt: time(101) }));
  add(userRelation('mute_events', { account, type: 'mute', source: account, target: dan, createdAt: time(102) }));
  add(userRelation('block_events', { account, type: 'block', source: account, target: dan, createdAt: time(103) }));
  if (account === ACCOUNTS[1]) add(appRevoked({ account, createdAt: time(110) }));
  return deliveries;
}

/** What must come out the same: everything but generated ids and processing times, keyed by platform ids. */
async function snapshot(url: string) {
  const client = testClient(url);
  await client.connect();
  try {
    const query = async (sql: string) => (await client.query(sql)).rows;
    return {
      tickets: await query(`
        SELECT t.account_id, t.conversation_key, t.status, t.channel, t.queue, t.folder, t.routing_rule, t.opened_by_kind,
               c.platform_user_id AS contact, t.subject, t.last_activity_at,
               t.first_response_due_at - t.created_at AS first_response_after, t.resolution_due_at - t.created_at AS resolution_after
          FROM tickets t LEFT JOIN contacts c ON c.id = t.contact_id
         ORDER BY t.account_id, t.conversation_key`),
      activities: await query(`
        SELECT a.account_id, a.platform_event_id, a.kind, a.direction, a.text, a.occurred_at, a.deleted, a.deleted_at, a.attachments,
               a.conversation_key, a.parent_post_id, a.related_post_id,
               t.conversation_key AS ticket, c.platform_user_id AS contact, au.platform_user_id AS author
          FROM activities a LEFT JOIN tickets t ON t.id = a.ticket_id
          LEFT JOIN contacts c ON c.id = a.contact_id LEFT JOIN contacts au ON au.id = a.author_contact_id
         ORDER BY a.account_id, a.platform_event_id`),
      contacts: await query(`
        SELECT account_id, platform_user_id, screen_name, name, avatar_url, followers_count, verified, profile, profile_observed_at,
               blocked, blocked_changed_at, muted, muted_changed_at
          FROM contacts ORDER BY account_id, platform_user_id`),
      conversations: await query('SELECT * FROM dm_conversations ORDER BY account_id, counterpart_id'),
      deletedPosts: await query('SELECT * FROM deleted_posts ORDER BY account_id, post_id'),
      accounts: await query('SELECT account_id, status, status_changed_at FROM accounts ORDER BY account_id'),
      held: await query('SELECT count(*)::int AS n FROM held_deliveries'),
    };
  }  finally {
    await client.end();
  }
}

async function consumersOn(url: string, queue: string): Promise<number> {
  const connection = await amqplib.connect(url);
  try {
    return (await (await connection.createChannel()).checkQueue(queue)).consumerCount;
  } finally {
    await connection.close();
  }
}

let reference: Stack | undefined;
let scaled: Stack | undefined;
/** What one replica fed every delivery once, in order, made of them. */
let expected: Awaited<ReturnType<typeof snapshot>> | undefined;
/** The distinct messages (envelope ids) the shuffled run published. */
const publishedIds = new Set<string>();

afterAll(async () => {
  await stopStack(reference);
  await stopStack(scaled);
});

it(`two replicas fed duplicated, shuffled deliveries end as one replica fed them in order (shuffle seed ${SEED})`, async () => {
  const deliveries = ACCOUNTS.flatMap(scenario);

  reference = await startStack('one', 1);
  for (const [index, delivery] of deliveries.entries()) {
    await reference.publisher.delivery(delivery);
    await waitFor(() => handledCount(reference!) >= index + 1, { what: `delivery ${index} handled in order` });
  }
  expected = await snapshot(reference.db.url);

  scaled = await startStack('two', 2);
  const random = seededRandom(SEED);
  // Every delivery twice: half the copies are the same message redelivered, half the same events in another message.
  const copies = deliveries.flatMap((delivery, index) => [
    { delivery, index, redelivery: false },
    { delivery, index, redelivery: random() < 0.5 },
  ]);
  const envelopeIds = new Map<number, string>();
  for (const copy of shuffled(copies, random)) {
    const id = await scaled.publisher.delivery(copy.delivery, copy.redelivery ? envelopeIds.get(copy.index) : undefined);
    if (!envelopeIds.has(copy.index)) envelopeIds.set(copy.index, id);
    publishedIds.add(id);
  }
  await waitFor(() => handledCount(scaled!) >= copies.length, { what: `${copies.length} messages handled`, timeoutMs: 60_000 });
  await waitFor(() => scaled!.replicas.every(({ service }) => service.consumer.inFlightCount === 0), { what: 'idle replicas' });

  // One replica is active on each partition (one account's deliveries, one replica at a time); both are present to share them.
  expect(await consumersOn(scaled.vhost.url, Queues.ticketingReplicas)).toBe(2);
  const actual = await snapshot(scaled.db.url);
  expect(expected.tickets.length).toBeGreaterThan(10);
  expect(expected.activities.length).toBeGreaterThan(80);
  expect(actual).toEqual(expected);
});

it('the raw log of that shuffled, duplicated run rebuilds into a fresh database exactly what the replicas made', async () => {
  expect(scaled && expected).toBeTruthy();
  const live = scaled!.replicas[0]!.service;
  const published = publishedIds.size;
  await waitFor(async () => (await live.rawLog.count()) >= published, { what: `${published} deliveries in the raw log` });
  expect(await live.rawLog.count()).toBe(published);
  const into = await freshDatabase('rebuilt');
  try {
    const out: string[] = [];
    const config = testConfig({ AMQP_URL: scaled!.vhost.url, DATABASE_URL: scaled!.db.url });
    const code = await runCli(['rebuild', '--into', into.url], config, testLogger('rebuild'), { out: (line) => out.push(line), err: () => undefined });
    expect(code).toBe(0);
    expect(JSON.parse(out.join('\n'))).toMatchObject({ read: published, invalid: 0, held: 0 });
    expect(await snapshot(into.url)).toEqual(expected);
    // Again into the same database: refused, nothing doubled.
    expect(await runCli(['rebuild', '--into', into.url], config, testLogger('rebuild'), { out: () => undefined, err: () => undefined })).toBe(1);
  } finally {
    await into.drop();
  }
});

it('held deliveries released by two replicas at once are processed once', async () => {
  const stack = await startStack('held', 2);
  try {
    const account = '7100000099';
    const t0 = Date.parse('2026-09-05T10:00:00Z');
    const ids: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      const customer = { id: `91000000${i % 5}`, screenName: `c${i % 5}`, name: `C ${i % 5}` };
      ids.push(await stack.publisher.delivery(directMessageReceived({ account, customer, text: `message ${i}`, eventId: `${account}${String(i).padStart(4, '0')}`, createdAt: t0 + i * 1000 })));
    }
    await waitFor(() => handledCount(stack) >= ids.length, { what: 'all held' });
    const [first, second] = stack.replicas.map(({ service }) => apiClient(() => `http://127.0.0.1:${service.port}`));
    const put = await Promise.all([first!.put(`/v1/partner-configs/${account}`, {}), second!.put(`/v1/partner-configs/${account}`, {})]);
    expect(put.map((answer) => answer.status).sort()).toEqual([200, 201]);
    await Promise.all(stack.replicas.map(({ service }) => service.heldRelease.release(account)));
    await Promise.all(stack.replicas.map(({ service }) => service.heldRelease.idle()));

    const client = testClient(stack.db.url);
    await client.connect();
    try {
      const { rows } = await client.query<{ tickets: number; activities: number; held: number }>(
        `SELECT (SELECT count(*)::int FROM tickets WHERE account_id = $1) AS tickets,
                (SELECT count(*)::int FROM activities WHERE account_id = $1) AS activities,
                (SELECT count(*)::int FROM held_deliveries) AS held`,
        [account],
      );
      expect(rows[0]).toEqual({ tickets: 5, activities: 30, held: 0 });
    } finally {
      await client.end();
    }
    const released = stack.replicas.map(({ lines }) => logEntries(lines).filter((entry) => entry.message === 'held activity released').length);
    expect(released[0]! + released[1]!).toBe(30);
  } finally {
    await stopStack(stack);
  }
});
