/**
 * SLA clocks on durable timers, on the real RabbitMQ and PostgreSQL: two replicas on one
 * database fire a breach once; a timer that came due while no replica ran fires at start;
 * `pending` pauses the resolution clock; at risk comes before the breach. Time is the
 * services' injected clock, moved by the test; nothing sleeps.
 */
import amqplib, { type Channel, type ChannelModel } from 'amqplib';
import pg from 'pg';
import { Exchanges } from '@crm/contracts';

const TicketSlaKeys = { breached: 'ticket.sla_breached', atRisk: 'ticket.sla_at_risk' } as const;
import { capturingLogger, freshDatabase, freshVirtualHost, waitFor, type TestDatabase, type TestVirtualHost, testPool } from '@crm/testing';
import { startTicketing, type RunningTicketing } from './service';
import { dmDelivery, dmEvent, userObject } from './testing/deliveries';
import { apiClient, TestPublisher, testConfig } from './testing/harness';

let vhost: TestVirtualHost;
let db: TestDatabase;
const replicas: RunningTicketing[] = [];
let publisher: TestPublisher;
let pool: pg.Pool;
let connection: ChannelModel;
let channel: Channel;
/** The time every replica reads. */
let now = new Date();
const clock = () => now;
const api = apiClient(() => `http://127.0.0.1:${replicas[0]!.port}`);
const published: { routingKey: string; messageId: string; payload: Record<string, unknown> }[] = [];

let nextAccount = 40_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
const newAccount = () => String((nextAccount += 1));
let eventSeq = 900_000;
const CUSTOMER = { id: '3001969357', screenName: 'ana', name: 'Ana Lima' };

async function startReplica(): Promise<RunningTicketing> {
  const { logger } = capturingLogger('ticketing');
  const config = testConfig({ AMQP_URL: vhost.url, DATABASE_URL: db.url, SLA_TIMER_INTERVAL_MS: 3_600_000, OUTBOX_RELAY_INTERVAL_MS: 3_600_000 });
  const replica = await startTicketing(config, { logger, host: '127.0.0.1', clock });
  replicas.push(replica);
  return replica;
}

beforeAll(async () => {
  [vhost, db] = await Promise.all([freshVirtualHost('ticketing_sla'), freshDatabase('ticketing_sla')]);
  await startReplica();
  await startReplica();
  publisher = new TestPublisher(vhost.url);
  await publisher.ready();
  pool = testPool(db.url, { max: 2 });
  connection = await amqplib.connect(vhost.url);
  channel = await connection.createChannel();
  const { queue } = await channel.assertQueue('', { exclusive: true });
  await channel.bindQueue(queue, Exchanges.crmEvents, 'ticket.#');
  await channel.consume(
    queue,
    (message) => {
      if (!message) return;
      const envelope = JSON.parse(message.content.toString('utf8')) as { payload: Record<string, unknown> };
      published.push({ routingKey: message.fields.routingKey, messageId: String(message.properties.messageId), payload: envelope.payload });
    },
    { noAck: true },
  );
});

afterAll(async () => {
  await connection?.close();
  await publisher?.close();
  for (const replica of replicas) await replica.stop();
  await pool?.end();
  await Promise.all([db?.drop(), vhost?.drop()]);
});

/** Configures a new account and sends it a DM; resolves with the ticket's id and creation time. */
async function openTicket(sla: Record<string, unknown>): Promise<{ accountId: string; ticketId: string; createdAt: Date }> {
  const accountId = newAccount();
  expect((await api.put(`/v1/partner-configs/${accountId}`, { sla })).status).toBe(201);
  eventSeq += 1;
  await publisher.delivery(dmDelivery(accountId, [dmEvent({ id: String(eventSeq), from: CUSTOMER.id, to: accountId, text: 'Where is my order?' })], [userObject(CUSTOMER.id, CUSTOMER.screenName, CUSTOMER.name)]));
  const row = await waitFor(
    async () => (await pool.query<{ id: string; created_at: Date }>('SELECT id, created_at FROM tickets WHERE account_id = $1', [accountId])).rows[0],
    { what: `a ticket for account ${accountId}` },
  );
  return { accountId, ticketId: row!.id, createdAt: row!.created_at };
}

const minutesAfter = (start: Date, minutes: number) => new Date(start.getTime() + minutes * 60_000);

interface SlaJson {
  status: string;
  sla: { firstResponseDueAt: string | null; resolutionDueAt: string | null; breached: boolean; breaches: { kind: string; at: string }[]; atRisk: boolean; paused: boolean };
  activities: { kind: string; text: string | null }[];
}

async function ticket(id: string): Promise<SlaJson> {
  const res = await api.get<SlaJson>(`/v1/tickets/${id}`);
  expect(res.status).toBe(200);
  return res.body;
}

async function setStatus(ticketId: string, status: string, at: Date): Promise<void> {
  now = at;
  await pool.query('UPDATE tickets SET status = $2 WHERE id = $1', [ticketId, status]);
  await replicas[0]!.sla.reevaluateSla(ticketId);
}

const publishedFor = (ticketId: string, key: string) => published.filter((message) => message.payload.ticketId === ticketId && message.routingKey === key);

