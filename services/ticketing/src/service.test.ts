import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { RawActivity, type Topology } from '@crm/contracts';
import { Broker, listDeadLetters, makeEnvelope, Publisher } from '@crm/messaging';
import { amqpUrl, capturingLogger, deleteBrokerObjects, freshDatabase, queueDepth, testLogger, waitFor, type TestDatabase } from '@crm/testing';
import type { TicketingConfig } from './config';
import { startTicketing, type RunningTicketing } from './service';
import { dmDelivery, dmEvent, rawActivity, userObject, type DmSpec } from './testing/deliveries';

/**
 * The whole service in-process against the real RabbitMQ and PostgreSQL, on broker objects
 * of its own (other test runs share the broker), fed RawActivity envelopes and read back
 * through the HTTP API.
 */

const suffix = randomBytes(4).toString('hex');
const exchange = `social.activity.t${suffix}`;
const queue = `ticketing.activity.t${suffix}`;
const retry = { delaysMs: [50, 100], maxAttempts: 3 };
const topology: Topology = {
  exchanges: [{ name: exchange, type: 'topic' }],
  queues: [{ name: queue, kind: 'work', bindings: [{ exchange, routingKey: '#' }], retry }],
};
const TOKEN = 'test-token-ticketing';

let db: TestDatabase;
let service: RunningTicketing;
let broker: Broker;
let publisher: Publisher;
let pool: pg.Pool;
let logLines: string[];
let baseUrl: string;

// Each test works on accounts of its own, so tests never see each other's tickets.
let nextAccount = 10_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
const newAccount = () => String((nextAccount += 1));

