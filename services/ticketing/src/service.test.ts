import amqplib from 'amqplib';
import pg from 'pg';
import { AccountConnected, AccountDisconnected, AccountNeedsReconnect, AccountRevoked, ACCOUNT_REVOKED_KEY, AuthAccountEventKeys, Exchanges, Queues, SYSTEM_TOPOLOGY, type Contract } from '@crm/contracts';
import { listActivityDeadLetters } from '@crm/messaging';
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
import { capturingLogger, freshDatabase, freshVirtualHost, waitFor, type TestDatabase, type TestVirtualHost, testPool } from '@crm/testing';
import { TicketingStore } from './adapters/db/store';
import { HeldRelease } from './operations/release-held';
import { withDefaults } from './domain/partner-config';
import { startTicketing, type RunningTicketing } from './service';
import { dmDelivery, dmEvent, userObject } from './testing/deliveries';
import { filledTemplate, fixture, repairedOfficialDm } from './testing/fixtures';
import { apiClient, HandledMessages, logEntries, TestPublisher, testConfig } from './testing/harness';

/**
 * The whole service in-process against the real RabbitMQ and PostgreSQL, on a virtual host
 * and a database of its own (real exchange and queue names), fed deliveries as webhook-ingest
 * publishes them (built by the social platform simulator) and read back through the HTTP API.
 */

let vhost: TestVirtualHost;
let db: TestDatabase;
let service: RunningTicketing;
let publisher: TestPublisher;
let pool: pg.Pool;
const store = () => new TicketingStore(pool);
let logLines: string[];
const handledMessages = new HandledMessages();
const api = apiClient(() => `http://127.0.0.1:${service.port}`);

// Each test works on accounts of its own, so tests never see each other's tickets.
let nextAccount = 10_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
const newAccount = () => String((nextAccount += 1));

beforeAll(async () => {
  [vhost, db] = await Promise.all([freshVirtualHost('ticketing'), freshDatabase('ticketing')]);
  const captured = capturingLogger('ticketing');
  logLines = captured.lines;
  service = await startTicketing(testConfig({ AMQP_URL: vhost.url, DATABASE_URL: db.url }), { logger: captured.logger, host: '127.0.0.1', onHandled: handledMessages.note });
  publisher = new TestPublisher(vhost.url);
  await publisher.ready();
  pool = testPool(db.url, { max: 2 });
});

afterAll(async () => {
  await publisher?.close();
  await service?.stop();
  await pool?.end();
  await Promise.all([db?.drop(), vhost?.drop()]);
});

// ---------------------------------------------------------------------------------------

interface Contact {
  id: string;
  screenName: string | null;
  name: string | null;
}
interface Activity {
  id: string;
  ticketId: string | null;
  kind: string;
  direction: string;
  text: string | null;
  platformEventId: string;
  occurredAt: string;
  deleted: boolean;
  author: Contact | null;
  attachments: { type: string; url: string | null }[];
}
interface Ticket {
  id: string;
  accountId: string;
  status: string;
  channel: string;
  queue: string;
  folder: string;
  routingRule: string | null;
  contact: Contact;
  subject: string;
  createdAt: string;
  updatedAt: string;
  lastActivityAt: string;
  sla: { firstResponseDueAt: string; resolutionDueAt: string; firstRespondedAt: string | null };
  order?: unknown;
  conversationState: {
    typing: { contactAt: string | null; accountAt: string | null };
    read: { contact: { lastReadEventId: string; readAt: string } | null; account: { lastReadEventId: string; readAt: string } | null };
  } | null;
  activities?: Activity[];
}
interface ContactDetail extends Contact {
  platformUserId: string;
  followersCount: number | null;
  verified: boolean | null;
  blocked: boolean;
  muted: boolean;
  avatarUrl: string | null;
  timeline: Activity[];
}

const send = (delivery: object, envelopeId?: string) => publisher.delivery(delivery, envelopeId);
const handled = (envelopeId: string, times = 1) => handledMessages.wait(envelopeId, times);
/** Publishes a delivery and waits until the service has handled it. */
async function deliver(delivery: object): Promise<string> {
  const id = await send(delivery);
  await handled(id);
  return id;
}

async function configure(account: string, body: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const { status, body: answer } = await api.put(`/v1/partner-configs/${account}`, body);
  expect([200, 201]).toContain(status);
  return answer;
}

async function tickets(query: string): Promise<Ticket[]> {
  const { status, body } = await api.get<{ items: Ticket[] }>(`/v1/tickets?${query}`);
  expect(status).toBe(200);
  return body.items;
}

async function ticket(id: string): Promise<Ticket & { activities: Activity[] }> {
  const { status, body } = await api.get<Ticket & { activities: Activity[] }>(`/v1/tickets/${id}`);
  expect(status).toBe(200);
  return body;
}

/** The account's only ticket, with its timeline. */
async function onlyTicket(account: string): Promise<Ticket & { activities: Activity[] }> {
  const items = await tickets(`accountId=${account}`);
  expect(items).toHaveLength(1);
  return ticket(items[0]!.id);
}

async function contact(account: string, screenName: string): Promise<ContactDetail> {
  const { body } = await api.get<{ items: ContactDetail[] }>(`/v1/contacts?accountId=${account}&screenName=${screenName}`);
  expect(body.items).toHaveLength(1);
  const { status, body: detail } = await api.get<ContactDetail>(`/v1/contacts/${body.items[0]!.id}`);
  expect(status).toBe(200);
  return detail;
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(sql, params);
  return Number(rows[0]!.n);
}

const ANA = { id: '3001969357', screenName: 'ana', name: 'Ana Lima' };
const BOB = { id: '3001969358', screenName: 'bob', name: 'Bob Stone' };
const CID = { id: '3001969359', screenName: 'cid', name: 'Cid Moreau' };
const at = (iso: string) => Date.parse(iso);
const texts = (activities: Activity[]) => activities.map((a) => a.text);

let eventSeq = 500_000;
const nextEventId = () => String((eventSeq += 1));

/** A delivery of DMs from customers to `account`, with the customers' user objects. */
function dms(account: string, specs: { from: string; text: string; at?: number }[], users: { id: string; screenName: string; name: string }[]) {
  return dmDelivery(
    account,
    specs.map((spec) => dmEvent({ id: nextEventId(), to: account, ...spec })),
    users.map((u) => userObject(u.id, u.screenName, u.name)),
  );
}

// ---------------------------------------------------------------------------------------

