/**
 * The silence alarm against the real PostgreSQL and RabbitMQ, on a clock the test moves: an
 * account with its usual traffic that goes quiet raises account.silent once (on account.events
 * and crm.events, the metric moves, the account shows it), a delivery ends it once with
 * account.delivering; an account without usual traffic, or not connected, never alarms; two
 * replicas checking at once announce one silence. Past deliveries are written to the raw log
 * with their past receipt times, as the consumer would have logged them.
 */
import { createHash, randomUUID } from 'node:crypto';
import amqplib from 'amqplib';
import prometheus from 'prom-client';
import { Exchanges, validateEnvelope, type Envelope } from '@crm/contracts';
import { testLogger, waitFor } from '@crm/testing';
import { startTicketing, type RunningTicketing } from './service';
import { dmDelivery, dmEvent } from './testing/deliveries';
import { apiClient, HandledMessages, testConfig, ticketingUnderTest, type TicketingUnderTest } from './testing/harness';
import { decideSilence, type AccountTraffic } from './domain/silence';
import { parseRanges } from './domain/webhook-addresses';

const MINUTE = 60_000;
const SETTINGS = {
  SILENCE_AFTER_MINUTES: 60,
  SILENCE_LOOKBACK_HOURS: 24,
  SILENCE_MIN_DELIVERIES: 5,
  SILENCE_CHECK_INTERVAL_MS: 3_600_000,
  // the CRM webhook endpoint below is on loopback, which webhooks reach only when allowed
  WEBHOOK_ALLOWED_CIDRS: parseRanges('127.0.0.0/8'),
};

let stack: TicketingUnderTest;
let now = new Date();
const logged = new HandledMessages();
const api = apiClient(() => `http://127.0.0.1:${stack.service.port}`);

/** What ticketing published on account.events and crm.events, by routing key. */
const heard: { exchange: string; routingKey: string; envelope: Envelope<Record<string, unknown>> }[] = [];
let listener: amqplib.ChannelModel;

beforeAll(async () => {
  stack = await ticketingUnderTest('silence', SETTINGS, { clock: () => now, onRawLogged: logged.note });
  await stack.service.silenceChecks.runNow(); // the check at start, over before the tests write deliveries
  listener = await amqplib.connect(stack.vhost.url);
  const channel = await listener.createChannel();
  const { queue } = await channel.assertQueue('', { exclusive: true });
  for (const exchange of [Exchanges.accountEvents, Exchanges.crmEvents]) await channel.bindQueue(queue, exchange, 'account.#');
  await channel.consume(
    queue,
    (message) => {
      if (!message) return;
      const envelope = validateEnvelope(JSON.parse(message.content.toString('utf8'))) as Envelope<Record<string, unknown>>;
      heard.push({ exchange: message.fields.exchange, routingKey: message.fields.routingKey, envelope });
    },
    { noAck: true },
  );
});

afterAll(async () => {
  await listener?.close();
  await stack?.stop();
});

const heardOf = (exchange: string, routingKey: string, accountId: string) =>
  heard.filter((m) => m.exchange === exchange && m.routingKey === routingKey && m.envelope.payload.accountId === accountId);

async function connected(accountId: string, status = 'connected'): Promise<void> {
  await stack.service.pool.query(`INSERT INTO accounts (account_id, status, status_changed_at) VALUES ($1, $2, now() - interval '30 days')`, [accountId, status]);
}

/** Deliveries for the account received at the given times, logged in that order (as the consumer logs them). */
async function logDeliveries(accountId: string, receivedAt: Date[]): Promise<void> {
  for (const at of receivedAt) {
    const body = `{"for_user_id":"${accountId}","at":"${at.toISOString()}","n":"${randomUUID()}"}`;
    const sha = createHash('sha256').update(body).digest('hex');
    await stack.service.pool.query(
      `INSERT INTO raw_log (delivery_id, env_name, kind, for_user_id, received_at, logged_at, body_sha256, message) VALUES ($1, 'test', 'direct_message_events', $2, $3, $3, $4, convert_to($5, 'UTF8'))`,
      [`delivery-${sha}`, accountId, at, sha, body],
    );
  }
}

const minutesBefore = (at: Date, ...minutes: number[]) => minutes.map((m) => new Date(at.getTime() - m * MINUTE));