beforeAll(async () => {
  db = await freshDatabase('ticketing');
  const captured = capturingLogger('ticketing');
  logLines = captured.lines;
  const config: TicketingConfig = {
    AMQP_URL: amqpUrl(),
    PORT: 0,
    LOG_LEVEL: 'debug',
    SHUTDOWN_TIMEOUT_MS: 5_000,
    DATABASE_URL: db.url,
    CRM_API_TOKENS: ['another-token', TOKEN],
    DEFAULT_QUEUE: 'social',
    DEFAULT_FOLDER: 'inbox',
    SLA_FIRST_RESPONSE_MINUTES: 60,
    SLA_RESOLUTION_MINUTES: 1440,
    ACTIVITY_PREFETCH: 10,
  };
  service = await startTicketing(config, { logger: captured.logger, topology, activityQueue: queue, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${service.port}`;
  broker = new Broker({ url: amqpUrl(), name: 'ticketing-test-publisher', logger: testLogger() });
  publisher = new Publisher(broker, topology);
  await publisher.ready();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
});

afterAll(async () => {
  await publisher?.close();
  await broker?.close();
  await service?.stop();
  await pool?.end();
  await deleteBrokerObjects([queue, ...retry.delaysMs.map((ms) => `${queue}.retry.${ms}ms`)], [exchange]);
  await db?.drop();
});

// ---------------------------------------------------------------------------------------

interface TicketBody {
  id: string;
  accountId: string;
  status: string;
  channel: string;
  queue: string;
  folder: string;
  contact: { id: string; screenName: string | null; name: string | null };
  subject: string;
  createdAt: string;
  updatedAt: string;
  lastActivityAt: string;
  sla: { firstResponseDueAt: string; resolutionDueAt: string };
  activities?: { id: string; kind: string; direction: string; text: string; platformEventId: string; occurredAt: string; deleted: boolean }[];
}

async function api<T = unknown>(path: string, token: string | null = TOKEN): Promise<{ status: number; body: T }> {
  const response = await fetch(`${baseUrl}${path}`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as T };
}

async function tickets(query: string): Promise<TicketBody[]> {
  const { status, body } = await api<{ items: TicketBody[] }>(`/v1/tickets?${query}`);
  expect(status).toBe(200);
  return body.items;
}

async function ticket(id: string): Promise<TicketBody> {
  const { status, body } = await api<TicketBody>(`/v1/tickets/${id}`);
  expect(status).toBe(200);
  return body;
}

let eventSeq = 500_000;
const nextEventId = () => String((eventSeq += 1));

/** Publishes a delivery as webhook-ingest would; returns the envelope id. */
async function publish(delivery: Record<string, unknown>, envelopeId?: string, kind: Parameters<typeof rawActivity>[1] = 'direct_message_events'): Promise<string> {
  const envelope = makeEnvelope(RawActivity, 'webhook-ingest', rawActivity(delivery, kind), envelopeId ? { id: envelopeId } : {});
  await publisher.publish(exchange, `${kind}.${String(delivery.for_user_id)}`, envelope);
  return envelope.id;
}

/** A delivery of DMs from customers to `account`, with the customers' user objects. */
function dms(account: string, specs: Omit<DmSpec, 'to' | 'id'>[], users: { id: string; screenName: string; name: string }[]) {
  return dmDelivery(
    account,
    specs.map((spec) => dmEvent({ id: nextEventId(), to: account, ...spec })),
    users.map((u) => userObject(u.id, u.screenName, u.name)),
  );
}

/** Waits until the service has handled the envelope `times` times (each delivery logs one line). */
async function handled(envelopeId: string, times = 1): Promise<void> {
  await waitFor(
    () =>
      logLines.filter((line) => {
        const entry = JSON.parse(line) as { message?: string; envelopeId?: string };
        return entry.message === 'activity handled' && entry.envelopeId === envelopeId;
      }).length >= times,
    { what: `envelope ${envelopeId} handled ${times} time(s)` },
  );
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(sql, params);
  return Number(rows[0]!.n);
}

const ANA = { id: '3001969357', screenName: 'ana', name: 'Ana Lima' };
const BOB = { id: '3001969358', screenName: 'bob', name: 'Bob Stone' };
const CID = { id: '3001969359', screenName: 'cid', name: 'Cid Moreau' };

// ---------------------------------------------------------------------------------------

describe('ticketing: received DMs become tickets', () => {
  it('opens a ticket with the DM text and the sender as contact', async () => {
    const account = newAccount();
    const at = Date.parse('2026-03-01T12:00:00.000Z');
    const delivery = dms(account, [{ from: ANA.id, text: 'Where is my order 42?', at }], [ANA]);
    await handled(await publish(delivery));

    const [item, ...rest] = await tickets(`accountId=${account}`);
    expect(rest).toEqual([]);
    expect(item).toMatchObject({
      accountId: account,
      status: 'open',
      channel: 'dm',
      queue: 'social',
      folder: 'inbox',
      contact: { screenName: 'ana', name: 'Ana Lima' },
      subject: 'Where is my order 42?',
      lastActivityAt: new Date(at).toISOString(),
    });
    expect(Object.keys(item!).sort()).toEqual(
      ['id', 'accountId', 'status', 'channel', 'queue', 'folder', 'contact', 'subject', 'createdAt', 'updatedAt', 'lastActivityAt', 'sla'].sort(),
    );
    expect(Date.parse(item!.sla.firstResponseDueAt) - Date.parse(item!.createdAt)).toBe(60 * 60_000);
    expect(Date.parse(item!.sla.resolutionDueAt) - Date.parse(item!.createdAt)).toBe(1440 * 60_000);

    const detail = await ticket(item!.id);
    expect(detail.activities).toEqual([
      {
        id: expect.any(String),
        kind: 'dm_received',
        direction: 'inbound',
        text: 'Where is my order 42?',
        platformEventId: (delivery.direct_message_events as { id: string }[])[0]!.id,
        occurredAt: new Date(at).toISOString(),
        deleted: false,
      },
    ]);
    expect(await count('SELECT count(*) AS n FROM contacts WHERE account_id = $1 AND platform_user_id = $2 AND avatar_url LIKE $3', [account, ANA.id, 'https://%'])).toBe(1);
  });

  it('appends a second DM of the same sender to the same ticket, and keeps the timeline oldest first whatever the arrival order', async () => {
    const account = newAccount();
    const t0 = Date.parse('2026-03-01T12:00:00.000Z');
    await handled(await publish(dms(account, [{ from: ANA.id, text: 'second: any news?', at: t0 + 60_000 }], [ANA])));
    await handled(await publish(dms(account, [{ from: ANA.id, text: 'third: hello??', at: t0 + 120_000 }], [{ ...ANA, name: 'Ana L.' }])));
    // The first message arrives last.
    await handled(await publish(dms(account, [{ from: ANA.id, text: 'first: my parcel is late', at: t0 }], [{ ...ANA, name: 'Ana (old name)' }])));

    const items = await tickets(`accountId=${account}`);
    expect(items).toHaveLength(1);
    const detail = await ticket(items[0]!.id);
    expect(detail.activities!.map((a) => a.text)).toEqual(['first: my parcel is late', 'second: any news?', 'third: hello??']);
    expect(detail.subject).toBe('first: my parcel is late');
    expect(detail.lastActivityAt).toBe(new Date(t0 + 120_000).toISOString());
    // The newest profile wins, not the last one processed.
    expect(detail.contact).toMatchObject({ screenName: 'ana', name: 'Ana L.' });
  });

  it('records a redelivered envelope, and the same platform event in another envelope, once', async () => {
    const account = newAccount();
    const delivery = dms(account, [{ from: BOB.id, text: 'refund please' }], [BOB]);
    const envelopeId = await publish(delivery);
    await publish(delivery, envelopeId);
    const otherEnvelope = await publish(delivery);
    await handled(envelopeId, 2);
    await handled(otherEnvelope);

    const items = await tickets(`accountId=${account}`);
    expect(items).toHaveLength(1);
    expect((await ticket(items[0]!.id)).activities).toHaveLength(1);
    expect(await count('SELECT count(*) AS n FROM tickets WHERE account_id = $1', [account])).toBe(1);
    expect(await count('SELECT count(*) AS n FROM activities WHERE account_id = $1', [account])).toBe(1);
    expect(await count('SELECT count(*) AS n FROM contacts WHERE account_id = $1', [account])).toBe(1);
  });

  it('opens a second ticket for a different sender', async () => {
    const account = newAccount();
    await handled(await publish(dms(account, [{ from: ANA.id, text: 'from ana' }, { from: BOB.id, text: 'from bob' }], [ANA, BOB])));
    const items = await tickets(`accountId=${account}`);
    expect(items.map((t) => [t.contact.screenName, t.subject]).sort()).toEqual([
      ['ana', 'from ana'],
      ['bob', 'from bob'],
    ]);
    expect(items[0]!.contact.id).not.toBe(items[1]!.contact.id);
  });

  it('takes ids and timestamps given as numbers', async () => {
    const account = newAccount();
    const at = Date.parse('2026-03-02T08:00:00.000Z');
    const delivery = dmDelivery(
      Number(account),
      [dmEvent({ id: Number(nextEventId()), from: Number(CID.id), to: Number(account), text: 'numeric ids', at, numericTimestamp: true })],
      [{ ...userObject(CID.id, CID.screenName, CID.name), id: Number(CID.id) }],
    );
    await handled(await publish(delivery));
    const [item] = await tickets(`accountId=${account}`);
    expect(item).toMatchObject({ subject: 'numeric ids', contact: { screenName: 'cid' }, lastActivityAt: new Date(at).toISOString() });
  });

  it('keeps one ticket per conversation under concurrent, duplicated deliveries', async () => {
    const account = newAccount();
    const deliveries = Array.from({ length: 20 }, (_, i) => dms(account, [{ from: ANA.id, text: `message ${i}`, at: Date.parse('2026-03-03T00:00:00Z') + i * 1000 }], [ANA]));
    const envelopeIds = await Promise.all([...deliveries, ...deliveries].map((delivery) => publish(delivery)));
    for (const id of envelopeIds) await handled(id);

    const items = await tickets(`accountId=${account}`);
    expect(items).toHaveLength(1);
    const detail = await ticket(items[0]!.id);
    expect(detail.activities!.map((a) => a.text)).toEqual(Array.from({ length: 20 }, (_, i) => `message ${i}`));
    expect(detail.subject).toBe('message 0');
  });

  it('records nothing for a DM the account sent, or for kinds not handled yet, and acknowledges them', async () => {
    const account = newAccount();
    const sent = dmDelivery(account, [dmEvent({ id: nextEventId(), from: account, to: ANA.id, text: 'we are on it', sourceAppId: '13090192' })], [userObject(ANA.id, 'ana', 'Ana')]);
    const like = { for_user_id: account, favorite_events: [{ id: 'a1b2', created_at: 'Mon Mar 26 16:33:26 +0000 2018' }] };
    await handled(await publish(sent));
    await handled(await publish(like, undefined, 'favorite_events'));
    expect(await tickets(`accountId=${account}`)).toEqual([]);
    expect(await count('SELECT count(*) AS n FROM activities WHERE account_id = $1', [account])).toBe(0);
    expect(await queueDepth(`${queue}.dlq`)).toBe(0);
  });
});

describe('ticketing: GET /v1/tickets', () => {
  let account: string;
  let created: TicketBody[];

  beforeAll(async () => {
    account = newAccount();
    for (const [user, text] of [
      [ANA, 'Parcel never arrived'],
      [BOB, 'Wrong size delivered'],
      [CID, 'Invoice question'],
    ] as const) {
      await handled(await publish(dms(account, [{ from: user.id, text }], [user])));
    }
    // A later message of Cid's that is not in any subject, with LIKE wildcards in it.
    await handled(await publish(dms(account, [{ from: CID.id, text: 'my VOUCHER code 100%_off does not work' }], [CID])));
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

  it('searches subjects and activity texts, case-insensitively and literally', async () => {
    expect((await tickets(`accountId=${account}&q=PARCEL`)).map((t) => t.subject)).toEqual(['Parcel never arrived']);
    expect((await tickets(`accountId=${account}&q=voucher`)).map((t) => t.subject)).toEqual(['Invoice question']);
    expect((await tickets(`accountId=${account}&q=${encodeURIComponent('100%_off')}`)).map((t) => t.subject)).toEqual(['Invoice question']);
    expect(await tickets(`accountId=${account}&q=${encodeURIComponent('%')}&status=open`)).toEqual([]);
    expect(await tickets(`accountId=${account}&q=nothing-like-this`)).toEqual([]);
  });

  it('pages with an opaque cursor until nextCursor is null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const path: string = `/v1/tickets?accountId=${account}&limit=1${cursor ? `&cursor=${cursor}` : ''}`;
      const { status, body } = await api<{ items: TicketBody[]; nextCursor: string | null }>(path);
      expect(status).toBe(200);
      expect(body.items).toHaveLength(1);
      seen.push(body.items[0]!.id);
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).toEqual(created.map((t) => t.id));
    expect(pages).toBe(3);

    const first = await api<{ items: TicketBody[]; nextCursor: string }>(`/v1/tickets?accountId=${account}&limit=2`);
    expect(first.body.items.map((t) => t.id)).toEqual(created.slice(0, 2).map((t) => t.id));
    const second = await api<{ items: TicketBody[]; nextCursor: string | null }>(`/v1/tickets?accountId=${account}&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ items: [created[2]], nextCursor: null });
  });

  it('answers 400 naming the parameter for a bad limit, status or cursor', async () => {
    for (const [query, name] of [
      ['limit=0', 'limit'],
      ['limit=500', 'limit'],
      ['limit=abc', 'limit'],
      ['status=maybe', 'status'],
      ['cursor=garbage!', 'cursor'],
    ]) {
      const { status, body } = await api<{ error: { code: string; message: string } }>(`/v1/tickets?${query}`);
      expect(status).toBe(400);
      expect(body.error.code).toBe('invalid_parameter');
      expect(body.error.message).toContain(name!);
    }
  });
});

