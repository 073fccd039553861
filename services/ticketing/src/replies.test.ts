/**
 * Replies from a ticket, ticketing alone on the real RabbitMQ and PostgreSQL: this test plays
 * auth (it reads `auth.commands` and publishes results on `social.command-results`) and
 * webhook-ingest (echo deliveries as the simulator builds them).
 */
import amqplib, { type Channel, type ChannelModel } from 'amqplib';
import pg from 'pg';
import {
  AccountConnected,
  AccountNeedsReconnect,
  AuthAccountEventKeys,
  commandResultRoutingKey,
  Exchanges,
  Queues,
  SocialCommand,
  SocialCommandResult,
  type CommandError,
  type SocialCommandPayload,
  type SocialCommandResultPayload,
} from '@crm/contracts';
import { makeEnvelope } from '@crm/messaging';
import { appRevoked, postCreated } from '@crm/social-platform-simulator/src/activity-deliveries';
import { directMessageReceived, directMessageSent } from '@crm/social-platform-simulator/src/deliveries';
import { freshDatabase, freshVirtualHost, testLogger, waitFor, type TestDatabase, type TestVirtualHost, testPool } from '@crm/testing';
import { TicketingStore } from './adapters/db/store';
import { startTicketing, type RunningTicketing } from './service';
import { apiClient, HandledMessages, TestPublisher, testConfig, TEST_TOKEN } from './testing/harness';

let vhost: TestVirtualHost;
let db: TestDatabase;
let service: RunningTicketing;
let publisher: TestPublisher;
let pool: pg.Pool;
const handled = new HandledMessages();
let connection: ChannelModel;
let channel: Channel;
const api = apiClient(() => `http://127.0.0.1:${service.port}`);

/** Commands ticketing published, as auth's queue received them. */
const commands: { routingKey: string; messageId: string; payload: SocialCommandPayload }[] = [];

let nextAccount = 20_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
const newAccount = () => String((nextAccount += 1));
let eventSeq = 700_000;
const nextEventId = () => String((eventSeq += 1));

const ANA = { id: '3001969357', screenName: 'ana', name: 'Ana Lima' };

beforeAll(async () => {
  [vhost, db] = await Promise.all([freshVirtualHost('ticketing_replies'), freshDatabase('ticketing_replies')]);
  service = await startTicketing(testConfig({ AMQP_URL: vhost.url, DATABASE_URL: db.url, OUTBOX_RELAY_INTERVAL_MS: 300 }), { logger: testLogger('ticketing'), host: '127.0.0.1', onHandled: handled.note });
  publisher = new TestPublisher(vhost.url);
  await publisher.ready();
  pool = testPool(db.url, { max: 2 });
  connection = await amqplib.connect(vhost.url);
  channel = await connection.createChannel();
  await channel.consume(
    Queues.authCommands,
    (message) => {
      if (!message) return;
      const envelope = JSON.parse(message.content.toString('utf8')) as { payload: SocialCommandPayload };
      commands.push({ routingKey: message.fields.routingKey, messageId: String(message.properties.messageId), payload: envelope.payload });
    },
    { noAck: true },
  );
});

