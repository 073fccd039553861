import amqplib from 'amqplib';
import pg from 'pg';
import { Exchanges } from '@crm/contracts';
import { capturingLogger, freshDatabase, freshVirtualHost, waitFor, type TestDatabase, type TestVirtualHost, testPool } from '@crm/testing';
import { postCreated } from '@crm/social-platform-simulator/src/activity-deliveries';
import { startTicketing, type RunningTicketing } from './service';
import { dmDelivery, dmEvent, userObject } from './testing/deliveries';
import { apiClient, TestPublisher, testConfig } from './testing/harness';

/** Who the test's bootstrap token (the second of CRM_API_TOKENS) acts as, on the timeline and in events. */
const CRM_PRINCIPAL = 'bootstrap-2';

/**
 * A ticket's life through the service, on the real RabbitMQ and PostgreSQL: workflow, changes
 * one by one and in bulk, notes with evidence, merges and unmerges, list filters, the rule
 * tester, and the CRM's events on `crm.events`.
 */

let vhost: TestVirtualHost;
let db: TestDatabase;
let service: RunningTicketing;
let publisher: TestPublisher;
let pool: pg.Pool;
let crm: { connection: amqplib.ChannelModel; channel: amqplib.Channel; queue: string; seen: { routingKey: string; body: Record<string, unknown> }[] };
const api = apiClient(() => `http://127.0.0.1:${service.port}`);

let nextAccount = 20_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
const newAccount = () => String((nextAccount += 1));
let eventSeq = 700_000;
const nextEventId = () => String((eventSeq += 1));
let userSeq = 4_100_000_000;
const newUser = (name: string) => ({ id: String((userSeq += 1)), screenName: `${name}${userSeq % 1000}`, name });

beforeAll(async () => {
  [vhost, db] = await Promise.all([freshVirtualHost('ticketlife'), freshDatabase('ticket_life')]);
  const captured = capturingLogger('ticketing');
  service = await startTicketing(testConfig({ AMQP_URL: vhost.url, DATABASE_URL: db.url }), { logger: captured.logger, host: '127.0.0.1' });
  publisher = new TestPublisher(vhost.url);
  await publisher.ready();
  pool = testPool(db.url, { max: 2 });
  // The CRM's side: a queue of its own bound to every CRM event.
  const connection = await amqplib.connect(vhost.url);
  const channel = await connection.createChannel();
  const { queue } = await channel.assertQueue('', { exclusive: true });
  await channel.bindQueue(queue, Exchanges.crmEvents, '#');
  crm = { connection, channel, queue, seen: [] };
  await channel.consume(queue, (message) => {
    if (message) crm.seen.push({ routingKey: message.fields.routingKey, body: JSON.parse(message.content.toString()) as Record<string, unknown> });
  }, { noAck: true });
});

afterAll(async () => {
  await crm?.connection.close();
  await publisher?.close();
  await service?.stop();
  await pool?.end();
  await Promise.all([db?.drop(), vhost?.drop()]);
});

interface Activity {
  id: string;
  kind: string;
  direction: string;
  text: string | null;
  occurredAt: string;
  by: string | null;
  data: Record<string, unknown> | null;
  author: { screenName: string | null } | null;
}
interface Ticket {
  id: string;
  status: string;
  assignee: string | null;
  team: string | null;
  priority: string;
  tags: string[];
  queue: string;
  folder: string;
  mergedInto: string | null;
  mergeRule: string | null;
  snippet: string | null;
  lastActivityAt: string;
  contact: { id: string; screenName: string | null } | null;
  activities: Activity[];
}

async function configure(account: string, body: Record<string, unknown> = {}): Promise<void> {
  const { status } = await api.put(`/v1/partner-configs/${account}`, body);
  expect([200, 201]).toContain(status);
}

/** A customer's DM to the account; resolves once it is on a ticket (read from the database). */
async function dm(account: string, from: { id: string; screenName: string; name: string }, text: string, at = Date.now()): Promise<string> {
  const eventId = nextEventId();
  await publisher.delivery(dmDelivery(account, [dmEvent({ id: eventId, from: from.id, to: account, text, at })], [userObject(from.id, from.screenName, from.name)]));
  const ticketId = await waitFor(
    async () => (await pool.query<{ ticket_id: string | null }>('SELECT ticket_id FROM activities WHERE account_id = $1 AND platform_event_id = $2', [account, eventId])).rows[0]?.ticket_id ?? undefined,
    { what: `DM ${eventId} on a ticket` },
  );
  return ticketId!;
}