describe('ticketing: API access and errors', () => {
  it('answers 401 without a token or with a wrong one, on every /v1 route', async () => {
    for (const path of ['/v1/tickets', '/v1/tickets/6f1c1f0e-8a4b-4d7e-9f00-0123456789ab']) {
      const missing = await api<{ error: { code: string } }>(path, null);
      expect(missing.status).toBe(401);
      expect(missing.body.error.code).toBe('unauthorized');
      expect((await api(path, 'wrong-token')).status).toBe(401);
    }
    expect((await api('/v1/tickets?limit=1', 'another-token')).status).toBe(200);
  });

  it('answers health without a token', async () => {
    expect(await api('/health/live', null)).toEqual({ status: 200, body: { status: 'live' } });
    expect(await api('/health/ready', null)).toEqual({ status: 200, body: { status: 'ready', checks: { broker: true, database: true } } });
  });

  it('answers 404 ticket_not_found for an unknown id or a non-uuid', async () => {
    for (const id of ['6f1c1f0e-8a4b-4d7e-9f00-0123456789ab', 'not-a-uuid', '123']) {
      const { status, body } = await api<{ error: { code: string } }>(`/v1/tickets/${id}`);
      expect(status).toBe(404);
      expect(body.error.code).toBe('ticket_not_found');
    }
  });
});

describe('ticketing: deliveries it can never use', () => {
  it('sends an event without its sender to the DLQ at once, with the reason, and records nothing', async () => {
    const account = newAccount();
    const event = dmEvent({ id: nextEventId(), from: ANA.id, to: account, text: 'no sender' }) as { message_create: Record<string, unknown> };
    delete event.message_create.sender_id;
    const envelopeId = await publish(dmDelivery(account, [event as unknown as Record<string, unknown>], [userObject(ANA.id, 'ana', 'Ana')]));

    await waitFor(() => queueDepth(`${queue}.dlq`).then((depth) => depth >= 1), { what: 'the delivery in the DLQ' });
    const dead = (await listDeadLetters(amqpUrl(), queue)).find((letter) => letter.messageId === envelopeId);
    expect(dead?.reason).toMatch(/PermanentFailure: .*direct_message_events\[0\]\.message_create\.sender_id is missing/);
    expect(dead?.attempts).toBe(1);
    expect(await tickets(`accountId=${account}`)).toEqual([]);
  });
});