describe('received DMs', () => {
  it('open a ticket with the DM text and the sender as contact, queue, folder and SLA from the partner configuration', async () => {
    const account = newAccount();
    await configure(account, { sla: { firstResponseMinutes: 15, resolutionMinutes: 120 }, routing: { defaultQueue: 'dms', defaultFolder: 'new' } });
    const when = at('2026-03-01T12:00:00.000Z');
    const delivery = dms(account, [{ from: ANA.id, text: 'Where is my order 42?', at: when }], [ANA]);
    await deliver(delivery);

    const [item, ...rest] = await tickets(`accountId=${account}`);
    expect(rest).toEqual([]);
    expect(item).toMatchObject({
      accountId: account,
      status: 'open',
      channel: 'dm',
      queue: 'dms',
      folder: 'new',
      routingRule: null,
      contact: { screenName: 'ana', name: 'Ana Lima' },
      subject: 'Where is my order 42?',
      lastActivityAt: new Date(when).toISOString(),
      conversationState: { typing: { contactAt: null, accountAt: null }, read: { contact: null, account: null } },
    });
    expect(Date.parse(item!.sla.firstResponseDueAt) - Date.parse(item!.createdAt)).toBe(15 * 60_000);
    expect(Date.parse(item!.sla.resolutionDueAt) - Date.parse(item!.createdAt)).toBe(120 * 60_000);

    const detail = await ticket(item!.id);
    expect(detail.activities).toEqual([
      {
        id: expect.any(String),
        ticketId: item!.id,
        kind: 'dm_received',
        direction: 'inbound',
        text: 'Where is my order 42?',
        platformEventId: (delivery.direct_message_events as { id: string }[])[0]!.id,
        occurredAt: new Date(when).toISOString(),
        deleted: false,
        author: { id: item!.contact.id, screenName: 'ana', name: 'Ana Lima' },
        attachments: [],
        status: null,
        failure: null,
        by: null,
        byName: null,
        data: null,
        source: { kind: 'webhook', query: null },
        editedAt: null,
        edits: [],
      },
    ]);
    expect(detail.order).toBeNull();
    expect(detail.sla.firstRespondedAt).toBeNull();
  });

  it('are routed by the first matching rule: kind, keyword, sender', async () => {
    const account = newAccount();
    await configure(account, {
      routing: {
        rules: [
          { name: 'vip', when: { senders: ['@cid'] }, queue: 'vip', folder: 'inbox' },
          { name: 'refunds', when: { kinds: ['dm_received'], keywords: ['refund'] }, queue: 'billing', folder: 'refunds' },
        ],
      },
    });
    await deliver(dms(account, [{ from: ANA.id, text: 'I want a Refund' }, { from: BOB.id, text: 'hello' }, { from: CID.id, text: 'refund too' }], [ANA, BOB, CID]));
    const items = await tickets(`accountId=${account}`);
    expect(items.map((t) => [t.contact.screenName, t.queue, t.folder, t.routingRule]).sort()).toEqual([
      ['ana', 'billing', 'refunds', 'refunds'],
      ['bob', 'social', 'inbox', null],
      ['cid', 'vip', 'inbox', 'vip'],
    ]);
  });

  it('append to the open ticket of the conversation, oldest first whatever the arrival order; the newest profile wins', async () => {
    const account = newAccount();
    await configure(account);
    const t0 = at('2026-03-01T12:00:00.000Z');
    await deliver(dms(account, [{ from: ANA.id, text: 'second: any news?', at: t0 + 60_000 }], [ANA]));
    await deliver(dms(account, [{ from: ANA.id, text: 'third: hello??', at: t0 + 120_000 }], [{ ...ANA, name: 'Ana L.' }]));
    await deliver(dms(account, [{ from: ANA.id, text: 'first: my parcel is late', at: t0 }], [{ ...ANA, name: 'Ana (old name)' }]));

    const detail = await onlyTicket(account);
    expect(texts(detail.activities)).toEqual(['first: my parcel is late', 'second: any news?', 'third: hello??']);
    expect(detail.subject).toBe('first: my parcel is late');
    expect(detail.lastActivityAt).toBe(new Date(t0 + 120_000).toISOString());
    expect(detail.contact).toMatchObject({ screenName: 'ana', name: 'Ana L.' });
  });

  it('are recorded once when the envelope is redelivered, or the same event comes in another envelope', async () => {
    const account = newAccount();
    await configure(account);
    const delivery = dms(account, [{ from: BOB.id, text: 'refund please' }], [BOB]);
    const envelopeId = await send(delivery);
    await send(delivery, envelopeId);
    const otherEnvelope = await send(delivery);
    await handled(envelopeId, 2);
    await handled(otherEnvelope);
    expect((await onlyTicket(account)).activities).toHaveLength(1);
    expect(await count('SELECT count(*) AS n FROM activities WHERE account_id = $1', [account])).toBe(1);
    expect(await count('SELECT count(*) AS n FROM contacts WHERE account_id = $1', [account])).toBe(1);
  });

  it('keep one ticket per conversation under concurrent, duplicated deliveries', async () => {
    const account = newAccount();
    await configure(account);
    const deliveries = Array.from({ length: 20 }, (_, i) => dms(account, [{ from: ANA.id, text: `message ${i}`, at: at('2026-03-03T00:00:00Z') + i * 1000 }], [ANA]));
    const envelopeIds = await Promise.all([...deliveries, ...deliveries].map((delivery) => send(delivery)));
    for (const id of envelopeIds) await handled(id);
    const detail = await onlyTicket(account);
    expect(texts(detail.activities)).toEqual(Array.from({ length: 20 }, (_, i) => `message ${i}`));
    expect(detail.subject).toBe('message 0');
  });

  it('with media keep the attachment', async () => {
    const account = newAccount();
    await configure(account);
    await deliver(directMessageReceived({ account, customer: ANA, text: 'the box arrived like this', media: { url: 'https://img.example/box.jpg' } }));
    expect((await onlyTicket(account)).activities[0]!.attachments).toEqual([{ type: 'photo', url: 'https://img.example/box.jpg', mediaId: expect.any(String) }]);
  });

  it('reopen a resolved ticket within the window, and start a new one after it', async () => {
    const account = newAccount();
    await configure(account, { policy: { reopenWindowMinutes: 60 } });
    await deliver(directMessageReceived({ account, customer: ANA, text: 'first problem', createdAt: at('2026-04-01T10:00:00Z') }));
    const first = (await tickets(`accountId=${account}`))[0]!;
    await pool.query(`UPDATE tickets SET status = 'resolved', resolved_at = $2 WHERE id = $1`, [first.id, '2026-04-01T11:00:00Z']);

    await deliver(directMessageReceived({ account, customer: ANA, text: 'one more thing', createdAt: at('2026-04-01T11:30:00Z') }));
    expect(await tickets(`accountId=${account}`)).toEqual([expect.objectContaining({ id: first.id, status: 'open' })]);

    await pool.query(`UPDATE tickets SET status = 'resolved', resolved_at = $2 WHERE id = $1`, [first.id, '2026-04-01T12:00:00Z']);
    await deliver(directMessageReceived({ account, customer: ANA, text: 'a new problem', createdAt: at('2026-04-01T13:30:00Z') }));
    const items = await tickets(`accountId=${account}`);
    expect(items.map((t) => [t.subject, t.status])).toEqual([
      ['a new problem', 'open'],
      ['first problem', 'resolved'],
    ]);
  });
});