async function metric(name: string): Promise<number> {
  const values = (await prometheus.register.getSingleMetric(name)!.get()).values;
  return values.reduce((sum, value) => sum + value.value, 0);
}

/** Publishes what the check put in the outbox and waits until the listener heard `routingKey` of the account on both exchanges. */
async function published(routingKey: string, accountId: string): Promise<void> {
  await stack.service.relay.kick();
  await waitFor(() => [Exchanges.accountEvents, Exchanges.crmEvents].every((exchange) => heardOf(exchange, routingKey, accountId).length > 0), { what: `${routingKey} of ${accountId}` });
}

describe('decideSilence (pure)', () => {
  const settings = { silentAfterMs: 60 * MINUTE, lookbackMs: 24 * 60 * MINUTE, minDeliveries: 5 };
  const at = new Date('2026-03-02T12:00:00Z');
  const traffic = (over: Partial<AccountTraffic>): AccountTraffic => ({
    accountId: '1',
    connected: true,
    last: { seq: '10', at: new Date(at.getTime() - 61 * MINUTE) },
    nthNewestAt: new Date(at.getTime() - 5 * 60 * MINUTE),
    open: null,
    resumedAt: null,
    ...over,
  });

  it('is silent past the threshold with usual traffic, and not before it, without it or disconnected', () => {
    expect(decideSilence(traffic({}), at, settings)).toEqual({ kind: 'silent', accountId: '1', silentSince: new Date(at.getTime() - 61 * MINUTE), lastSeq: '10' });
    expect(decideSilence(traffic({ last: { seq: '10', at: new Date(at.getTime() - 59 * MINUTE) } }), at, settings)).toBeNull();
    expect(decideSilence(traffic({ nthNewestAt: null }), at, settings)).toBeNull();
    expect(decideSilence(traffic({ nthNewestAt: new Date(at.getTime() - 25 * 60 * MINUTE) }), at, settings)).toBeNull();
    expect(decideSilence(traffic({ connected: false }), at, settings)).toBeNull();
  });

  it('ends an open silence once a delivery came after it, and keeps it otherwise', () => {
    const open = { id: '7', silentSince: new Date(at.getTime() - 90 * MINUTE) };
    expect(decideSilence(traffic({ open }), at, settings)).toBeNull();
    expect(decideSilence(traffic({ open, resumedAt: at, connected: false }), at, settings)).toEqual({ kind: 'delivering', accountId: '1', silence: open, resumedAt: at });
  });
});