describe('SLA breaches', () => {
  it('fire once with two replicas polling one database, and again for the other clock across a restart', async () => {
    const { ticketId, createdAt, accountId } = await openTicket({ firstResponseMinutes: 30, resolutionMinutes: 120 });
    expect((await ticket(ticketId)).sla).toMatchObject({ firstResponseDueAt: minutesAfter(createdAt, 30).toISOString(), breached: false, breaches: [] });

    now = minutesAfter(createdAt, 29);
    expect(await Promise.all(replicas.map((replica) => replica.sla.fireDue()))).toEqual([0, 0]);

    now = minutesAfter(createdAt, 31);
    const fired = await Promise.all([...replicas, ...replicas].map((replica) => replica.sla.fireDue()));
    expect(fired.reduce((sum, count) => sum + count, 0)).toBe(1);
    await Promise.all(replicas.map((replica) => replica.relay.kick()));
    await waitFor(() => publishedFor(ticketId, TicketSlaKeys.breached).length === 1, { what: 'ticket.sla_breached published' });
    expect(publishedFor(ticketId, TicketSlaKeys.breached)[0]).toMatchObject({
      messageId: `${TicketSlaKeys.breached}:${ticketId}:first_response`,
      payload: { ticketId, accountId, sla: { clock: 'first_response', dueAt: minutesAfter(createdAt, 30).toISOString() } },
    });
    const breached = await ticket(ticketId);
    expect(breached.sla).toMatchObject({ breached: true, breaches: [{ kind: 'first_response', at: minutesAfter(createdAt, 30).toISOString() }] });
    expect(breached.activities.filter((activity) => activity.kind === 'sla_breached')).toHaveLength(1);

    // Every replica stops; the resolution clock runs out meanwhile; a replica starting later fires it.
    for (const replica of replicas.splice(0)) await replica.stop();
    now = minutesAfter(createdAt, 125);
    await startReplica();
    await waitFor(
      async () => (await pool.query('SELECT 1 FROM sla_timers WHERE ticket_id = $1 AND clock = $2 AND stage = $3 AND fired_at IS NOT NULL', [ticketId, 'resolution', 'breach'])).rowCount === 1,
      { what: 'the resolution breach fired at start' },
    );
    await startReplica();
    expect(await Promise.all(replicas.map((replica) => replica.sla.fireDue()))).toEqual([0, 0]);
    await replicas[0]!.relay.kick();
    await waitFor(() => publishedFor(ticketId, TicketSlaKeys.breached).length === 2, { what: 'the second breach published' });
    expect((await ticket(ticketId)).sla.breaches.map((breach) => breach.kind)).toEqual(['first_response', 'resolution']);
    expect(publishedFor(ticketId, TicketSlaKeys.breached)).toHaveLength(2);
  });

  it('do not come while pending pauses the resolution clock; reopening resumes it with what was left', async () => {
    const { ticketId, createdAt } = await openTicket({ firstResponseMinutes: 100_000, resolutionMinutes: 60 });
    await setStatus(ticketId, 'pending', minutesAfter(createdAt, 10));
    expect((await ticket(ticketId)).sla).toMatchObject({ paused: true, resolutionDueAt: null, breached: false });

    now = minutesAfter(createdAt, 600);
    await Promise.all(replicas.map((replica) => replica.sla.fireDue()));
    expect((await ticket(ticketId)).sla).toMatchObject({ breached: false, breaches: [] });

    // 10 minutes used before the pause: 50 left from the reopening.
    await setStatus(ticketId, 'open', minutesAfter(createdAt, 600));
    expect((await ticket(ticketId)).sla).toMatchObject({ paused: false, resolutionDueAt: minutesAfter(createdAt, 650).toISOString() });
    now = minutesAfter(createdAt, 649);
    expect(await replicas[0]!.sla.fireDue()).toBe(0);
    now = minutesAfter(createdAt, 651);
    expect(await replicas[0]!.sla.fireDue()).toBe(1);
    expect((await ticket(ticketId)).sla.breaches).toEqual([{ kind: 'resolution', at: minutesAfter(createdAt, 650).toISOString() }]);
  });

  it('resolving stops both clocks', async () => {
    const { ticketId, createdAt } = await openTicket({ firstResponseMinutes: 30, resolutionMinutes: 60 });
    await setStatus(ticketId, 'resolved', minutesAfter(createdAt, 5));
    now = minutesAfter(createdAt, 1_000);
    expect(await replicas[0]!.sla.fireDue()).toBe(0);
    expect((await ticket(ticketId)).sla).toMatchObject({ breached: false, firstResponseDueAt: null, resolutionDueAt: null });
  });

  it('warn first: at risk at the configured share, flagged and published, cleared by the breach', async () => {
    const { ticketId, createdAt } = await openTicket({ firstResponseMinutes: 40, resolutionMinutes: 10_000, atRiskPercent: 75 });
    now = minutesAfter(createdAt, 31);
    expect(await replicas[1]!.sla.fireDue()).toBe(1);
    expect((await ticket(ticketId)).sla).toMatchObject({ atRisk: true, breached: false });
    await replicas[1]!.relay.kick();
    await waitFor(() => publishedFor(ticketId, TicketSlaKeys.atRisk).length === 1, { what: 'ticket.sla_at_risk published' });

    now = minutesAfter(createdAt, 41);
    expect(await replicas[0]!.sla.fireDue()).toBe(1);
    expect((await ticket(ticketId)).sla).toMatchObject({ atRisk: false, breached: true });
  });

  it('reevaluateSla answers an unknown ticket with a typed error', async () => {
    await expect(replicas[0]!.sla.reevaluateSla('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ name: 'TicketNotFound' });
  });
});