afterAll(async () => {
  await connection?.close();
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
  platformEventId: string | null;
  status: string | null;
  failure: { code: string; message: string; platformCode: number | null } | null;
}
interface Ticket {
  id: string;
  channel: string;
  sla: { firstResponseDueAt: string; resolutionDueAt: string; firstRespondedAt: string | null };
  activities: Activity[];
}

async function deliver(delivery: object): Promise<void> {
  await handled.wait(await publisher.delivery(delivery));
}

async function configure(account: string): Promise<void> {
  expect((await api.put(`/v1/partner-configs/${account}`, {})).status).toBe(201);
}

async function ticketsOf(account: string): Promise<Ticket[]> {
  const list = await api.get<{ items: Ticket[] }>(`/v1/tickets?accountId=${account}`);
  return Promise.all(list.body.items.map(async (t) => (await api.get<Ticket>(`/v1/tickets/${t.id}`)).body));
}

async function onlyTicket(account: string): Promise<Ticket> {
  const all = await ticketsOf(account);
  expect(all).toHaveLength(1);
  return all[0]!;
}

const reply = async (ticketId: string, body: unknown) => {
  const response = await fetch(`http://127.0.0.1:${service.port}/v1/tickets/${ticketId}/replies`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const commandFor = async (activityId: string) => (await waitFor(() => commands.find((c) => c.payload.commandId === activityId), { what: `the command of ${activityId}` }))!;

/** What auth publishes when it has carried the command out. */
async function result(command: SocialCommandPayload, outcome: SocialCommandResultPayload['outcome'], fields: { platformId?: string; error?: CommandError } = {}): Promise<void> {
  const payload: SocialCommandResultPayload = {
    commandId: command.commandId,
    action: command.action,
    accountId: command.accountId,
    outcome,
    platformId: fields.platformId ?? null,
    data: outcome === 'succeeded' ? { id_str: fields.platformId } : null,
    error: fields.error ?? null,
    ...(command.context ? { context: command.context } : {}),
    completedAt: new Date().toISOString(),
  };
  await publisher.envelope(Exchanges.socialCommandResults, commandResultRoutingKey(command.action, outcome), SocialCommandResult, payload, `result-${command.commandId}`);
}

const activityOf = async (account: string, activityId: string) => (await onlyTicket(account)).activities.find((a) => a.id === activityId);
const settled = (account: string, activityId: string, status: string) =>
  waitFor(async () => ((await activityOf(account, activityId))?.status === status ? activityOf(account, activityId) : undefined), { what: `activity ${activityId} ${status}` });

async function dmTicket(): Promise<{ account: string; ticket: Ticket }> {
  const account = newAccount();
  await configure(account);
  await deliver(directMessageReceived({ account, customer: ANA, text: 'where is my order 42?' }));
  return { account, ticket: await onlyTicket(account) };
}

describe('a reply on a DM ticket', () => {
  it('is pending, sent as send_dm to the contact, becomes sent with the platform id, and its echo stays one activity', async () => {
    const { account, ticket } = await dmTicket();
    expect(ticket.sla.firstRespondedAt).toBeNull();
    const answer = await reply(ticket.id, { text: 'It left the warehouse today.' });
    expect(answer).toEqual({ status: 202, body: { activityId: expect.any(String), status: 'pending' } });
    const activityId = answer.body.activityId as string;

    const pending = await activityOf(account, activityId);
    expect(pending).toMatchObject({ kind: 'dm_sent', direction: 'outbound', text: 'It left the warehouse today.', platformEventId: null, status: 'pending', failure: null });

    const command = await commandFor(activityId);
    expect(command).toEqual({
      routingKey: 'send_dm',
      messageId: `command-${activityId}`,
      payload: { commandId: activityId, action: 'send_dm', accountId: account, input: { recipientId: ANA.id, text: 'It left the warehouse today.' }, context: { ticketId: ticket.id, activityId } },
    });

    const dmId = nextEventId();
    await result(command.payload, 'succeeded', { platformId: dmId });
    const sent = await settled(account, activityId, 'sent');
    expect(sent).toMatchObject({ platformEventId: dmId, failure: null });

    await deliver(directMessageSent({ account, customer: ANA, text: 'It left the warehouse today.', eventId: dmId }));
    await result(command.payload, 'succeeded', { platformId: dmId }); // auth publishes a stored result again on redelivery
    await handled.wait(`result-${activityId}`, 2);

    const after = await onlyTicket(account);
    expect(after.activities.map((a) => [a.direction, a.kind, a.platformEventId, a.status])).toEqual([
      ['inbound', 'dm_received', expect.any(String), null],
      ['outbound', 'dm_sent', dmId, 'sent'],
    ]);
    expect(after.sla.firstRespondedAt).toEqual(expect.any(String));
  });

  it('carries an image uploaded through auth: the command names its media id, the activity lists it, with or without text', async () => {
    const { account, ticket } = await dmTicket();
    const answer = await reply(ticket.id, { text: 'Here is your label.', attachment: { mediaId: '1880000000000000001' } });
    expect(answer.status).toBe(202);
    const activityId = answer.body.activityId as string;
    const command = await commandFor(activityId);
    expect(command.payload.input).toEqual({ recipientId: ANA.id, text: 'Here is your label.', mediaId: '1880000000000000001' });
    expect(await activityOf(account, activityId)).toMatchObject({ kind: 'dm_sent', text: 'Here is your label.', attachments: [{ type: 'photo', url: null, mediaId: '1880000000000000001' }], status: 'pending' });

    const imageOnly = (await reply(ticket.id, { attachment: { mediaId: '1880000000000000002' } })).body.activityId as string;
    expect((await commandFor(imageOnly)).payload.input).toEqual({ recipientId: ANA.id, mediaId: '1880000000000000002' });
    expect(await activityOf(account, imageOnly)).toMatchObject({ text: '', attachments: [{ type: 'photo', url: null, mediaId: '1880000000000000002' }] });
  });

  it('folds an echo that arrives before the result into the reply', async () => {
    const { account, ticket } = await dmTicket();
    const { body } = await reply(ticket.id, { text: 'Checking now.' });
    const activityId = body.activityId as string;
    const command = await commandFor(activityId);

    const dmId = nextEventId();
    await deliver(directMessageSent({ account, customer: ANA, text: 'Checking now.', eventId: dmId }));
    expect((await onlyTicket(account)).activities.filter((a) => a.direction === 'outbound')).toHaveLength(2);

    await result(command.payload, 'succeeded', { platformId: dmId });
    await settled(account, activityId, 'sent');
    const outbound = (await onlyTicket(account)).activities.filter((a) => a.direction === 'outbound');
    expect(outbound).toEqual([expect.objectContaining({ id: activityId, platformEventId: dmId, status: 'sent' })]);
  });

  it('shows an unknown outcome with its reason', async () => {
    const { account, ticket } = await dmTicket();
    const activityId = (await reply(ticket.id, { text: 'One moment.' })).body.activityId as string;
    const command = await commandFor(activityId);
    await result(command.payload, 'unknown', { error: { code: 'outcome_unknown', message: 'no answer within 10000 ms: the send_dm may or may not have happened', platformCode: null, platformStatus: null } });
    expect(await settled(account, activityId, 'unknown')).toMatchObject({
      platformEventId: null,
      failure: { code: 'outcome_unknown', message: 'no answer within 10000 ms: the send_dm may or may not have happened', platformCode: null },
    });
    expect((await onlyTicket(account)).sla.firstRespondedAt).toBeNull();
  });
});

describe('a reply on a public ticket', () => {
  it('answers the last inbound post with a reply command; a refusal shows failed with the platform\'s reason', async () => {
    const account = newAccount();
    await configure(account);
    const first = nextEventId();
    const second = nextEventId();
    await deliver(postCreated({ account, author: ANA, text: '@acme my parcel is late', mentions: [account], eventId: first }));
    await deliver(postCreated({ account, author: ANA, text: 'still nothing', inReplyTo: { id: first, author: ANA }, mentions: [account], eventId: second }));
    const ticket = await onlyTicket(account);
    expect(ticket.channel).toBe('public');
    expect(ticket.activities.map((a) => a.platformEventId)).toEqual([first, second]);

    const activityId = (await reply(ticket.id, { text: 'Sorry! Sending a DM with details.' })).body.activityId as string;
    const command = await commandFor(activityId);
    expect(command.routingKey).toBe('reply');
    expect(command.payload).toMatchObject({ action: 'reply', accountId: account, input: { inReplyToPostId: second, text: 'Sorry! Sending a DM with details.' } });
    expect(await activityOf(account, activityId)).toMatchObject({ kind: 'reply_by_account', direction: 'outbound', status: 'pending' });

    await result(command.payload, 'failed', {
      error: { code: 'platform_rejected', message: 'You attempted to reply to a Tweet that is deleted or not visible to you.', platformCode: 385, platformStatus: 403 },
    });
    expect(await settled(account, activityId, 'failed')).toMatchObject({
      platformEventId: null,
      failure: { code: 'platform_rejected', message: 'You attempted to reply to a Tweet that is deleted or not visible to you.', platformCode: 385 },
    });
  });
});

describe('refused replies store and send nothing', () => {
  // Commands only: the CRM's events of the same tickets go through the outbox too.
  const outboxSize = async () => Number((await pool.query(`SELECT count(*) AS n FROM outbox WHERE exchange = 'social.commands'`)).rows[0].n);

  it('a bad text is a 400 naming the field; an unknown ticket a 404', async () => {
    const account = newAccount();
    await configure(account);
    await deliver(postCreated({ account, author: ANA, text: '@acme hello', mentions: [account], eventId: nextEventId() }));
    const ticket = await onlyTicket(account);
    const before = commands.length;

    // The OpenAPI document's checks come first (`body.`); the length on a public ticket is the command's contract (`/text`).
    for (const [body, field] of [
      [{}, 'body.text is required'],
      [{ attachment: { mediaId: 'photo.png' } }, 'body.attachment.mediaId must match pattern'],
      [{ text: 'see this', attachment: { mediaId: '4242' } }, 'Images can be attached to direct messages only'],
      [{ text: 42 }, 'body.text must be string'],
      [{ text: '  \n ' }, 'body.text must match pattern'],
      [{ text: 'hi', to: 'someone' }, 'to'],
      [{ text: 'x'.repeat(281) }, "The reply is 281 characters long; a public reply can have at most 280 (the platform's limit). Shorten it and send it again."],
    ] as const) {
      const answer = await reply(ticket.id, body);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'invalid_reply', message: expect.stringContaining(field) });
    }
    expect((await reply('6f1c1a4e-0000-4000-8000-000000000000', { text: 'hi' })).status).toBe(404);
    expect((await reply('not-a-ticket', { text: 'hi' })).body.error).toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining('path.id must match pattern') });

    expect((await onlyTicket(account)).activities).toHaveLength(1);
    expect(await outboxSize()).toBe(0);
    expect(commands.length).toBe(before);
  });

  it("an over-long DM reply is a 400 in a sentence with the platform's limit", async () => {
    const { ticket } = await dmTicket();
    const answer = await reply(ticket.id, { text: 'x'.repeat(10_001) });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({ code: 'invalid_reply', message: "The reply is 10001 characters long; a direct message can have at most 10000 (the platform's limit). Shorten it and send it again." });
  });

  it('a reply to a ticket merged meanwhile is a 409 naming the ticket it went into', async () => {
    const { account, ticket } = await dmTicket();
    await deliver(directMessageReceived({ account, customer: { id: '3001969358', screenName: 'bea', name: 'Bea Souza' }, text: 'and mine?' }));
    const other = (await ticketsOf(account)).find((t) => t.id !== ticket.id)!;
    expect((await api.post(`/v1/tickets/${other.id}/merge`, { sourceIds: [ticket.id] })).status).toBe(200);
    const before = commands.length;
    const answer = await reply(ticket.id, { text: 'It left the warehouse today.' });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toEqual({ code: 'ticket_merged', message: `This ticket was merged into ticket ${other.id} while you were writing: open that ticket and send your reply from there (nothing was sent).` });
    expect(commands.length).toBe(before);
  });

  it('a ticket whose account needs a reconnect is a 409 saying so', async () => {
    const { account, ticket } = await dmTicket();
    await publisher.envelope(Exchanges.accountEvents, AuthAccountEventKeys.needsReconnect, AccountNeedsReconnect, {
      accountId: account,
      screenName: 'acme',
      envName: 'test',
      consumerKey: 'consumer-key-123',
      accessTokenMasked: 'abcd…wxyz',
      reason: { platformCode: 89, message: 'Invalid or expired token.' },
      detectedAt: new Date().toISOString(),
    });
    await waitFor(async () => (await api.get<{ status: string }>(`/v1/accounts/${account}`)).body.status === 'needs_reconnect', { what: 'account needs a reconnect' });
    const answer = await reply(ticket.id, { text: 'hello?' });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toEqual({ code: 'account_unavailable', message: expect.stringContaining('must be connected again') });
    expect((await onlyTicket(account)).activities).toHaveLength(1);
  });

  it('a revoke in the same second as the connection wins (the platform gives revoke times to the second), also over a redelivered connection', async () => {
    const { account, ticket } = await dmTicket();
    const connected = {
      accountId: account,
      screenName: 'acme',
      envName: 'test',
      consumerKey: 'consumer-key-123',
      accessTokenMasked: 'abcd…wxyz',
      name: null,
      via: 'oauth' as const,
      connectedAt: '2026-08-01T10:00:00.300Z',
    };
    const status = async () => (await api.get<{ status: string; statusChangedAt: string }>(`/v1/accounts/${account}`)).body;
    await publisher.envelope(Exchanges.accountEvents, AuthAccountEventKeys.connected, AccountConnected, connected);
    await waitFor(async () => (await status()).status === 'connected', { what: 'account connected' });
    // The revoke delivery, as webhook-ingest publishes it: ticketing records it itself.
    await deliver(appRevoked({ account, createdAt: Date.parse('2026-08-01T10:00:00Z') }));
    await waitFor(async () => (await status()).status === 'revoked', { what: 'account revoked' });
    const redelivered = await publisher.envelope(Exchanges.accountEvents, AuthAccountEventKeys.connected, AccountConnected, connected);
    await handled.wait(redelivered.id);
    expect(await status()).toMatchObject({ status: 'revoked', statusChangedAt: '2026-08-01T10:00:00.000Z' });
    const answer = await reply(ticket.id, { text: 'hello?' });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({ code: 'account_unavailable', message: expect.stringContaining('revoked') });
  });
});

