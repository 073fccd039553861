import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { commandResultRoutingKey, Exchanges, SocialCommandResult, type SocialCommandResultPayload } from '@crm/contracts';
import { capturingLogger, freshDatabase, freshVirtualHost, waitFor, type TestDatabase, type TestVirtualHost, testPool } from '@crm/testing';
import { parseRanges } from './domain/webhook-addresses';
import { startTicketing, type RunningTicketing } from './service';
import { dmDelivery, dmEvent, userObject } from './testing/deliveries';
import { apiClient, TEST_TOKEN, TestPublisher, testConfig } from './testing/harness';

/** Who the test's bootstrap token (the second of CRM_API_TOKENS) acts as, on the timeline and in events. */
const CRM_PRINCIPAL = 'bootstrap-2';

/**
 * What hears a ticket's changes live, on the real RabbitMQ and PostgreSQL: the CRM's webhook
 * endpoints (signed, retried, dead-lettered, replayed), the server-sent-events stream, and
 * actions on the account's behalf with their outcome.
 */

let vhost: TestVirtualHost;
let db: TestDatabase;
let service: RunningTicketing;
let publisher: TestPublisher;
let pool: pg.Pool;
const api = apiClient(() => `http://127.0.0.1:${service.port}`);

let nextAccount = 30_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
const newAccount = () => String((nextAccount += 1));
let eventSeq = 900_000;
let userSeq = 4_200_000_000;

beforeAll(async () => {
  [vhost, db] = await Promise.all([freshVirtualHost('ticketlive'), freshDatabase('ticket_life_live')]);
  const config = testConfig({ AMQP_URL: vhost.url, DATABASE_URL: db.url });
  // The CRM endpoints below listen on loopback, which webhooks reach only when allowed.
  service = await startTicketing({ ...config, WEBHOOK_RETRY_DELAYS_MS: [30, 60], WEBHOOK_INTERVAL_MS: 20, WEBHOOK_ALLOWED_CIDRS: parseRanges('127.0.0.0/8') }, { logger: capturingLogger('ticketing').logger, host: '127.0.0.1' });
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

async function configuredAccount(): Promise<string> {
  const account = newAccount();
  expect((await api.put(`/v1/partner-configs/${account}`, {})).status).toBe(201);
  return account;
}

/** A customer's DM; resolves with its ticket once recorded. */
async function dm(account: string, text: string, from = String((userSeq += 1))): Promise<string> {
  const eventId = String((eventSeq += 1));
  await publisher.delivery(dmDelivery(account, [dmEvent({ id: eventId, from, to: account, text, at: Date.now() })], [userObject(from, `c${from.slice(-6)}`, 'Customer')]));
  const ticketId = await waitFor(
    async () => (await pool.query<{ ticket_id: string | null }>('SELECT ticket_id FROM activities WHERE account_id = $1 AND platform_event_id = $2', [account, eventId])).rows[0]?.ticket_id ?? undefined,
    { what: `DM ${eventId} on a ticket` },
  );
  return ticketId!;
}

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A CRM endpoint: answers each event id with the statuses given, in turn (200 once they run out). */
async function crmEndpoint(statuses: (id: string, attempt: number) => number): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const attempts = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      const attempt = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, attempt);
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = statuses(id, attempt);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/crm-hook`, received };
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
const payloadOf = (entry: Received) => (JSON.parse(entry.body) as { payload: { type: string; ticketId: string; changes?: Record<string, unknown> } }).payload;

describe('CRM webhooks', () => {
  it('deliver an event signed, the third attempt after two failures', async () => {
    const account = await configuredAccount();
    const id = await dm(account, 'hello');
    const crm = await crmEndpoint((_id, attempt) => (attempt <= 2 ? 503 : 204));
    const created = await api.post<{ id: string; secret: string; url: string; eventTypes: string[] }>('/v1/webhook-endpoints', { url: crm.url, eventTypes: ['ticket.updated'] });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    const listed = await api.get<{ items: Record<string, unknown>[] }>('/v1/webhook-endpoints');
    expect(listed.body.items.find((item) => item.id === created.body.id)).toEqual(expect.not.objectContaining({ secret: expect.anything() }));

    expect((await api.patch(`/v1/tickets/${id}`, { priority: 'high' })).status).toBe(200);
    const mine = () => crm.received.filter((entry) => payloadOf(entry).ticketId === id);
    await waitFor(() => mine().length >= 3, { what: 'three attempts' });
    const attempts = mine();
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((entry) => entry.headers['webhook-id'])).size).toBe(1);
    const last = attempts[2]!;
    const verified = new Webhook(created.body.secret).verify(last.body, last.headers as Record<string, string>) as { payload: { type: string; version: number; changes: Record<string, unknown> } };
    expect(verified.payload).toMatchObject({ type: 'ticket.updated', version: 1, changes: { priority: { from: 'normal', to: 'high' } } });
    await waitFor(async () => (await pool.query(`SELECT status FROM webhook_deliveries WHERE event_id = $1`, [last.headers['webhook-id']])).rows[0]?.status === 'delivered', { what: 'delivered' });
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(last.body, last.headers as Record<string, string>)).toThrow();

    expect((await api.delete(`/v1/webhook-endpoints/${created.body.id}`)).status).toBe(204);
    expect((await api.get(`/v1/webhook-endpoints/${created.body.id}/failures`)).status).toBe(404);
    await closeServer(crm.server);
  });

  it('list what failed every attempt, and replay one event', async () => {
    const account = await configuredAccount();
    const id = await dm(account, 'hello');
    let healthy = false;
    const crm = await crmEndpoint(() => (healthy ? 200 : 500));
    const { body: endpoint } = await api.post<{ id: string }>('/v1/webhook-endpoints', { url: crm.url, eventTypes: ['ticket.updated'] });
    await api.patch(`/v1/tickets/${id}`, { tags: ['late'] });
    const dead = await waitFor(
      async () => {
        const { body } = await api.get<{ items: { eventId: string; eventType: string; attempts: number; lastError: string }[] }>(`/v1/webhook-endpoints/${endpoint.id}/failures`);
        return body.items.length > 0 ? body.items : undefined;
      },
      { what: 'a dead delivery' },
    );
    const failures = dead!;
    expect(failures[0]).toMatchObject({ eventType: 'ticket.updated', attempts: 3, lastError: 'the endpoint answered 500' });

    healthy = true;
    expect((await api.post(`/v1/webhook-endpoints/${endpoint.id}/replay`, { eventId: failures[0]!.eventId })).status).toBe(202);
    await waitFor(() => crm.received.some((entry) => entry.headers['webhook-id'] === failures[0]!.eventId && payloadOf(entry).changes !== undefined) && crm.received.length === 4, { what: 'the replay' });
    await waitFor(async () => (await api.get<{ items: unknown[] }>(`/v1/webhook-endpoints/${endpoint.id}/failures`)).body.items.length === 0, { what: 'no failures left' });
    expect((await api.post(`/v1/webhook-endpoints/${endpoint.id}/replay`, { eventId: 'never-sent' })).status).toBe(404);
    await api.delete(`/v1/webhook-endpoints/${endpoint.id}`);
    await closeServer(crm.server);
  });

  it('refuses a bad endpoint naming the field', async () => {
    for (const [body, field] of [
      [{ url: 'ftp://crm.example' }, 'body.url'],
      [{ url: 'https://ana:secret@crm.example/hook' }, '/url must not carry credentials'],
      [{ url: 'https://crm.example/hook', eventTypes: ['ticket.exploded'] }, 'body.eventTypes[0]'],
      [{ url: 'https://crm.example/hook', colour: 'red' }, 'colour'],
    ] as const) {
      const refused = await api.post<{ error: { code: string; message: string } }>('/v1/webhook-endpoints', body);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain(field);
    }
  });
});

describe('the live stream', () => {
  it('delivers a created ticket as a server-sent event', async () => {
    const account = await configuredAccount();
    const abort = new AbortController();
    const response = await fetch(`http://127.0.0.1:${service.port}/v1/events?accountId=${account}`, { headers: { authorization: `Bearer ${TEST_TOKEN}` }, signal: abort.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${needle}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    await readUntil(': connected');
    const id = await dm(account, 'live one');
    await readUntil(`"ticketId":"${id}"`);
    await readUntil('\n\n');
    const event = text.split('\n\n').find((chunk) => chunk.includes(`"ticketId":"${id}"`))!;
    expect(event).toContain('event: ticket.created');
    const data = JSON.parse(event.split('\n').find((line) => line.startsWith('data: '))!.slice(6)) as { type: string; ticket: { id: string; status: string } };
    expect(data).toMatchObject({ type: 'ticket.created', ticket: { id, status: 'open' } });
    abort.abort();
  });
});