describe("the account's own DMs", () => {
  it('become outbound entries on the conversation\'s ticket, never a new ticket; sent before the ticket existed, they join it when it opens', async () => {
    const account = newAccount();
    await configure(account);
    const t0 = at('2026-05-01T09:00:00Z');
    await deliver(directMessageSent({ account, customer: ANA, text: 'Hi Ana, your parcel is delayed', createdAt: t0 }));
    expect(await tickets(`accountId=${account}`)).toEqual([]);

    await deliver(directMessageReceived({ account, customer: ANA, text: 'why?', createdAt: t0 + 60_000 }));
    await deliver(directMessageSent({ account, customer: ANA, text: 'weather', createdAt: t0 + 120_000 }));
    const detail = await onlyTicket(account);
    expect(detail.activities.map((a) => [a.direction, a.text])).toEqual([
      ['outbound', 'Hi Ana, your parcel is delayed'],
      ['inbound', 'why?'],
      ['outbound', 'weather'],
    ]);
    expect(detail.subject).toBe('why?');
    expect(detail.activities[0]!.author).toBeNull();
  });

  it('a reply this system sent and its echo are one activity, whichever is recorded first', async () => {
    const account = newAccount();
    await configure(account);
    await deliver(directMessageReceived({ account, customer: ANA, text: 'help' }));
    const { id: ticketId, contact: ticketContact } = (await tickets(`accountId=${account}`))[0]!;
    const conversationKey = `dm:${account}:${ANA.id}`;
    const pending = () =>
      store().transaction((tx) =>
        tx.outbound.recordPending({ accountId: account, ticketId, kind: 'dm_sent', text: 'on it', contactId: ticketContact.id, conversationKey, parentPostId: null, actor: 'crm', attachments: [] }, new Date()),
      );

    // Sent, then the echo arrives.
    const first = await pending();
    const firstId = nextEventId();
    await store().transaction((tx) => tx.outbound.markSent(first, firstId));
    await deliver(directMessageSent({ account, customer: ANA, text: 'on it', eventId: firstId }));

    // The echo arrives before the send is marked sent.
    const second = await pending();
    const secondId = nextEventId();
    await deliver(directMessageSent({ account, customer: ANA, text: 'on it', eventId: secondId }));
    await store().transaction((tx) => tx.outbound.markSent(second, secondId));

    const activities = (await ticket(ticketId)).activities;
    expect(activities.filter((a) => a.direction === 'outbound').map((a) => a.platformEventId).sort()).toEqual([firstId, secondId].sort());
    expect(activities.filter((a) => a.direction === 'outbound').map((a) => a.id).sort()).toEqual([first, second].sort());
  });
});

describe('typing indicators and read receipts', () => {
  it('show on the open DM ticket as current state (the newest wins), not as timeline entries', async () => {
    const account = newAccount();
    await configure(account);
    const dm = directMessageReceived({ account, customer: ANA, text: 'hello?' });
    await deliver(dm);
    await deliver(typingIndicated({ account, sender: ANA, recipient: account, createdAt: at('2026-05-02T10:00:05Z') }));
    await deliver(typingIndicated({ account, sender: ANA, recipient: account, createdAt: at('2026-05-02T10:00:01Z') }));
    await deliver(typingIndicated({ account, sender: account, recipient: ANA, createdAt: at('2026-05-02T10:00:03Z') }));
    await deliver(markedRead({ account, sender: ANA, recipient: account, lastReadEventId: '900', createdAt: at('2026-05-02T10:01:00Z') }));
    await deliver(markedRead({ account, sender: ANA, recipient: account, lastReadEventId: '800', createdAt: at('2026-05-02T10:00:30Z') }));
    await deliver(markedRead({ account, sender: account, recipient: ANA, lastReadEventId: dm.direct_message_events[0]!.id, createdAt: at('2026-05-02T10:02:00Z') }));

    const detail = await onlyTicket(account);
    expect(detail.conversationState).toEqual({
      typing: { contactAt: '2026-05-02T10:00:05.000Z', accountAt: '2026-05-02T10:00:03.000Z' },
      read: {
        contact: { lastReadEventId: '900', readAt: '2026-05-02T10:01:00.000Z' },
        account: { lastReadEventId: dm.direct_message_events[0]!.id, readAt: '2026-05-02T10:02:00.000Z' },
      },
    });
    expect(detail.activities.map((a) => a.kind)).toEqual(['dm_received']);
  });
});