describe('the silence alarm', () => {
  it('raises account.silent once for an account with usual traffic that went quiet, moves the metrics and shows it on the account', async () => {
    now = new Date();
    const usual = '5001';
    const quietFew = '5002';
    const revoked = '5003';
    await connected(usual);
    await connected(quietFew);
    await connected(revoked, 'revoked');
    const lastDelivery = new Date(now.getTime() - 61 * MINUTE);
    await logDeliveries(usual, [...minutesBefore(now, 600, 400, 300, 200, 100), lastDelivery]);
    await logDeliveries(quietFew, minutesBefore(now, 300, 200, 100)); // fewer than usual: 3 < 5
    await logDeliveries(revoked, minutesBefore(now, 600, 400, 300, 200, 100, 90));
    const raised = await metric('account_silences_raised_total');
    // A CRM webhook endpoint that wants the silence alarm's events (nothing listens there: the delivery rows are what counts).
    const endpoint = await api.post<{ id: string }>('/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', eventTypes: ['account.silent', 'account.delivering'] });
    expect(endpoint.status).toBe(201);

    expect(await stack.service.silences.check()).toEqual({ skipped: false, silent: [usual], delivering: [] });
    expect(await stack.service.silences.check()).toEqual({ skipped: false, silent: [], delivering: [] });
    now = new Date(now.getTime() + 120 * MINUTE); // later still: the same silence, and still no alarm for the others
    expect(await stack.service.silences.check()).toEqual({ skipped: false, silent: [], delivering: [] });
    await published('account.silent', usual);

    const [event] = heardOf(Exchanges.accountEvents, 'account.silent', usual);
    expect(heardOf(Exchanges.accountEvents, 'account.silent', usual)).toHaveLength(1);
    expect(event!.envelope).toMatchObject({
      type: 'account.silent.v1',
      producer: 'ticketing',
      payload: { accountId: usual, silentSince: lastDelivery.toISOString(), silentAfterMinutes: 60, usualDeliveries: { atLeast: 5, lookbackHours: 24 } },
    });
    expect(heardOf(Exchanges.crmEvents, 'account.silent', usual).map((m) => m.envelope)).toEqual([
      expect.objectContaining({ type: 'crm.account.silent.v1', payload: { type: 'account.silent', version: 1, actor: 'system', accountId: usual, silence: { silentSince: lastDelivery.toISOString(), detectedAt: expect.any(String), resumedAt: null } } }),
    ]);
    for (const other of [quietFew, revoked]) expect(heard.filter((m) => m.envelope.payload.accountId === other)).toEqual([]);

    const { rows: webhooks } = await stack.service.pool.query('SELECT event_id, event_type FROM webhook_deliveries WHERE endpoint_id = $1', [endpoint.body.id]);
    expect(webhooks).toEqual([{ event_id: `crm.account.silent:${usual}:${lastDelivery.toISOString()}`, event_type: 'account.silent' }]);
    expect(await metric('account_silences_raised_total')).toBe(raised + 1);
    expect(await metric('silent_accounts')).toBe(1);
    expect((await api.get(`/v1/accounts/${usual}`)).body).toMatchObject({ accountId: usual, silence: { silentSince: lastDelivery.toISOString() } });
    expect((await api.get(`/v1/accounts/${quietFew}`)).body).toMatchObject({ silence: null });
  });

  it('ends the silence once with account.delivering when a delivery comes', async () => {
    now = new Date();
    const usual = '5001';
    const id = await stack.publisher.delivery(dmDelivery(usual, [dmEvent({ id: '990001', from: '777', to: usual, text: 'anyone there?' })]));
    await logged.wait(id);

    expect(await stack.service.silences.check()).toEqual({ skipped: false, silent: [], delivering: [usual] });
    expect(await stack.service.silences.check()).toEqual({ skipped: false, silent: [], delivering: [] });
    await published('account.delivering', usual);

    const delivering = heardOf(Exchanges.accountEvents, 'account.delivering', usual);
    expect(delivering).toHaveLength(1);
    const { rows } = await stack.service.pool.query<{ received_at: Date }>('SELECT received_at FROM raw_log WHERE delivery_id = $1', [id]);
    expect(delivering[0]!.envelope.payload).toMatchObject({ accountId: usual, resumedAt: rows[0]!.received_at.toISOString() });
    expect(heardOf(Exchanges.crmEvents, 'account.delivering', usual)).toHaveLength(1);
    expect(await metric('silent_accounts')).toBe(0);
    expect((await api.get(`/v1/accounts/${usual}`)).body).toMatchObject({ silence: null });
  });

  it('announces one silence when two replicas check at once', async () => {
    const second: RunningTicketing = await startTicketing(testConfig({ AMQP_URL: stack.vhost.url, DATABASE_URL: stack.db.url, ...SETTINGS }), {
      logger: testLogger('ticketing-silence-2'),
      host: '127.0.0.1',
      clock: () => now,
    });
    try {
      await second.silenceChecks.runNow(); // its first check, at start, is over before the account goes quiet
      now = new Date();
      const account = '5004';
      await connected(account);
      await logDeliveries(account, minutesBefore(now, 500, 400, 300, 200, 100, 70));
      const raised = await metric('account_silences_raised_total');
      const outcomes = await Promise.all([stack.service.silences.check(), second.silences.check()]);
      expect(outcomes.flatMap((outcome) => outcome.silent)).toEqual([account]);
      await Promise.all([stack.service.relay.kick(), second.relay.kick()]);
      await waitFor(() => heardOf(Exchanges.crmEvents, 'account.silent', account).length === 1, { what: 'the CRM event' });
      expect(heardOf(Exchanges.accountEvents, 'account.silent', account)).toHaveLength(1);
      expect(await metric('account_silences_raised_total')).toBe(raised + 1);
      const { rows } = await stack.service.pool.query('SELECT * FROM account_silences WHERE account_id = $1', [account]);
      expect(rows).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });
});