it('a command left in the outbox (a crash before it was published) goes out with the next relay round', async () => {
  const { account, ticket } = await dmTicket();
  const contactId = (await pool.query('SELECT contact_id FROM tickets WHERE id = $1', [ticket.id])).rows[0].contact_id as string;
  // What a reply commits, without the publish that follows it.
  const activityId = await new TicketingStore(pool).transaction(async (tx) => {
    const id = await tx.outbound.recordPending(
      { accountId: account, ticketId: ticket.id, kind: 'dm_sent', text: 'left behind', contactId, conversationKey: `dm:${account}:${ANA.id}`, parentPostId: null, actor: 'crm', attachments: [] },
      new Date(),
    );
    const envelope = makeEnvelope(SocialCommand, 'ticketing', { commandId: id, action: 'send_dm', accountId: account, input: { recipientId: ANA.id, text: 'left behind' } }, { id: `command-${id}` });
    await tx.outbox.enqueue(Exchanges.socialCommands, 'send_dm', envelope);
    return id;
  });
  expect((await commandFor(activityId)).payload.input).toEqual({ recipientId: ANA.id, text: 'left behind' });
  await waitFor(async () => Number((await pool.query('SELECT count(*) AS n FROM outbox')).rows[0].n) === 0, { what: 'an empty outbox' });
});