describe('public posts', () => {
  it('a mention opens a public ticket with the author as contact (followers, verified); a blocked author\'s mention goes to the timeline', async () => {
    const account = newAccount();
    await configure(account, { routing: { rules: [{ name: 'es', when: { kinds: ['mention'], languages: ['es'] }, queue: 'social-es', folder: 'inbox' }] } });
    await deliver(postCreated({ account, author: { ...ANA, followersCount: 321, verified: true }, text: '@acme ¿dónde está mi pedido?', lang: 'es', mentions: [account] }));
    await deliver(postCreated({ account, author: BOB, text: '@acme spam spam', mentions: [account], userHasBlocked: 'true' }));

    const detail = await onlyTicket(account);
    expect(detail).toMatchObject({ channel: 'public', queue: 'social-es', routingRule: 'es', subject: '@acme ¿dónde está mi pedido?', contact: { screenName: 'ana' }, conversationState: null });
    expect(detail.activities.map((a) => [a.kind, a.direction, a.author?.screenName])).toEqual([['mention', 'inbound', 'ana']]);
    expect(await contact(account, 'ana')).toMatchObject({ platformUserId: ANA.id, followersCount: 321, verified: true, name: 'Ana Lima' });
    expect((await contact(account, 'bob')).timeline.map((a) => [a.kind, a.ticketId])).toEqual([['mention', null]]);
  });

  it("replies thread by the reply chain: the account's reply is outbound on the ticket, others' replies join it attributed to their own authors", async () => {
    const account = newAccount();
    await configure(account);
    const t0 = at('2026-06-01T08:00:00Z');
    const mention = postCreated({ account, author: ANA, text: '@acme my order is lost', mentions: [account], createdAt: t0 });
    const mentionId = (mention.tweet_create_events as { id_str: string }[])[0]!.id_str;
    await deliver(mention);
    const ourReply = postCreated({ account, author: account, text: '@ana sorry, DM us', inReplyTo: { id: mentionId, author: ANA }, createdAt: t0 + 60_000 });
    const ourReplyId = (ourReply.tweet_create_events as { id_str: string }[])[0]!.id_str;
    await deliver(ourReply);
    await deliver(postCreated({ account, author: BOB, text: '@acme same here!', inReplyTo: { id: mentionId, author: ANA }, mentions: [account], createdAt: t0 + 120_000 }));
    await deliver(postCreated({ account, author: ANA, text: 'ok sent', inReplyTo: { id: ourReplyId, author: account }, createdAt: t0 + 180_000 }));

    const detail = await onlyTicket(account);
    expect(detail.contact.screenName).toBe('ana');
    expect(detail.activities.map((a) => [a.kind, a.direction, a.author?.screenName ?? null, a.text])).toEqual([
      ['mention', 'inbound', 'ana', '@acme my order is lost'],
      ['reply_by_account', 'outbound', null, '@ana sorry, DM us'],
      ['mention', 'inbound', 'bob', '@acme same here!'],
      ['reply_to_account', 'inbound', 'ana', 'ok sent'],
    ]);
  });

  it("a reply to the account's post that no ticket holds opens one; the account's own posts never do", async () => {
    const account = newAccount();
    await configure(account);
    const post = postCreated({ account, author: account, text: 'Summer sale starts today' });
    const postId = (post.tweet_create_events as { id_str: string }[])[0]!.id_str;
    await deliver(post);
    expect(await tickets(`accountId=${account}`)).toEqual([]);
    await deliver(postCreated({ account, author: CID, text: 'is shipping free?', inReplyTo: { id: postId, author: account } }));
    const detail = await onlyTicket(account);
    expect(detail).toMatchObject({ channel: 'public', subject: 'is shipping free?', contact: { screenName: 'cid' } });
    expect(detail.activities.map((a) => a.kind)).toEqual(['reply_to_account']);
  });

  it("a reply that arrives before its parent folds into the parent's ticket once the parent turns up", async () => {
    const account = newAccount();
    await configure(account);
    const t0 = at('2026-06-02T08:00:00Z');
    const mention = postCreated({ account, author: ANA, text: '@acme broken zipper', mentions: [account], createdAt: t0 });
    const mentionId = (mention.tweet_create_events as { id_str: string }[])[0]!.id_str;
    const ourReply = postCreated({ account, author: account, text: '@ana which size?', inReplyTo: { id: mentionId, author: ANA }, createdAt: t0 + 60_000 });
    const ourReplyId = (ourReply.tweet_create_events as { id_str: string }[])[0]!.id_str;
    const answer = postCreated({ account, author: ANA, text: 'size M', inReplyTo: { id: ourReplyId, author: account }, createdAt: t0 + 120_000 });

    await deliver(answer); // opens a ticket of its own: its parent is unknown
    await deliver(ourReply); // no ticket holds the mention yet: on no ticket
    expect(await tickets(`accountId=${account}`)).toHaveLength(1);
    await deliver(mention); // opens the thread's ticket, which takes in the reply and the answer's ticket

    const detail = await onlyTicket(account);
    expect(detail).toMatchObject({ subject: '@acme broken zipper', contact: { screenName: 'ana' } });
    expect(texts(detail.activities)).toEqual(['@acme broken zipper', '@ana which size?', 'size M']);
  });

  it("a quote of the account's post opens a ticket; the account's quote of a customer's post is outbound on the ticket holding it", async () => {
    const account = newAccount();
    await configure(account);
    const quote = postCreated({ account, author: BOB, text: 'this product broke in a day', quoteOf: { id: '7001', author: account, text: 'new product!' } });
    const quoteId = (quote.tweet_create_events as { id_str: string }[])[0]!.id_str;
    await deliver(quote);
    await deliver(postCreated({ account, author: account, text: 'We are sorry, Bob', quoteOf: { id: quoteId, author: BOB, text: 'this product broke in a day' } }));
    const detail = await onlyTicket(account);
    expect(detail.activities.map((a) => [a.kind, a.direction])).toEqual([
      ['quote_of_account', 'inbound'],
      ['quote_by_account', 'outbound'],
    ]);
  });

  it('a deleted post stays, marked deleted, whether the delete comes after it or before', async () => {
    const account = newAccount();
    await configure(account);
    const first = postCreated({ account, author: ANA, text: '@acme rude words', mentions: [account] });
    const firstId = (first.tweet_create_events as { id_str: string }[])[0]!.id_str;
    await deliver(first);
    await deliver(postDeleted({ account, postId: firstId, author: ANA }));
    const second = postCreated({ account, author: BOB, text: '@acme more rude words', mentions: [account] });
    const secondId = (second.tweet_create_events as { id_str: string }[])[0]!.id_str;
    await deliver(postDeleted({ account, postId: secondId, author: BOB }));
    await deliver(second);

    const items = await tickets(`accountId=${account}`);
    expect(items).toHaveLength(2);
    for (const item of items) {
      const [activity] = (await ticket(item.id)).activities;
      expect(activity).toMatchObject({ deleted: true });
    }
  });
});

