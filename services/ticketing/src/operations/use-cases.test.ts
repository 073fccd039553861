import pg from 'pg';
import { RawActivity, SocialCommand, type SocialCommandResultPayload } from '@crm/contracts';
import { migrate } from '@crm/db';
import { makeEnvelope, PutBack } from '@crm/messaging';
import { appRevoked, postCreated, postLiked, typingIndicated, userRelation } from '@crm/social-platform-simulator/src/activity-deliveries';
import { directMessageReceived, directMessageSent } from '@crm/social-platform-simulator/src/deliveries';
import { freshDatabase, testLogger, type TestDatabase, testPool } from '@crm/testing';
import type { OutboxRow } from '@crm/messaging';
import { TicketingStore } from '../adapters/db/store';
import { interpretActivity } from '../domain/activity';
import { MIGRATIONS_DIR } from '../service';
import { dmDelivery, dmEvent, rawActivity, userObject } from '../testing/deliveries';
import { AccountUnavailable, InvalidPartnerConfig, InvalidReply, NothingToReplyTo, TicketNotFound } from './errors';
import { mirrorAccountChange } from './mirror-account-event';
import { recordCommandResult, recordUnsendableCommand } from './record-command-result';
import { DeliveryBatches } from './delivery-batches';
import { recordDeliveries, recordDelivery, type DeliveryOutcome } from './record-delivery';
import { HeldRelease } from './release-held';
import { savePartnerConfig } from './save-partner-config';
import { Replies } from './send-reply';

/**
 * The use cases against the real PostgreSQL, without the broker or HTTP: what a delivery, a
 * configuration, a reply or a command result changes in the database.
 */

let db: TestDatabase;
let pool: pg.Pool;
let store: TicketingStore;
const logger = testLogger('ticketing-use-cases');
const DEFAULTS = { queue: 'social', folder: 'inbox', firstResponseMinutes: 60, resolutionMinutes: 1440 };

let nextAccount = 30_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
const newAccount = () => String((nextAccount += 1));
let eventSeq = 900_000;
const nextEventId = () => String((eventSeq += 1));
const ANA = { id: '3001969357', screenName: 'ana', name: 'Ana Lima' };
const at = (iso: string) => Date.parse(iso);