describe('an Idempotency-Key', () => {
  const send = async (path: string, body: unknown, key: string, token = TEST_TOKEN) => {
    const response = await fetch(`http://127.0.0.1:${service.port}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    return { status: response.status, replayed: response.headers.get('idempotent-replayed'), body: (await response.json()) as Record<string, unknown> };
  };
  const repliesOf = async (ticketId: string, text: string) => Number((await pool.query("SELECT count(*) AS n FROM activities WHERE ticket_id = $1 AND kind = 'dm_sent' AND text = $2", [ticketId, text])).rows[0].n);
  const commandsWith = (text: string) => commands.filter((c) => (c.payload.input as { text?: string }).text === text);
  const settle = () => waitFor(async () => Number((await pool.query('SELECT count(*) AS n FROM outbox')).rows[0].n) === 0, { what: 'an empty outbox' });

  it('makes ten concurrent identical replies one reply and one command, each answered with the first answer', async () => {
    const { ticket } = await dmTicket();
    const text = 'Sent once, whatever the retries.';
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(`/v1/tickets/${ticket.id}/replies`, { text }, 'retry-7f3a')));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(202));
    expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).toBe(1);
    expect(answers.filter((answer) => answer.replayed === 'true')).toHaveLength(9);
    await settle();
    await commandFor(answers[0]!.body.activityId as string);
    expect(await repliesOf(ticket.id, text)).toBe(1);
    expect(commandsWith(text)).toHaveLength(1);

    // Later, the same again: the first answer, nothing sent.
    const later = await send(`/v1/tickets/${ticket.id}/replies`, { text }, 'retry-7f3a');
    expect(later).toEqual({ status: 202, replayed: 'true', body: answers[0]!.body });
    await settle();
    expect(await repliesOf(ticket.id, text)).toBe(1);
    expect(commandsWith(text)).toHaveLength(1);
  });

  it('is independent per principal, refuses another body with 409, and a malformed key with 400', async () => {
    const { ticket } = await dmTicket();
    const text = 'Two agents, one key.';
    const first = await send(`/v1/tickets/${ticket.id}/replies`, { text }, 'shared-key');
    const otherPrincipal = await send(`/v1/tickets/${ticket.id}/replies`, { text }, 'shared-key', 'another-token');
    expect(first.status).toBe(202);
    expect(otherPrincipal).toMatchObject({ status: 202, replayed: null });
    expect(otherPrincipal.body.activityId).not.toBe(first.body.activityId);

    const reused = await send(`/v1/tickets/${ticket.id}/replies`, { text: 'something else' }, 'shared-key');
    expect(reused.status).toBe(409);
    expect(reused.body).toEqual({ error: { code: 'idempotency_key_reused', message: expect.stringContaining('shared-key') } });
    const asAction = await send(`/v1/tickets/${ticket.id}/actions`, { action: 'follow' }, 'shared-key');
    expect(asAction.body).toMatchObject({ error: { code: 'idempotency_key_reused' } });

    for (const key of ['', 'has space', 'x'.repeat(101), 'ünïcode']) {
      const bad = await fetch(`http://127.0.0.1:${service.port}/v1/tickets/${ticket.id}/replies`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': encodeURIComponent(key) === key ? key : key.replace(/[^\x20-\x7e]/g, '?') },
        body: JSON.stringify({ text: 'never sent' }),
      });
      expect([key, bad.status, ((await bad.json()) as { error: { code: string } }).error.code]).toEqual([key, 400, 'invalid_idempotency_key']);
    }
    await settle();
    expect(await repliesOf(ticket.id, text)).toBe(2);
    expect(await repliesOf(ticket.id, 'something else')).toBe(0);
    expect(await repliesOf(ticket.id, 'never sent')).toBe(0);
    expect(commandsWith(text)).toHaveLength(2);
  });

  it('is forgotten after IDEMPOTENCY_KEY_TTL_HOURS', async () => {
    const { ticket } = await dmTicket();
    expect((await send(`/v1/tickets/${ticket.id}/replies`, { text: 'first use' }, 'aging-key')).status).toBe(202);
    expect((await send(`/v1/tickets/${ticket.id}/replies`, { text: 'second use' }, 'aging-key')).status).toBe(409);
    await pool.query("UPDATE idempotency_keys SET created_at = created_at - interval '25 hours' WHERE key = 'aging-key'");
    await service.retention.runNow();
    expect((await send(`/v1/tickets/${ticket.id}/replies`, { text: 'second use' }, 'aging-key'))).toMatchObject({ status: 202, replayed: null });
    await settle();
  });

  it('makes a repeated action one action and one command', async () => {
    const { ticket } = await dmTicket();
    const answers = await Promise.all(Array.from({ length: 5 }, () => send(`/v1/tickets/${ticket.id}/actions`, { action: 'follow' }, 'follow-once')));
    expect(answers.map((answer) => answer.status)).toEqual(Array(5).fill(202));
    expect(new Set(answers.map((answer) => answer.body.activityId)).size).toBe(1);
    await settle();
    await waitFor(() => commands.find((c) => c.payload.commandId === answers[0]!.body.activityId), { what: 'the follow command' });
    expect(commands.filter((c) => c.payload.context?.ticketId === ticket.id && c.payload.action === 'follow')).toHaveLength(1);
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM activities WHERE ticket_id = $1 AND kind = 'action'", [ticket.id]);
    expect(rows[0].n).toBe(1);
  });
});