describe('reactions and relations', () => {
  it("reposts, likes, follows and unfollows of the account go on the contact's timeline, not into tickets", async () => {
    const account = newAccount();
    await configure(account);
    const t0 = at('2026-07-01T10:00:00Z');
    await deliver(postCreated({ account, author: ANA, text: '', repostOf: { id: '8001', author: account, text: 'big news' }, createdAt: t0 }));
    await deliver(postLiked({ account, liker: ANA, post: { id: '8001', author: account, text: 'big news' }, createdAt: t0 + 1000 }));
    await deliver(userRelation('follow_events', { account, type: 'follow', source: ANA, target: account, createdAt: t0 + 2000 }));
    await deliver(userRelation('follow_events', { account, type: 'unfollow', source: ANA, target: account, createdAt: t0 + 3000 }));
    expect(await tickets(`accountId=${account}`)).toEqual([]);
    const ana = await contact(account, 'ana');
    expect(ana.timeline.map((a) => [a.kind, a.direction, a.ticketId, a.text])).toEqual([
      ['repost_of_account', 'event', null, 'big news'],
      ['like_of_account', 'event', null, 'big news'],
      ['follow_of_account', 'event', null, null],
      ['unfollow_of_account', 'event', null, null],
    ]);
  });

  it("the account's own reposts, likes and follows go on the contact's timeline", async () => {
    const account = newAccount();
    await configure(account);
    const t0 = at('2026-07-01T12:00:00Z');
    await deliver(postCreated({ account, author: account, text: '', repostOf: { id: '8101', author: BOB, text: 'love this shop' }, createdAt: t0 }));
    await deliver(postLiked({ account, liker: account, post: { id: '8102', author: BOB, text: 'arrived!' }, createdAt: t0 + 1000 }));
    await deliver(userRelation('follow_events', { account, type: 'follow', source: account, target: BOB, createdAt: t0 + 2000 }));
    await deliver(userRelation('follow_events', { account, type: 'unfollow', source: account, target: BOB, createdAt: t0 + 3000 }));
    expect(await tickets(`accountId=${account}`)).toEqual([]);
    expect((await contact(account, 'bob')).timeline.map((a) => [a.kind, a.ticketId])).toEqual([
      ['repost_by_account', null],
      ['like_by_account', null],
      ['follow_by_account', null],
      ['unfollow_by_account', null],
    ]);
  });

  it('open tickets instead when the policy says so, and leave no trace when it says ignore', async () => {
    const account = newAccount();
    await configure(account, { policy: { likeOfAccount: 'ticket', followOfAccount: 'ignore' } });
    await deliver(postLiked({ account, liker: CID, post: { id: '8201', author: account, text: 'our new store' } }));
    await deliver(userRelation('follow_events', { account, type: 'follow', source: CID, target: account }));
    const detail = await onlyTicket(account);
    expect(detail).toMatchObject({ channel: 'public', subject: 'our new store', contact: { screenName: 'cid' } });
    expect(detail.activities.map((a) => a.kind)).toEqual(['like_of_account']);
    expect((await contact(account, 'cid')).timeline.map((a) => a.kind)).toEqual(['like_of_account']);
  });

  it('blocks and mutes by the account are recorded on the contact: flags (the newest event wins) and timeline entries', async () => {
    const account = newAccount();
    await configure(account);
    const t0 = at('2026-07-02T10:00:00Z');
    await deliver(userRelation('block_events', { account, type: 'block', source: account, target: BOB, createdAt: t0 + 2000 }));
    await deliver(userRelation('block_events', { account, type: 'unblock', source: account, target: BOB, createdAt: t0 + 1000 })); // older, arrives later
    await deliver(userRelation('mute_events', { account, type: 'mute', source: account, target: BOB, createdAt: t0 }));
    await deliver(userRelation('mute_events', { account, type: 'unmute', source: account, target: BOB, createdAt: t0 + 3000 }));
    const bob = await contact(account, 'bob');
    expect(bob).toMatchObject({ blocked: true, muted: false });
    expect(bob.timeline.map((a) => a.kind)).toEqual(['mute', 'unblock', 'block', 'unmute']);
  });
});

describe('revoke', () => {
  it('records the revoke from its delivery and publishes no account.revoked (auth publishes it)', async () => {
    const account = newAccount();
    const connection = await amqplib.connect(vhost.url);
    const channel = await connection.createChannel();
    const { queue } = await channel.assertQueue('', { exclusive: true });
    await channel.bindQueue(queue, Exchanges.accountEvents, 'account.revoked');
    try {
      const revoke = appRevoked({ account, createdAt: at('2026-07-03T10:00:00Z') });
      const envelopeId = await send(revoke);
      await send(revoke, envelopeId);
      await handled(envelopeId, 2);

      const { body } = await api.get(`/v1/accounts/${account}`);
      expect(body).toMatchObject({ accountId: account, status: 'revoked', statusChangedAt: '2026-07-03T10:00:00.000Z' });
      expect(await channel.get(queue, { noAck: true })).toBe(false);
    } finally {
      await connection.close();
    }
  });

  it("mirrors auth's account.revoked: the account is revoked as of its time", async () => {
    const account = newAccount();
    const ticketingKeys = SYSTEM_TOPOLOGY.queues.find((q) => q.name === Queues.ticketingAccountEvents)!.bindings!.map((b) => b.routingKey);
    expect(ticketingKeys).toContain(ACCOUNT_REVOKED_KEY);
    const revoked = await publisher.envelope(Exchanges.accountEvents, ACCOUNT_REVOKED_KEY, AccountRevoked, {
      accountId: account,
      appId: '24081880',
      revokedAt: '2026-07-04T10:00:00.000Z',
      detectedBy: 'webhook',
    });
    await handled(revoked.id);
    expect((await api.get(`/v1/accounts/${account}`)).body).toMatchObject({ accountId: account, status: 'revoked', statusChangedAt: '2026-07-04T10:00:00.000Z', consumerKey: null, accessToken: null });
  });
});