beforeAll(async () => {
  db = await freshDatabase('ticketing_use_cases');
  await migrate(db.url, MIGRATIONS_DIR, logger);
  pool = testPool(db.url, { max: 4 });
  // As the service's pool does: an idle connection the server ends is dropped, not an unhandled error.
  pool.on('error', () => undefined);
  store = new TicketingStore(pool);
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

function deliver(delivery: object, envelopeId?: string): Promise<DeliveryOutcome> {
  const payload = rawActivity(delivery);
  const envelope = makeEnvelope(RawActivity, 'webhook-ingest', payload, envelopeId ? { id: envelopeId } : {});
  return recordDelivery(store, envelope, interpretActivity(payload));
}

const heldRelease = () => new HeldRelease({ store, logger });
const configure = (account: string, body: object = {}, release = heldRelease()) => savePartnerConfig({ store, logger, defaults: DEFAULTS, heldRelease: release }, account, body);

async function tickets(account: string) {
  return (await store.read.tickets.tickets({ accountId: account, limit: 50 })).rows;
}

const timeline = (ticketId: string) => store.read.tickets.ticketActivities(ticketId);

describe('recording direct messages', () => {
  it('opens a DM ticket, joins the next DM to it, and counts a redelivery as a duplicate', async () => {
    const account = newAccount();
    await configure(account);
    const first = directMessageReceived({ account, customer: ANA, text: 'where is my order?' });
    expect((await deliver(first)).counts).toMatchObject({ opened: 1 });
    expect((await deliver(directMessageReceived({ account, customer: ANA, text: 'order 42' }))).counts).toMatchObject({ appended: 1 });
    expect((await deliver(first)).counts).toMatchObject({ duplicate: 1, opened: 0 });
    const [ticket] = await tickets(account);
    expect(ticket).toMatchObject({ channel: 'dm', status: 'open', subject: 'where is my order?', queue: 'social', folder: 'inbox' });
    expect((await timeline(ticket!.id)).map((a) => a.text)).toEqual(['where is my order?', 'order 42']);
  });

  it('records a DM whose change notice counts more bytes than NOTIFY carries, though fewer characters', async () => {
    const account = newAccount();
    await configure(account);
    // 2,800 characters of 3 bytes each: the notice (the ticket's subject and the activity's text) passes 8,000 bytes.
    const text = '荷物はどこですか'.repeat(350);
    expect((await deliver(directMessageReceived({ account, customer: ANA, text }))).counts).toMatchObject({ opened: 1 });
    const [ticket] = await tickets(account);
    expect((await timeline(ticket!.id)).map((a) => a.text)).toEqual([text]);
  });

  it("puts the account's DMs sent before the conversation had a ticket on its first ticket", async () => {
    const account = newAccount();
    await configure(account);
    expect((await deliver(directMessageSent({ account, customer: ANA, text: 'hi, how can we help?', createdAt: at('2026-03-01T10:00:00Z') }))).counts).toMatchObject({ timeline: 1 });
    await deliver(directMessageReceived({ account, customer: ANA, text: 'my parcel is late', createdAt: at('2026-03-01T10:05:00Z') }));
    const [ticket] = await tickets(account);
    expect((await timeline(ticket!.id)).map((a) => [a.direction, a.text])).toEqual([
      ['outbound', 'hi, how can we help?'],
      ['inbound', 'my parcel is late'],
    ]);
  });

  it('settles an edit by when each text was received, whatever the order the deliveries are handled in', async () => {
    const received = (text: string, receivedAt: string, account: string) => {
      const payload = { ...rawActivity(directMessageReceived({ account, customer: ANA, text, eventId: '4400000001', createdAt: at('2026-03-02T10:00:00Z') })), receivedAt };
      return () => recordDelivery(store, makeEnvelope(RawActivity, 'webhook-ingest', payload), interpretActivity(payload));
    };
    const texts = async (account: string) => (await timeline((await tickets(account))[0]!.id)).map((a) => [a.text, (a.edits ?? []).map((edit) => [edit.text, edit.replacedAt])]);
    const inOrder = newAccount();
    const reversed = newAccount();
    await configure(inOrder);
    await configure(reversed);
    await received('order 41', '2026-03-02T10:00:01.000Z', inOrder)();
    expect((await received('order 42', '2026-03-02T10:00:05.000Z', inOrder)()).counts).toMatchObject({ edited: 1 });
    await received('order 42', '2026-03-02T10:00:05.000Z', reversed)();
    expect((await received('order 41', '2026-03-02T10:00:01.000Z', reversed)()).counts).toMatchObject({ edited: 1 });
    expect((await received('order 41', '2026-03-02T10:00:01.000Z', reversed)()).counts).toMatchObject({ duplicate: 1, edited: 0 });
    expect(await texts(inOrder)).toEqual([['order 42', [['order 41', '2026-03-02T10:00:05.000Z']]]]);
    // the older text, come late, is kept, and the newer one stays
    expect(await texts(reversed)).toEqual([['order 42', [['order 41', null]]]]);
  });

  it('reopens a resolved ticket within the reopen window, and starts a new one after it', async () => {
    const account = newAccount();
    await configure(account, { policy: { reopenWindowMinutes: 60 } });
    await deliver(directMessageReceived({ account, customer: ANA, text: 'first problem', createdAt: at('2026-04-01T10:00:00Z') }));
    const resolve = () => pool.query(`UPDATE tickets SET status = 'resolved', resolved_at = '2026-04-01T11:00:00Z' WHERE account_id = $1`, [account]);
    await resolve();
    await deliver(directMessageReceived({ account, customer: ANA, text: 'one more thing', createdAt: at('2026-04-01T11:30:00Z') }));
    expect((await tickets(account)).map((t) => t.status)).toEqual(['open']);
    await resolve();
    await deliver(directMessageReceived({ account, customer: ANA, text: 'a new problem', createdAt: at('2026-04-01T13:30:00Z') }));
    expect((await tickets(account)).map((t) => [t.status, t.subject])).toEqual([
      ['open', 'a new problem'],
      ['resolved', 'first problem'],
    ]);
  });

  it('keeps the newest typing state of a conversation, whatever the arrival order', async () => {
    const account = newAccount();
    await configure(account);
    await deliver(typingIndicated({ account, sender: ANA, recipient: account, createdAt: at('2026-05-02T10:00:05Z') }));
    expect((await deliver(typingIndicated({ account, sender: ANA, recipient: account, createdAt: at('2026-05-02T10:00:01Z') }))).counts).toMatchObject({ state: 1 });
    const { rows } = await pool.query('SELECT contact_typing_at FROM dm_conversations WHERE account_id = $1', [account]);
    expect(rows).toEqual([{ contact_typing_at: new Date('2026-05-02T10:00:05Z') }]);
  });
});

describe('recording posts, reactions and relations', () => {
  it('opens a public ticket for a mention and joins a reply in its thread', async () => {
    const account = newAccount();
    await configure(account);
    const mentionId = nextEventId();
    await deliver(postCreated({ account, author: ANA, text: '@acme my order is late', mentions: [account], eventId: mentionId }));
    expect((await deliver(postCreated({ account, author: ANA, text: 'still waiting', inReplyTo: { id: mentionId, author: ANA } }))).counts).toMatchObject({ appended: 1 });
    const [ticket] = await tickets(account);
    expect(ticket).toMatchObject({ channel: 'public', subject: '@acme my order is late' });
    expect((await timeline(ticket!.id)).map((a) => a.text)).toEqual(['@acme my order is late', 'still waiting']);
  });

  it('folds a ticket a reply opened into its parent post when the parent turns up', async () => {
    const account = newAccount();
    await configure(account);
    const mentionId = nextEventId();
    const t0 = at('2026-06-01T10:00:00Z');
    await deliver(postCreated({ account, author: ANA, text: 'and now?', inReplyTo: { id: mentionId, author: ANA }, createdAt: t0 + 60_000 }));
    expect(await tickets(account)).toHaveLength(1);
    await deliver(postCreated({ account, author: ANA, text: '@acme where is it?', mentions: [account], eventId: mentionId, createdAt: t0 }));
    const all = await tickets(account);
    expect(all).toHaveLength(1);
    expect(all[0]!.subject).toBe('@acme where is it?');
    expect((await timeline(all[0]!.id)).map((a) => a.text)).toEqual(['@acme where is it?', 'and now?']);
  });

  it("puts a like on the contact's timeline, or on a ticket of its own when the policy says so", async () => {
    const account = newAccount();
    await configure(account);
    const like = () => postLiked({ account, liker: ANA, post: { id: nextEventId(), author: account, text: 'our news' } });
    expect((await deliver(like())).counts).toMatchObject({ timeline: 1 });
    await configure(account, { policy: { likeOfAccount: 'ticket' } });
    expect((await deliver(like())).counts).toMatchObject({ opened: 1 });
  });

  it('flags a contact the account blocked, the newest event winning', async () => {
    const account = newAccount();
    await configure(account);
    await deliver(userRelation('block_events', { account, type: 'block', source: account, target: ANA, createdAt: at('2026-07-01T10:00:00Z') }));
    await deliver(userRelation('block_events', { account, type: 'unblock', source: account, target: ANA, createdAt: at('2026-07-01T09:00:00Z') }));
    const { rows } = await pool.query('SELECT blocked FROM contacts WHERE account_id = $1 AND platform_user_id = $2', [account, ANA.id]);
    expect(rows).toEqual([{ blocked: true }]);
  });

  it('records a revoke without a configuration, in the accounts mirror', async () => {
    const account = newAccount();
    expect(await deliver(appRevoked({ account, createdAt: at('2026-07-03T10:00:00Z') }))).toMatchObject({ held: false, counts: { state: 1 } });
    expect(await store.read.accounts.find(account)).toMatchObject({ status: 'revoked', status_changed_at: new Date('2026-07-03T10:00:00Z') });
  });
});

describe('a delivery of several events', () => {
  const refunds = { routing: { rules: [{ name: 'refunds', when: { keywords: ['refund'] }, queue: 'billing', folder: 'refunds' }] } };
  const summary = async (account: string) =>
    (await tickets(account)).map((t) => ({ subject: t.subject, queue: t.queue, folder: t.folder, status: t.status, lastActivityAt: t.last_activity_at, routingRule: t.routing_rule }));

  it('ends as the same events delivered one by one, in any order', async () => {
    const [together, apart] = [newAccount(), newAccount()];
    const t0 = at('2026-08-01T10:00:00Z');
    const events = (account: string) => [
      dmEvent({ id: `${account}3`, from: ANA.id, to: account, text: 'I want a refund', at: t0 + 2_000 }),
      dmEvent({ id: `${account}2`, from: account, to: ANA.id, text: 'how can we help?', at: t0 + 1_000 }),
      dmEvent({ id: `${account}1`, from: ANA.id, to: account, text: 'hello', at: t0 }),
      dmEvent({ id: `${account}4`, from: ANA.id, to: account, text: 'order 42', at: t0 + 3_000 }),
    ];
    const users = (account: string) => [userObject(ANA.id, ANA.screenName, ANA.name), userObject(account, 'acme', 'Acme')];
    await configure(together, refunds);
    await configure(apart, refunds);
    expect((await deliver(dmDelivery(together, events(together), users(together)))).counts).toMatchObject({ opened: 1, appended: 3 });
    for (const event of events(apart)) await deliver(dmDelivery(apart, [event], users(apart)));
    expect(await summary(together)).toEqual(await summary(apart));
    expect(await summary(together)).toEqual([{ subject: 'hello', queue: 'social', folder: 'inbox', status: 'open', lastActivityAt: new Date(t0 + 3_000), routingRule: null }]);
  });

  it('folds a ticket it opened into a ticket it opened later in the same delivery', async () => {
    const account = newAccount();
    await configure(account);
    const mentionId = nextEventId();
    const t0 = at('2026-08-02T10:00:00Z');
    // The reply's time comes before its parent's (clocks differ): it opens a ticket waiting for the parent, which then folds into the parent's.
    const reply = postCreated({ account, author: ANA, text: 'any news?', inReplyTo: { id: mentionId, author: ANA }, createdAt: t0 });
    const mention = postCreated({ account, author: ANA, text: '@acme where is my order?', mentions: [account], eventId: mentionId, createdAt: t0 + 1_000 });
    const both = { ...mention, tweet_create_events: [...(reply.tweet_create_events as object[]), ...(mention.tweet_create_events as object[])] };
    expect((await deliver(both)).counts).toMatchObject({ opened: 2 });
    const all = await tickets(account);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ subject: 'any news?', last_activity_at: new Date(t0 + 1_000) });
    expect((await timeline(all[0]!.id)).map((a) => a.text)).toEqual(['any news?', '@acme where is my order?']);
  });
});