describe('actions on the account’s behalf', () => {
  it('send the command through the outbox and show the action with its outcome on the timeline', async () => {
    const account = await configuredAccount();
    const id = await dm(account, 'please follow us back');
    const asked = await api.post<{ activityId: string; status: string }>(`/v1/tickets/${id}/actions`, { action: 'follow' });
    expect(asked).toMatchObject({ status: 202, body: { status: 'pending' } });
    const command = await waitFor(
      async () => (await pool.query('SELECT count(*)::int AS n FROM outbox WHERE exchange = $1', [Exchanges.socialCommands])).rows[0].n === 0,
      { what: 'the command published' },
    );
    expect(command).toBe(true);
    const { rows } = await pool.query<{ platform_user_id: string }>('SELECT c.platform_user_id FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE t.id = $1', [id]);
    const result: SocialCommandResultPayload = {
      commandId: asked.body.activityId,
      action: 'follow',
      accountId: account,
      outcome: 'failed',
      platformId: null,
      data: null,
      error: { code: 'platform_rejected', message: 'You are unable to follow more people at this time.', platformCode: 161, platformStatus: 403 },
      context: { ticketId: id, activityId: asked.body.activityId },
      completedAt: new Date().toISOString(),
    };
    await publisher.envelope(Exchanges.socialCommandResults, commandResultRoutingKey('follow', 'failed'), SocialCommandResult, result);
    const entry = await waitFor(
      async () => {
        const { body } = await api.get<{ activities: { id: string; kind: string; status: string; by: string; data: { input: unknown }; failure: unknown }[] }>(`/v1/tickets/${id}`);
        const found = body.activities.find((activity) => activity.id === asked.body.activityId);
        return found?.status === 'failed' ? found : undefined;
      },
      { what: 'the outcome' },
    );
    expect(entry).toMatchObject({ kind: 'action', by: CRM_PRINCIPAL, data: { input: { userId: rows[0]!.platform_user_id } }, failure: { code: 'platform_rejected', platformCode: 161 } });
    expect((await api.post(`/v1/tickets/${id}/actions`, { action: 'poke' })).status).toBe(400);
    expect((await api.post(`/v1/tickets/${id}/actions`, { action: 'like' })).status).toBe(409);
  });
});