describe('the platform fixtures, end to end', () => {
  it('become the right tickets, state, timeline entries and contacts', async () => {
    for (const account of ['4337869213', '3001969357', '2975699229', '930524282358325248', '2244994945']) await configure(account);

    // The official DM, as published (users misplaced in `apps`) and as real deliveries come: one ticket, one activity.
    await deliver(fixture('direct_message_events.official.json'));
    await deliver(repairedOfficialDm());
    const dm = await onlyTicket('4337869213');
    expect(dm).toMatchObject({ channel: 'dm', subject: 'Hello World!', contact: { screenName: 'furiouscamper', name: 'Jordan Brinks' } });
    expect(dm.activities.map((a) => [a.kind, a.platformEventId])).toEqual([['dm_received', '954491830116155396']]);

    // Typing and read receipts, delivered for an account they involve.
    await deliver(directMessageReceived({ account: '3001969357', customer: { id: '3284025577', screenName: 'bogusbogart' }, text: 'hi', createdAt: 1518127180000 }));
    await deliver({ ...fixture('direct_message_indicate_typing_events.official.json'), for_user_id: '3001969357' });
    await deliver({ ...fixture('direct_message_mark_read_events.official.json'), for_user_id: '3001969357' });
    expect((await onlyTicket('3001969357')).conversationState).toEqual({
      typing: { contactAt: new Date(1518127183443).toISOString(), accountAt: null },
      read: { contact: null, account: null },
    });
    expect(await count(`SELECT count(*) AS n FROM dm_conversations WHERE account_id = '3001969357' AND contact_read_event_id = '963085315333238788'`, [])).toBe(1);

    // Block, unblock, mute, unmute: all at the same moment; the event id settles ties the same way everywhere.
    for (const name of ['block_events.block.SYNTHESIZED.json', 'mute_events.mute.SYNTHESIZED.json', 'block_events.unblock.SYNTHESIZED.json', 'mute_events.unmute.SYNTHESIZED.json']) {
      await deliver(fixture(name));
    }
    const target = await contact('2975699229', 'pennbrooke1');
    expect(target).toMatchObject({ blocked: false, muted: false, followersCount: 1, name: 'pennbrooke' });
    expect(target.timeline.map((a) => a.kind).sort()).toEqual(['block', 'mute', 'unblock', 'unmute']);

    // The account's own quote: outbound, no ticket; a like of it from the template: the liker's timeline.
    const quote = fixture('tweet_create_events.quote.tweet_object_only.official.json');
    await deliver({ for_user_id: '2244994945', tweet_create_events: [quote] });
    const liker = fixture<{ block_events: { target: Record<string, unknown> }[] }>('block_events.block.SYNTHESIZED.json').block_events[0]!.target;
    await deliver(filledTemplate('favorite_events.official-template.txt', { tweet: quote, user: liker }));
    expect(await tickets('accountId=2244994945')).toEqual([]);
    expect((await contact('2244994945', 'pennbrooke1')).timeline.map((a) => [a.kind, a.text?.slice(0, 11)])).toEqual([['like_of_account', 'As planned,']]);

    // A delete of a post never seen: remembered, so the post is stored deleted if it turns up.
    await deliver(fixture('tweet_delete_events.official.json'));
    expect(await count(`SELECT count(*) AS n FROM deleted_posts WHERE post_id = '1045405559317569537'`, [])).toBe(1);

    // The revoke: no configuration needed.
    await deliver(fixture('user_event.revoke.official.json'));
    expect((await api.get('/v1/accounts/63046977')).body).toMatchObject({ status: 'revoked', statusChangedAt: '2018-05-24T09:48:12.000Z' });
  });
});

describe('deliveries for an account without a partner configuration', () => {
  it('are held (listed and counted), and processed in order when the configuration appears', async () => {
    const account = newAccount();
    const t0 = at('2026-08-01T10:00:00Z');
    const first = directMessageReceived({ account, customer: ANA, text: 'anyone there?', createdAt: t0 });
    const firstId = await deliver(first);
    await send(first, firstId); // redelivered: held once
    await handled(firstId, 2);
    await deliver(directMessageReceived({ account, customer: ANA, text: 'hello??', createdAt: t0 + 1000 }));
    await deliver(postCreated({ account, author: BOB, text: '@acme hi', mentions: [account], createdAt: t0 + 2000 }));
    expect(await tickets(`accountId=${account}`)).toEqual([]);

    const { body: held } = await api.get<{ accounts: unknown[]; items: { kind: string; accountId: string; envelopeId: string }[] }>(`/v1/held-deliveries?accountId=${account}`);
    expect(held.accounts).toEqual([{ accountId: account, deliveries: 3, events: 3, oldestHeldAt: expect.any(String) }]);
    expect(held.items.map((item) => item.kind)).toEqual(['direct_message_events', 'direct_message_events', 'tweet_create_events']);
    expect(held.items[0]!.envelopeId).toBe(firstId);

    await configure(account, { routing: { defaultQueue: 'late' } });
    await waitFor(async () => (await tickets(`accountId=${account}`)).length === 2, { what: 'the held deliveries released' });
    const items = await tickets(`accountId=${account}`);
    expect(items.map((t) => [t.channel, t.queue, t.subject]).sort()).toEqual([
      ['dm', 'late', 'anyone there?'],
      ['public', 'late', '@acme hi'],
    ]);
    const dm = await ticket(items.find((t) => t.channel === 'dm')!.id);
    expect(texts(dm.activities)).toEqual(['anyone there?', 'hello??']);
    expect((await api.get<{ accounts: unknown[]; items: unknown[] }>(`/v1/held-deliveries?accountId=${account}`)).body).toEqual({ accounts: [], expired: [], items: [], nextCursor: null });

    // Once configured, nothing more is held.
    await deliver(directMessageReceived({ account, customer: ANA, text: 'thanks', createdAt: t0 + 3000 }));
    expect(await count('SELECT count(*) AS n FROM held_deliveries WHERE account_id = $1', [account])).toBe(0);
  });

  it('one that can no longer be recorded stays held and does not block the others', async () => {
    const account = newAccount();
    const broken = { envName: 'test', kind: 'follow_events', forUserId: account, receivedAt: new Date().toISOString(), bodySha256: 'a'.repeat(64), delivery: { for_user_id: account, follow_events: [{ type: 'poke' }] } };
    await pool.query(
      `INSERT INTO held_deliveries (account_id, envelope_id, correlation_id, kind, event_count, payload) VALUES ($1, $2, 'c', 'follow_events', 1, $3)`,
      [account, `broken-${account}`, broken],
    );
    await deliver(directMessageReceived({ account, customer: ANA, text: 'still here' }));
    await configure(account);
    await waitFor(async () => (await tickets(`accountId=${account}`)).length === 1, { what: 'the good delivery released' });
    const { body } = await api.get<{ items: { envelopeId: string }[] }>(`/v1/held-deliveries?accountId=${account}`);
    expect(body.items.map((item) => item.envelopeId)).toEqual([`broken-${account}`]);
    expect(logEntries(logLines).some((entry) => entry.message === 'a held delivery cannot be recorded; it stays held' && entry.envelopeId === `broken-${account}`)).toBe(true);
  });

  it('a stopped pipeline starts no release: the deliveries stay held for the next start', async () => {
    const account = newAccount();
    await deliver(directMessageReceived({ account, customer: ANA, text: 'anyone?' }));
    const stoppedLog = capturingLogger('stopped');
    const stopped = new HeldRelease({ store: store(), logger: stoppedLog.logger });
    await stopped.stop();
    // Configured straight in the database: no PUT, so no release is started by the API.
    await store().transaction((tx) => tx.partnerConfigs.save(withDefaults(account, {}, { queue: 'social', folder: 'inbox', firstResponseMinutes: 60, resolutionMinutes: 1440 })));
    expect(await stopped.release(account)).toBe(0);
    await stopped.releaseReady();
    expect(stoppedLog.lines).toEqual([]);
    await service.heldRelease.release(account);
    expect(await count('SELECT count(*) AS n FROM held_deliveries WHERE account_id = $1', [account])).toBe(0);
    expect(await tickets(`accountId=${account}`)).toHaveLength(1);
  });

  it('a revoke is not held: it needs no configuration', async () => {
    const account = newAccount();
    await deliver(appRevoked({ account }));
    expect((await api.get(`/v1/accounts/${account}`)).body).toMatchObject({ status: 'revoked' });
    expect(await count('SELECT count(*) AS n FROM held_deliveries WHERE account_id = $1', [account])).toBe(0);
  });
});