async function ticket(id: string): Promise<Ticket> {
  const { status, body } = await api.get<Ticket>(`/v1/tickets/${id}`);
  expect(status).toBe(200);
  return body;
}

async function newTicket(account: string, text = 'where is my order?'): Promise<string> {
  return dm(account, newUser('cust'), text);
}

describe('the workflow', () => {
  it('moves a ticket along allowed statuses, each change on the timeline with who made it, and refuses a forbidden move with 409 naming the status', async () => {
    const account = newAccount();
    await configure(account);
    const id = await newTicket(account);

    const resolved = await api.patch<Ticket>(`/v1/tickets/${id}`, { status: 'resolved' });
    expect(resolved.status).toBe(200);
    expect(resolved.body.status).toBe('resolved');
    const entry = resolved.body.activities.find((activity) => activity.kind === 'status_changed')!;
    expect(entry).toMatchObject({ direction: 'internal', by: CRM_PRINCIPAL, data: { changes: { status: { from: 'open', to: 'resolved' } } } });
    expect(Number.isNaN(Date.parse(entry.occurredAt))).toBe(false);

    const forbidden = await api.patch<{ error: { code: string; message: string } }>(`/v1/tickets/${id}`, { status: 'pending' });
    expect(forbidden.status).toBe(409);
    expect(forbidden.body.error.code).toBe('forbidden_transition');
    expect(forbidden.body.error.message).toContain('resolved');

    expect((await api.patch(`/v1/tickets/${id}`, { status: 'closed' })).status).toBe(200);
    const closed = await api.patch<{ error: { message: string } }>(`/v1/tickets/${id}`, { status: 'open' });
    expect(closed.status).toBe(409);
    expect(closed.body.error.message).toContain('closed');
    expect((await ticket(id)).status).toBe('closed');
  });

  it('sets assignee, team, priority, tags, queue and folder; bad values answer 400 naming the field', async () => {
    const account = newAccount();
    await configure(account);
    const id = await newTicket(account);
    const { status, body } = await api.patch<Ticket>(`/v1/tickets/${id}`, { assignee: 'agent-7', team: 'care', priority: 'urgent', tags: ['refund', 'vip'], queue: 'billing', folder: 'escalated' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ assignee: 'agent-7', team: 'care', priority: 'urgent', tags: ['refund', 'vip'], queue: 'billing', folder: 'escalated' });
    const entry = body.activities.find((activity) => activity.kind === 'ticket_updated')!;
    expect(entry.by).toBe(CRM_PRINCIPAL);
    expect(Object.keys(entry.data!.changes as object).sort()).toEqual(['assignee', 'folder', 'priority', 'queue', 'tags', 'team']);

    for (const [change, field] of [
      [{ priority: 'asap' }, 'body.priority'],
      [{ status: 'merged' }, 'body.status'],
      [{ tags: 'x' }, 'body.tags'],
      [{ colour: 'red' }, 'colour'],
      [{}, 'body must NOT have fewer than 1 properties'],
      [{ tags: ['a'.repeat(51)] }, 'body.tags[0]'],
      [{ queue: ' '.repeat(101) + 'q' }, 'body.queue'],
    ] as const) {
      const refused = await api.patch<{ error: { code: string; message: string } }>(`/v1/tickets/${id}`, change);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'invalid_change' });
      expect(refused.body.error.message).toContain(field);
    }
    expect((await api.patch(`/v1/tickets/00000000-0000-4000-8000-000000000000`, { priority: 'low' })).status).toBe(404);
  });

  it('changes up to 100 tickets in one request, all or nothing', async () => {
    const account = newAccount();
    await configure(account);
    const ids = [await newTicket(account, 'one'), await newTicket(account, 'two'), await newTicket(account, 'three')];
    expect((await api.patch(`/v1/tickets/${ids[2]}`, { status: 'closed' })).status).toBe(200);

    const refused = await api.patch<{ error: { code: string; message: string } }>('/v1/tickets', { ids, change: { status: 'pending', assignee: 'agent-1' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(ids[2]);
    for (const id of ids.slice(0, 2)) expect(await ticket(id)).toMatchObject({ status: 'open', assignee: null });

    const done = await api.patch<{ items: Ticket[] }>('/v1/tickets', { ids: ids.slice(0, 2), change: { status: 'pending', assignee: 'agent-1' } });
    expect(done.status).toBe(200);
    expect(done.body.items.map((item) => [item.status, item.assignee])).toEqual([
      ['pending', 'agent-1'],
      ['pending', 'agent-1'],
    ]);
    const tooMany = await api.patch('/v1/tickets', { ids: Array.from({ length: 101 }, () => ids[0]), change: { priority: 'low' } });
    expect(tooMany.status).toBe(400);
    expect((await api.patch('/v1/tickets', { ids: [ids[0], '00000000-0000-4000-8000-000000000000'], change: { priority: 'low' } })).status).toBe(404);
    expect((await ticket(ids[0]!)).priority).toBe('normal');
  });

  it("reopens a pending ticket on the customer's message, as a timeline entry", async () => {
    const account = newAccount();
    await configure(account);
    const ana = newUser('ana');
    const id = await dm(account, ana, 'hello');
    await api.patch(`/v1/tickets/${id}`, { status: 'pending' });
    expect(await dm(account, ana, 'any news?')).toBe(id);
    const reopened = await ticket(id);
    expect(reopened.status).toBe('open');
    expect(reopened.activities.find((activity) => activity.kind === 'reopened')).toMatchObject({ by: 'system', data: { from: 'pending' } });
  });
});

describe('notes', () => {
  const evidence = {
    clientId: 'acme',
    taskId: 'task-42',
    rider: { lat: 52.52, lng: 13.405 },
    drop: { lat: 52.5, lng: 13.42 },
    distanceMeters: 2410,
    etaAt: '2026-01-10T12:30:00.000Z',
    status: 'in_transit',
    positionAt: '2026-01-10T12:10:00.000Z',
  };

  it('puts internal notes, with an evidence snapshot when given, on the timeline; never sent to the platform', async () => {
    const account = newAccount();
    await configure(account);
    const id = await newTicket(account);
    const note = await api.post<Activity>(`/v1/tickets/${id}/notes`, { text: 'called the rider' });
    expect(note.status).toBe(201);
    expect(note.body).toMatchObject({ kind: 'note', direction: 'internal', text: 'called the rider', by: CRM_PRINCIPAL });
    const snapshot = await api.post<Activity>(`/v1/tickets/${id}/notes`, { text: 'rider is close', evidence });
    expect(snapshot.status).toBe(201);
    const timeline = (await ticket(id)).activities;
    expect(timeline.find((activity) => activity.id === snapshot.body.id)).toMatchObject({ kind: 'evidence_snapshot', direction: 'internal', data: { evidence } });
    expect(timeline.find((activity) => activity.id === note.body.id)).toMatchObject({ kind: 'note', text: 'called the rider' });
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM outbox WHERE exchange = $1', [Exchanges.socialCommands]);
    expect(rows[0].n).toBe(0);
  });

  it('refuses a bad note naming the field', async () => {
    const account = newAccount();
    await configure(account);
    const id = await newTicket(account);
    // The OpenAPI document's checks come first (`body.`); a note with neither text nor evidence is the note's own rule (`/text`).
    for (const [body, field] of [
      [{ text: '  ' }, 'body.text'],
      [{ text: 'x', evidence: { ...evidence, rider: { lat: 123, lng: 0 } } }, 'body.evidence.rider.lat'],
      [{ evidence: { ...evidence, distanceMeters: -1 } }, 'body.evidence.distanceMeters'],
      [{ text: 'x', evidence: { ...evidence, positionAt: 'yesterday' } }, 'body.evidence.positionAt'],
      [{}, '/text'],
    ] as const) {
      const refused = await api.post<{ error: { code: string; message: string } }>(`/v1/tickets/${id}/notes`, body);
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('invalid_note');
      expect(refused.body.error.message).toContain(field);
    }
  });
});

describe('merges', () => {
  it('moves the sources’ timelines to the target in time order, marks them merged, lands their later DMs on the target, and unmerges', async () => {
    const account = newAccount();
    await configure(account);
    const [ana, bob] = [newUser('ana'), newUser('bob')];
    const start = Date.now() - 60_000;
    const target = await dm(account, ana, 'ana first', start);
    const source = await dm(account, bob, 'bob first', start + 1_000);
    await dm(account, ana, 'ana second', start + 2_000);
    await api.post(`/v1/tickets/${source}/notes`, { text: 'bob is a regular' });

    const merged = await api.post<Ticket>(`/v1/tickets/${target}/merge`, { sourceIds: [source] });
    expect(merged.status).toBe(200);
    expect(merged.body.id).toBe(target);
    const platformTexts = merged.body.activities.filter((activity) => activity.direction === 'inbound').map((activity) => activity.text);
    expect(platformTexts).toEqual(['ana first', 'bob first', 'ana second']);
    expect(merged.body.activities.some((activity) => activity.kind === 'note' && activity.text === 'bob is a regular')).toBe(true);
    expect(merged.body.activities.find((activity) => activity.kind === 'merged')).toMatchObject({ by: CRM_PRINCIPAL, data: { sourceIds: [source], rule: null }, text: `merged into this one: “bob first” (ticket ${source})` });
    expect(await ticket(source)).toMatchObject({ status: 'merged', mergedInto: target });

    // Bob writes again: his conversation's ticket is merged, so the DM lands on the target.
    expect(await dm(account, bob, 'bob again', start + 3_000)).toBe(target);
    expect((await api.post(`/v1/tickets/${target}/merge`, { sourceIds: [source] })).status).toBe(409);
    expect((await api.patch(`/v1/tickets/${source}`, { status: 'open' })).status).toBe(409);

    const unmerged = await api.post<Ticket>(`/v1/tickets/${source}/unmerge`, {});
    expect(unmerged.status).toBe(200);
    expect(unmerged.body.id).toBe(target);
    expect(unmerged.body.activities.filter((activity) => activity.direction === 'inbound').map((activity) => activity.text)).toEqual(['ana first', 'ana second', 'bob again']);
    const restored = await ticket(source);
    expect(restored).toMatchObject({ status: 'open', mergedInto: null });
    expect(restored.activities.map((activity) => activity.kind)).toEqual(['dm_received', 'note', 'merged', 'unmerged']);
    expect(restored.activities.find((activity) => activity.kind === 'merged')?.text).toBe(`merged into “ana first” (ticket ${target})`);
    expect(unmerged.body.activities.find((activity) => activity.kind === 'unmerged')?.text).toBe(`taken out: “bob first” (ticket ${source})`);
  });

  it('sends the target’s reply to the conversation that wrote last, then refuses an unmerge; bad merges are 4xx', async () => {
    const account = newAccount();
    await configure(account);
    const target = await newTicket(account, 'first');
    const sourceCustomer = newUser('src');
    const source = await dm(account, sourceCustomer, 'second');
    expect((await api.post(`/v1/tickets/${target}/merge`, { sourceIds: [target] })).status).toBe(400);
    expect((await api.post(`/v1/tickets/${target}/merge`, { sourceIds: [] })).status).toBe(400);
    expect((await api.post(`/v1/tickets/${target}/merge`, { sourceIds: ['00000000-0000-4000-8000-000000000000'] })).status).toBe(404);
    expect((await api.post(`/v1/tickets/${target}/unmerge`, {})).status).toBe(409);

    expect((await api.post(`/v1/tickets/${target}/merge`, { sourceIds: [source] })).status).toBe(200);
    // The source's customer wrote last: the target's reply goes to that conversation.
    expect(await dm(account, sourceCustomer, 'still waiting')).toBe(target);
    const reply = await api.post<{ activityId: string }>(`/v1/tickets/${target}/replies`, { text: 'on it' });
    expect(reply.status).toBe(202);
    const { rows } = await pool.query('SELECT ticket_id, conversation_key FROM activities WHERE id = $1', [reply.body.activityId]);
    expect(rows[0]).toEqual({ ticket_id: target, conversation_key: `dm:${account}:${sourceCustomer.id}` });
    const refused = await api.post<{ error: { code: string } }>(`/v1/tickets/${target}/unmerge`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('unmerge_refused');
    expect((await ticket(source)).status).toBe('merged');
  });
});

describe('automatic merges', () => {
  it("merge the same contact's public ticket into their DM ticket within the configured window, recorded with the rule", async () => {
    const account = newAccount();
    await configure(account, { merge: { enabled: true, windowMinutes: 60 } });
    const ana = newUser('ana');
    const dmTicket = await dm(account, ana, 'my parcel is late');
    await publisher.delivery(postCreated({ account, author: { id: ana.id, screenName: ana.screenName, name: ana.name }, text: '@acme still no parcel', mentions: [account] }));
    const source = await waitFor(
      async () => (await pool.query<{ id: string }>(`SELECT id FROM tickets WHERE account_id = $1 AND channel = 'public'`, [account])).rows[0]?.id,
      { what: 'the public ticket' },
    );
    const merged = await ticket(source!);
    expect(merged).toMatchObject({ status: 'merged', mergedInto: dmTicket, mergeRule: 'same_contact_within_window' });
    const target = await ticket(dmTicket);
    expect(target.activities.filter((activity) => activity.direction === 'inbound').map((activity) => activity.text)).toEqual(['my parcel is late', '@acme still no parcel']);
    expect(target.activities.find((activity) => activity.kind === 'merged')).toMatchObject({ by: 'system', data: { rule: 'same_contact_within_window', sourceIds: [source] } });
  });

  it('leave tickets alone when the configuration does not merge', async () => {
    const account = newAccount();
    await configure(account);
    const ana = newUser('ana');
    await dm(account, ana, 'my parcel is late');
    await publisher.delivery(postCreated({ account, author: { id: ana.id, screenName: ana.screenName, name: ana.name }, text: '@acme still no parcel', mentions: [account] }));
    const source = await waitFor(
      async () => (await pool.query<{ id: string }>(`SELECT id FROM tickets WHERE account_id = $1 AND channel = 'public'`, [account])).rows[0]?.id,
      { what: 'the public ticket' },
    );
    expect(await ticket(source!)).toMatchObject({ status: 'open', mergedInto: null });
  });
});

describe('the ticket list', () => {
  it('filters by contact, assignee, priority, tag, a set of statuses, updatedSince and breached, and pages in lastActivity order', async () => {
    const account = newAccount();
    await configure(account);
    const base = Date.now() - 600_000;
    const [a, b, c] = [await dm(account, newUser('a'), 'a', base + 3_000), await dm(account, newUser('b'), 'b', base + 1_000), await dm(account, newUser('c'), 'c', base + 2_000)];
    await api.patch(`/v1/tickets/${a}`, { assignee: 'agent-1', priority: 'high', tags: ['vip'] });
    await api.patch(`/v1/tickets/${b}`, { status: 'pending', tags: ['vip', 'refund'] });
    await api.patch(`/v1/tickets/${c}`, { status: 'resolved' });
    const ids = async (query: string) => (await api.get<{ items: Ticket[] }>(`/v1/tickets?accountId=${account}&${query}`)).body.items.map((item) => item.id);

    const contactOf = async (id: string) => (await api.get<Ticket>(`/v1/tickets/${id}`)).body.contact!.id;
    expect(await ids(`contactId=${await contactOf(b)}`)).toEqual([b]);
    expect(await ids('assignee=agent-1')).toEqual([a]);
    await api.patch(`/v1/tickets/${b}`, { assignee: CRM_PRINCIPAL });
    expect(await ids('assignee=me')).toEqual([b]);
    expect(await ids('assignee=none')).toEqual([c]);
    expect(await ids('priority=high')).toEqual([a]);
    expect((await ids('tag=vip')).sort()).toEqual([a, b].sort());
    expect((await ids('status=open,pending')).sort()).toEqual([a, b].sort());
    expect(await ids(`updatedSince=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
    await pool.query('UPDATE tickets SET sla_breached = true WHERE id = $1', [c]);
    expect(await ids('breached=true')).toEqual([c]);
    expect((await api.get<{ items: Ticket[] }>(`/v1/tickets?accountId=${account}&status=pending`)).body.items[0]).toMatchObject({ id: b, snippet: 'b' });

    const first = await api.get<{ items: Ticket[]; nextCursor: string }>(`/v1/tickets?accountId=${account}&order=lastActivity&limit=2`);
    expect(first.body.items.map((item) => item.id)).toEqual([a, c]);
    const second = await api.get<{ items: Ticket[]; nextCursor: string | null }>(`/v1/tickets?accountId=${account}&order=lastActivity&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toMatchObject({ items: [{ id: b }], nextCursor: null });
    expect((await api.get(`/v1/tickets?accountId=${account}&cursor=${first.body.nextCursor}`)).status).toBe(400);
    for (const bad of ['status=open,gone', 'priority=asap', 'updatedSince=yesterday', 'breached=maybe', 'order=random', 'contactId=ana']) {
      expect((await api.get(`/v1/tickets?${bad}`)).status).toBe(400);
    }
  });
});

describe("the workspace's view counts", () => {
  it('count open and pending tickets: all, mine, unassigned, breached, and each queue and folder; no merged, resolved or other account', async () => {
    const [account, other] = [newAccount(), newAccount()];
    await configure(account);
    await configure(other);
    const [a, b, c, d, e] = [
      await dm(account, newUser('a'), 'a'),
      await dm(account, newUser('b'), 'b'),
      await dm(account, newUser('c'), 'c'),
      await dm(account, newUser('d'), 'd'),
      await dm(account, newUser('e'), 'e'),
    ];
    await dm(other, newUser('f'), 'f');
    await api.patch(`/v1/tickets/${a}`, { assignee: CRM_PRINCIPAL });
    await api.patch(`/v1/tickets/${b}`, { assignee: 'agent-2', status: 'pending', queue: 'billing', folder: 'refunds' });
    await api.patch(`/v1/tickets/${c}`, { status: 'resolved' });
    await api.post(`/v1/tickets/${d}/merge`, { sourceIds: [e] });
    await pool.query('UPDATE tickets SET sla_breached = true WHERE id = ANY($1::uuid[])', [[b, c]]);
    const counts = await api.get<Record<string, unknown>>(`/v1/ticket-counts?accountId=${account}`);
    expect(counts.status).toBe(200);
    const defaults = await ticket(a);
    expect(counts.body).toEqual({
      open: 3,
      mine: 1,
      unassigned: 1,
      breached: 1,
      folders: [
        { queue: 'billing', folder: 'refunds', count: 1 },
        { queue: defaults.queue, folder: defaults.folder, count: 2 },
      ].sort((x, y) => x.queue.localeCompare(y.queue)),
    });
    expect((await api.get(`/v1/ticket-counts?accountId=nope`)).status).toBe(400);
    // The retention job folds the views' counters into one row per combination; the counts stay.
    await service.retention.runNow();
    const spread = await pool.query('SELECT 1 FROM ticket_view_counts GROUP BY account_id, status, queue, folder, assignee, breached HAVING count(*) > 1 OR sum(tickets) = 0');
    expect(spread.rows).toEqual([]);
    expect((await api.get(`/v1/ticket-counts?accountId=${account}`)).body).toEqual(counts.body);
  });
});

describe('the rule tester', () => {
  it('answers the rule, queue and folder routing would choose, and 4xx for a bad body or an unknown page', async () => {
    const account = newAccount();
    await configure(account, { routing: { rules: [{ name: 'refunds', when: { keywords: ['refund'], languages: ['en'] }, queue: 'billing', folder: 'refunds' }] } });
    const hit = await api.post(`/v1/partner-configs/${account}/route-test`, { kind: 'mention', text: 'I want a refund', sender: '@ana', lang: 'en' });
    expect(hit).toEqual({ status: 200, body: { rule: 'refunds', queue: 'billing', folder: 'refunds' } });
    const miss = await api.post(`/v1/partner-configs/${account}/route-test`, { kind: 'dm_received', text: 'I want a refund', sender: '@ana', lang: 'en' });
    expect(miss.body).toMatchObject({ rule: null });
    expect((await api.post(`/v1/partner-configs/${account}/route-test`, { kind: 'poke' })).status).toBe(400);
    expect((await api.post(`/v1/partner-configs/${newAccount()}/route-test`, { kind: 'mention' })).status).toBe(404);
  });
});

describe('CRM events', () => {
  it('publishes every change after its commit on crm.events, typed and versioned; a refused change publishes nothing', async () => {
    const account = newAccount();
    await configure(account);
    const id = await newTicket(account);
    const about = () => crm.seen.filter((message) => (message.body.payload as { ticketId?: string }).ticketId === id);
    await waitFor(() => about().some((message) => message.routingKey === 'ticket.created'), { what: 'ticket.created' });
    expect((await api.patch(`/v1/tickets/${id}`, { status: 'closed' })).status).toBe(200);
    expect((await api.patch(`/v1/tickets/${id}`, { status: 'open' })).status).toBe(409);
    await api.post(`/v1/tickets/${id}/notes`, { text: 'after closing' });
    await waitFor(() => about().some((message) => message.routingKey === 'ticket.activity'), { what: 'ticket.activity' });

    const seen = about();
    expect(seen.map((message) => message.routingKey)).toEqual(['ticket.created', 'ticket.updated', 'ticket.activity']);
    expect(seen[0]!.body).toMatchObject({ type: 'crm.ticket.created.v1', payload: { type: 'ticket.created', version: 1, actor: 'system', ticket: { id, status: 'open' } } });
    expect(seen[1]!.body).toMatchObject({ type: 'crm.ticket.updated.v1', payload: { version: 1, actor: CRM_PRINCIPAL, changes: { status: { from: 'open', to: 'closed' } }, ticket: { status: 'closed' } } });
    expect(seen[2]!.body).toMatchObject({ payload: { type: 'ticket.activity', activity: { kind: 'note', text: 'after closing' } } });
  });
});