describe('a prefetch window of deliveries', () => {
  /** A store whose every statement is counted. */
  function countingStore(): { store: TicketingStore; statements: () => number; end: () => Promise<void> } {
    const counted = testPool(db.url, { max: 2 });
    let statements = 0;
    counted.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => ((statements += 1), query(...args));
    });
    return { store: new TicketingStore(counted), statements: () => statements, end: () => counted.end() };
  }
  const envelopeOf = (delivery: object) => {
    const payload = rawActivity(delivery);
    const envelope = makeEnvelope(RawActivity, 'webhook-ingest', payload);
    return { envelope, interpretation: interpretActivity(payload) };
  };

  it('records ten DMs joining open tickets in one transaction of ten statements, each once, in order for the CRM', async () => {
    const account = newAccount();
    await configure(account);
    const customers = [0, 1, 2].map((i) => ({ id: `31${account}${i}`, screenName: `c${i}`, name: `Customer ${i}` }));
    await recordDeliveries(store, customers.map((customer) => envelopeOf(directMessageReceived({ account, customer, text: `hello from ${customer.name}` }))), { logRaw: true });
    const window = Array.from({ length: 10 }, (_, i) => envelopeOf(directMessageReceived({ account, customer: customers[i % 3]!, text: `message ${i}` })));
    const { rows: before } = await pool.query<{ n: string }>('SELECT max(id) AS n FROM outbox');
    const counting = countingStore();
    try {
      const outcomes = await recordDeliveries(counting.store, window, { logRaw: true });
      expect(outcomes.map((outcome) => outcome !== 'busy' && outcome.counts.appended)).toEqual(window.map(() => 1));
      // BEGIN, locks with the raw log, configurations, contacts, conversations' tickets, the ten DMs, summaries, CRM events (2), COMMIT.
      expect(counting.statements()).toBeLessThanOrEqual(10);
      const again = await recordDeliveries(counting.store, window, { logRaw: true });
      expect(again.map((outcome) => outcome !== 'busy' && outcome.counts.duplicate)).toEqual(window.map(() => 1));
    } finally {
      await counting.end();
    }
    const all = await tickets(account);
    expect(all).toHaveLength(3);
    for (const [i, customer] of customers.entries()) {
      const ticket = all.find((t) => t.subject === `hello from ${customer.name}`)!;
      expect((await timeline(ticket.id)).map((a) => a.text)).toEqual([`hello from ${customer.name}`, ...window.flatMap((_, j) => (j % 3 === i ? [`message ${j}`] : []))]);
    }
    const { rows: announced } = await pool.query<{ envelope: { payload: { type: string; activity: { text: string } } } }>('SELECT envelope FROM outbox WHERE id > $1 ORDER BY id', [before[0]!.n ?? 0]);
    expect(announced.map((row) => [row.envelope.payload.type, row.envelope.payload.activity.text])).toEqual(window.map((_, i) => ['ticket.activity', `message ${i}`]));
    expect(await store.rawLog.count(account)).toBe(13);
  });

  it('records what comes while its transactions run in the next one, never more at once than allowed', async () => {
    const account = newAccount();
    await configure(account);
    let open = 0;
    let mostOpen = 0;
    const sizes: number[] = [];
    const watched = Object.create(store) as TicketingStore;
    watched.transaction = async (work) => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      try {
        return await store.transaction(async (tx) => {
          // A batch's deliveries are logged in the statement that takes their locks.
          const lock = tx.locks.forDeliveries.bind(tx.locks);
          tx.locks.forDeliveries = (sets, accounts, logged = []) => (sizes.push(logged.length), lock(sets, accounts, logged));
          return work(tx);
        });
      } finally {
        open -= 1;
      }
    };
    const batches = new DeliveryBatches(watched, { logRaw: true, transactions: 2 });
    const customers = Array.from({ length: 30 }, (_, i) => ({ id: `32${account}${i}`, screenName: `d${i}`, name: `Customer ${i}` }));
    // Handed in over several turns of the event loop, as a consumer's messages arrive.
    const outcomes: Promise<DeliveryOutcome>[] = [];
    for (const [i, customer] of customers.entries()) {
      const { envelope, interpretation } = envelopeOf(directMessageReceived({ account, customer, text: `hello ${i}` }));
      outcomes.push(batches.record(envelope, interpretation));
      if (i % 3 === 2) await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await Promise.all(outcomes)).map((outcome) => outcome.counts.opened)).toEqual(customers.map(() => 1));
    expect(mostOpen).toBe(2);
    // The first two turns go at once; what the others bring while those run waits and is recorded together.
    expect(sizes.length).toBeLessThan(10);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(30);
    expect(await tickets(account)).toHaveLength(30);
  });

  it("records one conversation's deliveries one transaction after the other, in the order they came, none turned away busy", async () => {
    const account = newAccount();
    await configure(account);
    const committed: string[][] = [];
    const watched = Object.create(store) as TicketingStore;
    watched.transaction = async (work) => {
      let ids: string[] = [];
      const result = await store.transaction(async (tx) => {
        const lock = tx.locks.forDeliveries.bind(tx.locks);
        tx.locks.forDeliveries = (sets, accounts, logged = []) => ((ids = logged.map((envelope) => envelope.id)), lock(sets, accounts, logged));
        return work(tx);
      });
      committed.push(ids);
      return result;
    };
    const batches = new DeliveryBatches(watched, { logRaw: true, transactions: 2 });
    const other = { id: `33${account}`, screenName: 'other', name: 'Other' };
    const handedIn: string[] = [];
    const outcomes: Promise<DeliveryOutcome>[] = [];
    for (let i = 0; i < 12; i += 1) {
      // Each on its own turn of the event loop, as messages arrive: with two transactions allowed, the next would start beside the previous.
      const { envelope, interpretation } = envelopeOf(directMessageReceived({ account, customer: i % 4 === 3 ? other : ANA, text: `message ${i}` }));
      if (i % 4 !== 3) handedIn.push(envelope.id);
      outcomes.push(batches.record(envelope, interpretation));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(outcomes);
    expect(committed.flat().filter((id) => handedIn.includes(id))).toEqual(handedIn);
  });

  it("waits for another process's transaction on a conversation, instead of turning the delivery away busy, and keeps the order", async () => {
    const account = newAccount();
    await configure(account);
    // A replica finishing a partition handed on: its transaction holds the conversation's lock a while before it commits.
    const finishingStore = Object.create(store) as TicketingStore;
    finishingStore.transaction = (work) =>
      store.transaction(async (tx) => {
        const done = await work(tx);
        await new Promise((resolve) => setTimeout(resolve, 600));
        return done;
      });
    const finishing = new DeliveryBatches(finishingStore, { logRaw: true });
    const starting = new DeliveryBatches(store, { logRaw: true });
    const committed: string[] = [];
    const deliver = (batches: DeliveryBatches, text: string) => {
      const { envelope, interpretation } = envelopeOf(directMessageReceived({ account, customer: ANA, text }));
      return batches.record(envelope, interpretation).then((outcome) => (committed.push(text), outcome));
    };
    const first = deliver(finishing, 'first, on the replica handing over');
    await new Promise((resolve) => setTimeout(resolve, 150));
    const outcomes = await Promise.all([first, deliver(starting, 'second, on the replica taking over'), deliver(starting, 'third, behind it')]);
    expect(outcomes.map((outcome) => outcome.counts.opened + outcome.counts.appended)).toEqual([1, 1, 1]);
    expect(committed).toEqual(['first, on the replica handing over', 'second, on the replica taking over', 'third, behind it']);
  });

  it('records none of the deliveries in hand whose messages go back on the queue after an earlier one failed, though the database is back', async () => {
    const account = newAccount();
    await configure(account);
    let databaseDown = true;
    const watched = Object.create(store) as TicketingStore;
    watched.transaction = async (work) => {
      if (databaseDown) throw new Error('Connection terminated unexpectedly');
      return store.transaction(work);
    };
    const batches = new DeliveryBatches(watched, { logRaw: true, transactions: 2 });
    // The consumer's channel: once a message fails, its messages in hand go back on the queue (QueueConsumer.rewind).
    const channel = new AbortController();
    const other = { id: `34${account}`, screenName: 'other', name: 'Other' };
    const deliver = (customer: typeof ANA, text: string) => {
      const { envelope, interpretation } = envelopeOf(directMessageReceived({ account, customer, text }));
      return batches.record(envelope, interpretation, channel.signal);
    };
    const failed = deliver(ANA, 'first').catch((error: unknown) => {
      databaseDown = false;
      channel.abort(new PutBack('an earlier message of the queue failed'));
      throw error;
    });
    // In the first's batch, and in the batch's one by one after it failed.
    const besideIt = deliver(other, 'beside it');
    await new Promise((resolve) => setImmediate(resolve));
    // Waiting for the first's batch: its conversation is being recorded.
    const followingIt = deliver(ANA, 'second');
    await expect(failed).rejects.toThrow('Connection terminated unexpectedly');
    await expect(besideIt).rejects.toBeInstanceOf(PutBack);
    await expect(followingIt).rejects.toBeInstanceOf(PutBack);
    expect(await tickets(account)).toHaveLength(0);
  });
});