describe('deliveries it can never use', () => {
  const deadLetter = async (envelopeId: string) =>
    waitFor(async () => (await listActivityDeadLetters(vhost.url)).find((letter) => letter.messageId === envelopeId), { what: `${envelopeId} in the DLQ` });

  it('go to the DLQ at once with the reason; the consumer goes on with the next delivery', async () => {
    const account = newAccount();
    await configure(account);
    const event = dmEvent({ id: nextEventId(), from: ANA.id, to: account, text: 'no sender' }) as { message_create: Record<string, unknown> };
    delete event.message_create.sender_id;
    const missing = await send(dmDelivery(account, [event as unknown as Record<string, unknown>], [userObject(ANA.id, 'ana', 'Ana')]));
    const unknownKind = await send(userRelation('follow_events', { account, type: 'poke', source: ANA, target: account }));

    expect((await deadLetter(missing))!.reason).toMatch(/PermanentFailure: .*direct_message_events\[0\]\.message_create\.sender_id is missing/);
    const dead = (await deadLetter(unknownKind))!;
    expect(dead.reason).toMatch(/PermanentFailure: invalid follow_events delivery: follow_events\[0\]\.type 'poke' is not a follow event type ticketing knows/);
    expect(dead.attempts).toBe(1);

    await deliver(directMessageReceived({ account, customer: ANA, text: 'still works' }));
    expect((await onlyTicket(account)).subject).toBe('still works');
    expect(logEntries(logLines).some((entry) => entry.message === 'message handling crashed; it will be redelivered')).toBe(false);
  });
});

describe('partner configuration API', () => {
  it('GET answers 404 until a PUT creates it (201), then shows it with defaults; PUT replaces it (200)', async () => {
    const account = newAccount();
    expect((await api.get(`/v1/partner-configs/${account}`)).status).toBe(404);
    const created = await api.put(`/v1/partner-configs/${account}`, { pageName: 'Acme Support', routing: { rules: [{ name: 'r', queue: 'q', folder: 'f' }] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      pageId: account,
      pageName: 'Acme Support',
      consumerKey: null,
      accessToken: null,
      sla: { firstResponseMinutes: 60, resolutionMinutes: 1440 },
      routing: { defaultQueue: 'social', defaultFolder: 'inbox', rules: [{ name: 'r', when: {}, queue: 'q', folder: 'f' }] },
      policy: { dmReceived: 'ticket', likeOfAccount: 'timeline', reopenWindowMinutes: 10080 },
      searchQueries: [],
      merge: { enabled: false, windowMinutes: 60 },
    });
    const replaced = await api.put(`/v1/partner-configs/${account}`, { searchQueries: ['acme refund'] });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ pageName: null, searchQueries: ['acme refund'], routing: { rules: [] } });
    expect((await api.get(`/v1/partner-configs/${account}`)).body).toEqual(replaced.body);
    const { body: list } = await api.get<{ items: { pageId: string }[] }>('/v1/partner-configs');
    expect(list.items.map((item) => item.pageId)).toContain(account);
  });

  it('shows the credentials auth reported, masked, and takes them back read-only on PUT', async () => {
    const account = newAccount();
    await configure(account);
    const connected = await publisher.envelope(Exchanges.accountEvents, AuthAccountEventKeys.connected, AccountConnected, {
      accountId: account,
      screenName: 'acme',
      envName: 'dev',
      consumerKey: 'ck-0123456789abcdef',
      accessTokenMasked: '4337…tkn9',
      name: 'Acme',
      via: 'oauth',
      connectedAt: new Date().toISOString(),
    });
    await handled(connected.id);
    const { body } = await api.get(`/v1/partner-configs/${account}`);
    expect(body).toMatchObject({ consumerKey: 'ck-0…cdef', accessToken: '4337…tkn9', accountStatus: 'connected' });
    const put = await api.put(`/v1/partner-configs/${account}`, { ...body, consumerKey: 'something else', pageName: 'Renamed' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ consumerKey: 'ck-0…cdef', accessToken: '4337…tkn9', pageName: 'Renamed' });
    expect(JSON.stringify(put.body)).not.toContain('0123456789');
  });

  it('mirrors the account as auth reports it: the newest event wins; a disconnect forgets the masked credentials', async () => {
    const account = newAccount();
    await configure(account);
    const view = { accountId: account, screenName: 'acme', envName: 'dev', consumerKey: 'ck-0123456789abcdef', accessTokenMasked: '4337…tkn9' };
    const publish = async <P>(key: string, contract: Contract<P>, payload: P) => {
      const envelope = await publisher.envelope(Exchanges.accountEvents, key, contract, payload);
      await handled(envelope.id);
    };
    await publish(AuthAccountEventKeys.disconnected, AccountDisconnected, { ...view, reason: 'removed', disconnectedAt: '2026-09-02T10:00:00.000Z' });
    await publish(AuthAccountEventKeys.connected, AccountConnected, { ...view, name: 'Acme', via: 'import', connectedAt: '2026-09-01T10:00:00.000Z' }); // older
    expect((await api.get(`/v1/accounts/${account}`)).body).toEqual({
      accountId: account,
      status: 'disconnected',
      screenName: 'acme',
      consumerKey: null,
      accessToken: null,
      statusChangedAt: '2026-09-02T10:00:00.000Z',
      silence: null,
    });
    await publish(AuthAccountEventKeys.needsReconnect, AccountNeedsReconnect, { ...view, reason: { platformCode: 89, message: 'Invalid or expired token.' }, detectedAt: '2026-09-03T10:00:00.000Z' });
    expect((await api.get(`/v1/partner-configs/${account}`)).body).toMatchObject({ accountStatus: 'needs_reconnect', consumerKey: null });
  });

  // The OpenAPI document's checks come first (`body.`), the configuration's own rules after (JSON pointers): one code.
  it.each([
    [{ sla: { firstResponseMinutes: -5 } }, 'body.sla.firstResponseMinutes must be >= 1'],
    [{ routing: { rules: [{ name: 'x', queue: 'q' }] } }, 'body.routing.rules[0].folder is required'],
    [{ policy: { mention: 'maybe' } }, 'body.policy.mention must be equal to one of the allowed values'],
    [{ unknownPart: true }, 'unknownPart'],
    [[1, 2], 'body must be object'],
    [{ pageId: '1' }, '/pageId 1 does not match the page'],
    [{ sla: { businessHours: { timeZone: 'Mars/Olympus', weekly: { mon: [['09:00', '17:00']] } } } }, '/sla/businessHours/timeZone must be an IANA time zone'],
  ])('PUT %j answers 400 naming the bad field', async (body, message) => {
    const { status, body: answer } = await api.put<{ error: { code: string; message: string } }>(`/v1/partner-configs/${newAccount()}`, body);
    expect(status).toBe(400);
    expect(answer.error.code).toBe('invalid_partner_config');
    expect(answer.error.message).toContain(message);
  });

  it('refuses a page id that is not a platform id', async () => {
    const { status, body } = await api.get<{ error: { code: string; message: string } }>('/v1/partner-configs/acme');
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining('path.pageId must match pattern') });
  });
});