describe('held deliveries and partner configurations', () => {
  it('holds a delivery until the account has a configuration, then releases it once', async () => {
    const account = newAccount();
    expect(await deliver(directMessageReceived({ account, customer: ANA, text: 'anyone?' }))).toMatchObject({ held: true });
    expect(await tickets(account)).toHaveLength(0);
    const release = heldRelease();
    expect((await configure(account, {}, release)).created).toBe(true);
    await release.idle();
    expect(await tickets(account)).toHaveLength(1);
    expect(await store.read.held.count(account)).toEqual([]);
    expect(await release.release(account)).toBe(0);
  });

  it('says whether a configuration is the first, and refuses a bad one naming the field', async () => {
    const account = newAccount();
    expect((await configure(account, { pageName: 'Acme' })).created).toBe(true);
    const again = await configure(account, { pageName: 'Acme Support' });
    expect(again.created).toBe(false);
    expect(again.row.config).toMatchObject({ pageName: 'Acme Support' });
    await expect(configure(account, { sla: { firstResponseMinutes: -5 } })).rejects.toThrow(new InvalidPartnerConfig('/sla/firstResponseMinutes must be >= 1'));
  });
});

describe('replies and their command results', () => {
  let replies: Replies;
  beforeAll(() => {
    replies = new Replies({ store, logger, relay: { kick: () => Promise.resolve() } });
  });

  async function dmTicket(): Promise<{ account: string; ticketId: string }> {
    const account = newAccount();
    await configure(account);
    await deliver(directMessageReceived({ account, customer: ANA, text: 'help' }));
    return { account, ticketId: (await tickets(account))[0]!.id };
  }

  const outbox = async () => (await pool.query<{ envelope: { payload: Record<string, unknown> } }>('SELECT envelope FROM outbox ORDER BY id')).rows.map((row) => row.envelope.payload);

  it('records a pending reply and queues its command with the ticket and activity as context', async () => {
    const { account, ticketId } = await dmTicket();
    const { activityId } = await replies.send(ticketId, { text: 'on it' });
    expect((await timeline(ticketId)).at(-1)).toMatchObject({ id: activityId, direction: 'outbound', send_status: 'pending', text: 'on it' });
    expect(await outbox()).toContainEqual({ commandId: activityId, action: 'send_dm', accountId: account, input: { recipientId: ANA.id, text: 'on it' }, context: { ticketId, activityId } });
  });

  it('refuses a blank reply, an unknown ticket, a revoked account and a ticket with nothing to answer', async () => {
    const { account, ticketId } = await dmTicket();
    await expect(replies.send(ticketId, { text: '  ' })).rejects.toThrow(InvalidReply);
    await expect(replies.send('00000000-0000-4000-8000-000000000000', { text: 'hi' })).rejects.toThrow(TicketNotFound);
    await mirrorAccountChange(store, { accountId: account, status: 'revoked', at: new Date(), consumerKeyMasked: null, accessTokenMasked: null });
    await expect(replies.send(ticketId, { text: 'hi' })).rejects.toThrow(AccountUnavailable);

    const other = newAccount();
    await configure(other, { policy: { likeOfAccount: 'ticket' } });
    await deliver(postLiked({ account: other, liker: ANA, post: { id: nextEventId(), author: other, text: 'our news' } }));
    await expect(replies.send((await tickets(other))[0]!.id, { text: 'thanks' })).rejects.toThrow(NothingToReplyTo);
  });

  it('marks a reply sent with the platform id once, and failed with the reason', async () => {
    const { account, ticketId } = await dmTicket();
    const sent = await replies.send(ticketId, { text: 'first' });
    const failed = await replies.send(ticketId, { text: 'second' });
    const result = (activityId: string, fields: Partial<SocialCommandResultPayload>): SocialCommandResultPayload => ({
      commandId: activityId,
      action: 'send_dm',
      accountId: account,
      outcome: 'succeeded',
      platformId: null,
      data: null,
      error: null,
      context: { ticketId, activityId },
      completedAt: new Date().toISOString(),
      ...fields,
    });
    const platformId = nextEventId();
    const succeeded = result(sent.activityId, { platformId });
    expect(await recordCommandResult(store, { ticketId, activityId: sent.activityId }, succeeded)).toBe(true);
    expect(await recordCommandResult(store, { ticketId, activityId: sent.activityId }, succeeded)).toBe(false);
    const error = { code: 'platform_rejected' as const, message: 'You cannot send messages to this user.', platformCode: 349, platformStatus: 403 };
    expect(await recordCommandResult(store, { ticketId, activityId: failed.activityId }, result(failed.activityId, { outcome: 'failed', error }))).toBe(true);
    const byId = new Map((await timeline(ticketId)).map((a) => [a.id, a]));
    expect(byId.get(sent.activityId)).toMatchObject({ send_status: 'sent', platform_event_id: platformId });
    expect(byId.get(failed.activityId)).toMatchObject({ send_status: 'failed', send_error: error.message, send_error_code: error.code, send_error_platform_code: 349 });
  });

  it('fails a reply whose queued command can never be sent, recognised by its context', async () => {
    const { ticketId } = await dmTicket();
    const { activityId } = await replies.send(ticketId, { text: 'stuck' });
    const { rows } = await pool.query<OutboxRow>(
      `SELECT id, exchange, routing_key, envelope FROM outbox WHERE envelope->'payload'->>'commandId' = $1`,
      [activityId],
    );
    expect(rows[0]!.envelope.type).toBe(SocialCommand.type);
    await store.transaction((tx) => recordUnsendableCommand(tx, rows[0]!, 'no route'));
    expect((await timeline(ticketId)).find((a) => a.id === activityId)).toMatchObject({ send_status: 'failed', send_error_code: 'not_sent' });
  });
});

describe('mirroring account events', () => {
  it('keeps the newest status; an older event changes nothing', async () => {
    const account = newAccount();
    expect(await mirrorAccountChange(store, { accountId: account, status: 'disconnected', at: new Date('2026-09-02T10:00:00Z'), screenName: 'acme' })).toBe(true);
    expect(await mirrorAccountChange(store, { accountId: account, status: 'connected', at: new Date('2026-09-01T10:00:00Z') })).toBe(false);
    expect(await store.read.accounts.find(account)).toMatchObject({ status: 'disconnected', screen_name: 'acme' });
  });
});