describe('GET /v1/tickets', () => {
  let account: string;
  let created: Ticket[];

  beforeAll(async () => {
    account = newAccount();
    await configure(account);
    for (const [user, text] of [
      [ANA, 'Parcel never arrived'],
      [BOB, 'Wrong size delivered'],
      [CID, 'Invoice question'],
    ] as const) {
      await deliver(dms(account, [{ from: user.id, text }], [user]));
    }
    // A later message of Cid's that is not in any subject, with LIKE wildcards in it.
    await deliver(dms(account, [{ from: CID.id, text: 'my VOUCHER code 100%_off does not work' }], [CID]));
    await pool.query(`UPDATE tickets SET status = 'pending', queue = 'billing', folder = 'refunds' WHERE account_id = $1 AND subject = 'Invoice question'`, [account]);
    created = await tickets(`accountId=${account}`);
  });

  it('lists newest first', () => {
    expect(created.map((t) => t.subject)).toEqual(['Invoice question', 'Wrong size delivered', 'Parcel never arrived']);
  });

  it('filters by account, queue, folder and status', async () => {
    expect((await tickets(`accountId=${account}&queue=billing`)).map((t) => t.subject)).toEqual(['Invoice question']);
    expect((await tickets(`accountId=${account}&folder=inbox`)).map((t) => t.subject)).toEqual(['Wrong size delivered', 'Parcel never arrived']);
    expect((await tickets(`accountId=${account}&status=pending`)).map((t) => t.subject)).toEqual(['Invoice question']);
    expect((await tickets(`accountId=${account}&status=open&queue=social&folder=inbox`)).map((t) => t.subject)).toEqual(['Wrong size delivered', 'Parcel never arrived']);
    expect(await tickets(`accountId=${account}&status=closed`)).toEqual([]);
    expect(await tickets(`accountId=${newAccount()}`)).toEqual([]);
  });

  it("searches the customer's screen name and name", async () => {
    expect((await tickets(`accountId=${account}&q=BOB`)).map((t) => t.subject)).toEqual(['Wrong size delivered']);
    expect((await tickets(`accountId=${account}&q=${encodeURIComponent('cid mor')}`)).map((t) => t.subject)).toEqual(['Invoice question']);
  });

  it('searches subjects and activity texts, case-insensitively, refusing a query without letters or digits', async () => {
    expect((await tickets(`accountId=${account}&q=PARCEL`)).map((t) => t.subject)).toEqual(['Parcel never arrived']);
    expect((await tickets(`accountId=${account}&q=voucher`)).map((t) => t.subject)).toEqual(['Invoice question']);
    expect((await tickets(`accountId=${account}&q=${encodeURIComponent('100%_off')}`)).map((t) => t.subject)).toEqual(['Invoice question']);
    expect((await api.get(`/v1/tickets?accountId=${account}&q=${encodeURIComponent('%')}&status=open`)).status).toBe(400);
  });

  it('pages with an opaque cursor until nextCursor is null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const path: string = `/v1/tickets?accountId=${account}&limit=1${cursor ? `&cursor=${cursor}` : ''}`;
      const { status, body } = await api.get<{ items: Ticket[]; nextCursor: string | null }>(path);
      expect(status).toBe(200);
      expect(body.items).toHaveLength(1);
      seen.push(body.items[0]!.id);
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).toEqual(created.map((t) => t.id));
    expect(pages).toBe(3);
  });

  it('answers 400 naming the parameter for a bad limit, status or cursor', async () => {
    for (const [query, name] of [
      ['limit=0', 'query.limit'],
      ['limit=500', 'query.limit'],
      ['limit=many', 'query.limit'],
      ['status=maybe', 'query.status'],
      ['cursor=garbage!', 'query.cursor'],
      ['accountId=acme', 'query.accountId'],
      // Well-formed, but not a cursor this service made.
      ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ]) {
      const { status, body } = await api.get<{ error: { code: string; message: string } }>(`/v1/tickets?${query}`);
      expect(status).toBe(400);
      expect(body.error).toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining(name!) });
    }
  });
});

describe('API access', () => {
  it('answers 401 without a token or with a wrong one, on every /v1 route', async () => {
    for (const path of ['/v1/tickets', '/v1/tickets/6f1c1f0e-8a4b-4d7e-9f00-0123456789ab', '/v1/partner-configs', '/v1/held-deliveries', '/v1/contacts', '/v1/accounts']) {
      const missing = await api.get<{ error: { code: string } }>(path, null);
      expect(missing.status).toBe(401);
      expect(missing.body.error.code).toBe('unauthorized');
      expect((await api.get(path, 'wrong-token')).status).toBe(401);
    }
    expect((await api.put('/v1/partner-configs/1', {}, null)).status).toBe(401);
    expect((await api.get('/v1/tickets?limit=1', 'another-token')).status).toBe(200);
  });

  it('answers health without a token', async () => {
    expect(await api.get('/health/live', null)).toEqual({ status: 200, body: { status: 'live' } });
    expect(await api.get('/health/ready', null)).toEqual({ status: 200, body: { status: 'ready', checks: { broker: true, database: true } } });
  });

  it('answers 404 for unknown tickets, contacts and accounts, 400 for an id that is not one', async () => {
    for (const [path, status, code] of [
      ['/v1/tickets/6f1c1f0e-8a4b-4d7e-9f00-0123456789ab', 404, 'ticket_not_found'],
      ['/v1/tickets/not-a-uuid', 400, 'invalid_parameter'],
      ['/v1/contacts/6f1c1f0e-8a4b-4d7e-9f00-0123456789ab', 404, 'contact_not_found'],
      [`/v1/accounts/${newAccount()}`, 404, 'account_not_found'],
    ] as const) {
      const answer = await api.get<{ error: { code: string } }>(path);
      expect([answer.status, answer.body.error.code]).toEqual([status, code]);
    }
  });
});
