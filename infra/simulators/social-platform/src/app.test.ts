import request from 'supertest';
import { checkDelivery } from '@crm/contracts';
import { testLogger } from '@crm/testing';
import { verifySignature } from '@crm/webhook-signature';
import { createSimulatorApp } from './app';
import { loadSimulatorConfig } from './config';
import { stableUserId } from './ids';
import { deadUrl, startReceiver, type TestReceiver } from './test-receiver';
import { runCrcCheck } from './webhook-client';

const SECRET = 'app-test-consumer-secret';

describe('simulator control API against a real webhook', () => {
  let receiver: TestReceiver;
  let wrongCrcReceiver: TestReceiver;
  let app: ReturnType<typeof createSimulatorApp>;

  beforeAll(async () => {
    receiver = await startReceiver(SECRET);
    wrongCrcReceiver = await startReceiver(SECRET, { crc: 'wrong' });
    const config = loadSimulatorConfig({ SOCIAL_CONSUMER_SECRET: SECRET, WEBHOOK_URL: receiver.url });
    app = createSimulatorApp({ config, logger: testLogger('social-platform-simulator') });
  });

  afterAll(async () => {
    await receiver.close();
    await wrongCrcReceiver.close();
  });

  beforeEach(() => {
    receiver.received.length = 0;
  });

  it('delivers a customer DM to the webhook, signed over the exact bytes', async () => {
    const res = await request(app).post('/control/direct-messages').send({ from: '@ana', to: '1001', text: 'where is my order 42?' }).expect(200);
    expect(res.body).toMatchObject({ webhookStatus: 200, webhookBody: { accepted: true }, forUserId: '1001' });
    expect(res.body.eventId).toMatch(/^[0-9]{18,19}$/);

    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.signatureValid).toBe(true);
    const delivery = JSON.parse(got.raw.toString('utf8'));
    expect(checkDelivery(delivery)).toMatchObject({ ok: true, kind: 'direct_message_events', forUserId: '1001' });
    const event = delivery.direct_message_events[0];
    expect(event.id).toBe(res.body.eventId);
    expect(event.message_create.message_data.text).toBe('where is my order 42?');
    expect(event.message_create.sender_id).toBe(stableUserId('ana'));
    expect(delivery.users[stableUserId('ana')].screen_name).toBe('ana');
    expect(res.body.delivery).toEqual(delivery);
  });

  it('sends <, > and & escaped, so only the received bytes verify', async () => {
    await request(app).post('/control/direct-messages').send({ from: { screenName: 'bob', name: 'Bob' }, to: { id: '1001' }, text: 'a <b> & c' }).expect(200);
    const got = receiver.received[0]!;
    expect(got.raw.toString('utf8')).toContain('a \\u003cb\\u003e \\u0026 c');
    expect(got.signatureValid).toBe(true);
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(got.raw.toString('utf8'))));
    expect(verifySignature(SECRET, reserialised, got.signatureHeader)).toBe(false);
  });

  it('sends the same event id again when asked (a redelivery)', async () => {
    const first = await request(app).post('/control/direct-messages').send({ from: '@ana', to: '1001', text: 'again' }).expect(200);
    const second = await request(app).post('/control/direct-messages').send({ from: '@ana', to: '1001', text: 'again', eventId: first.body.eventId }).expect(200);
    expect(second.body.eventId).toBe(first.body.eventId);
  });

  it('with signature "wrong", the webhook refuses it and the simulator reports its 401', async () => {
    const res = await request(app).post('/control/direct-messages').send({ from: '@ana', to: '1001', text: 'hi', signature: 'wrong' }).expect(200);
    expect(res.body.webhookStatus).toBe(401);
    expect(res.body.webhookBody).toMatchObject({ error: { code: 'invalid_signature' } });
    expect(receiver.received[0]).toMatchObject({ signatureValid: false });
    expect(receiver.received[0]!.signatureHeader).toMatch(/^sha256=/);
  });

  it('with signature "none", sends no signature header', async () => {
    const res = await request(app).post('/control/direct-messages').send({ from: '@ana', to: '1001', text: 'hi', signature: 'none' }).expect(200);
    expect(res.body.webhookStatus).toBe(401);
    expect(receiver.received[0]!.signatureHeader).toBeUndefined();
  });

  it.each([
    [{ from: '@ana', to: '1001', text: '' }, '`text`'],
    [{ from: '@ana', to: '1001', text: '   ' }, '`text`'],
    [{ from: '@ana', to: '1001' }, '`text`'],
    [{ to: '1001', text: 'hi' }, '`from`'],
    [{ from: '@ana', text: 'hi' }, '`to`'],
    [{ from: '@not a name', to: '1001', text: 'hi' }, '`from`'],
    [{ from: '@ana', to: { id: 'abc' }, text: 'hi' }, '`to`'],
    [{ from: '@ana', to: '1001', text: 'hi', signature: 'maybe' }, '`signature`'],
    [{ from: '@ana', to: '1001', text: 'hi', webhookUrl: 'ftp://x' }, '`webhookUrl`'],
  ])('answers 400 naming the bad field for %j', async (body, field) => {
    const res = await request(app).post('/control/direct-messages').send(body).expect(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toContain(field);
    expect(receiver.received).toHaveLength(0);
  });

  it('sends any delivery as is, signed', async () => {
    const typing = {
      for_user_id: '1001',
      direct_message_indicate_typing_events: [{ created_timestamp: '1518127183443', sender_id: '3284025577', target: { recipient_id: '1001' } }],
      users: {},
    };
    const res = await request(app).post('/control/deliveries').send({ delivery: typing }).expect(200);
    expect(res.body).toMatchObject({ webhookStatus: 200, kind: 'direct_message_indicate_typing_events', forUserId: '1001' });
    expect(JSON.parse(receiver.received[0]!.raw.toString('utf8'))).toEqual(typing);
    expect(receiver.received[0]!.signatureValid).toBe(true);
  });

  it('sends exact raw bytes when asked, and refuses a delivery that is not an object', async () => {
    await request(app).post('/control/deliveries').send({ raw: 'not json{' }).expect(200);
    expect(receiver.received[0]!.raw.toString('utf8')).toBe('not json{');
    expect(receiver.received[0]!.signatureValid).toBe(true);
    const res = await request(app).post('/control/deliveries').send({ delivery: [1, 2] }).expect(400);
    expect(res.body.error.message).toContain('`delivery`');
  });

  it('delivers any kind of account activity, built like the platform builds it', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'post', text: 'Our sale starts today' }, 'tweet_create_events'],
      [{ kind: 'mention', user: '@ana', text: 'help', userHasBlocked: 'false' }, 'tweet_create_events'],
      [{ kind: 'reply', user: '@ana', text: 'still waiting', inReplyTo: { id: '500' } }, 'tweet_create_events'],
      [{ kind: 'reply', user: '@ana', byAccount: true, text: 'sorry', inReplyTo: { id: '501' } }, 'tweet_create_events'],
      [{ kind: 'quote', user: '@ana', text: 'meh', post: { id: '502', text: 'new!' } }, 'tweet_create_events'],
      [{ kind: 'repost', user: '@ana', post: { id: '503' } }, 'tweet_create_events'],
      [{ kind: 'like', user: '@ana', post: { id: '504' } }, 'favorite_events'],
      [{ kind: 'follow', user: '@ana' }, 'follow_events'],
      [{ kind: 'unfollow', user: '@ana', byAccount: true }, 'follow_events'],
      [{ kind: 'block', user: '@ana' }, 'block_events'],
      [{ kind: 'unmute', user: '@ana' }, 'mute_events'],
      [{ kind: 'dm', user: '@ana', text: 'hi', media: { url: 'https://img.example/c.jpg' } }, 'direct_message_events'],
      [{ kind: 'dm-sent', user: '@ana', text: 'hello' }, 'direct_message_events'],
      [{ kind: 'typing', user: '@ana' }, 'direct_message_indicate_typing_events'],
      [{ kind: 'read', user: '@ana', lastReadEventId: '77' }, 'direct_message_mark_read_events'],
      [{ kind: 'delete', post: { id: '505' } }, 'tweet_delete_events'],
      [{ kind: 'revoke' }, 'user_event'],
    ];
    for (const [body, kind] of cases) {
      const res = await request(app).post('/control/activities').send({ account: '1001', createdAt: '2026-01-02T03:04:05Z', ...body }).expect(200);
      expect(res.body).toMatchObject({ webhookStatus: 200, activity: body.kind, kind });
      const got = receiver.received.at(-1)!;
      expect(got.signatureValid).toBe(true);
      const delivery = JSON.parse(got.raw.toString('utf8'));
      expect(delivery).toEqual(res.body.delivery);
      expect(checkDelivery(delivery)).toMatchObject({ ok: true, kind, forUserId: kind === 'user_event' ? null : '1001' });
    }
    const reply = JSON.parse(receiver.received[3]!.raw.toString('utf8')).tweet_create_events[0];
    expect(reply).toMatchObject({ user: { id_str: '1001' }, in_reply_to_status_id_str: '501', in_reply_to_user_id_str: stableUserId('ana') });
  });

  it.each([
    [{ kind: 'poke', account: '1001' }, '`kind`'],
    [{ kind: 'post' }, '`account`'],
    [{ kind: 'post', account: '1001' }, '`text`'],
    [{ kind: 'like', account: '1001', user: '@ana' }, '`post`'],
    [{ kind: 'like', account: '1001', user: '@ana', post: { id: 'x' } }, '`post.id`'],
    [{ kind: 'like', account: '1001', user: '@ana', post: { id: '1', author: { id: 'x' } } }, '`post.author`'],
    [{ kind: 'read', account: '1001', user: '@ana' }, '`lastReadEventId`'],
    [{ kind: 'dm', account: '1001', user: '@ana', text: 'x', media: { url: 'ftp://x' } }, '`media.url`'],
    [{ kind: 'mention', account: '1001', user: '@ana', text: 'x', userHasBlocked: 'maybe' }, '`userHasBlocked`'],
    [{ kind: 'follow', account: '1001', user: '@ana', byAccount: 'yes' }, '`byAccount`'],
    [{ kind: 'post', account: '1001', text: 'x', createdAt: 'yesterday' }, '`createdAt`'],
  ])('activities: answers 400 naming the bad field for %j', async (body, field) => {
    const res = await request(app).post('/control/activities').send(body).expect(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toContain(field);
    expect(receiver.received).toHaveLength(0);
  });

  it('lists what it sent, most recent first, with the webhook status', async () => {
    await request(app).post('/control/direct-messages').send({ from: '@ana', to: '1001', text: 'one' }).expect(200);
    const second = await request(app).post('/control/direct-messages').send({ from: '@ana', to: '1001', text: 'two', signature: 'wrong' }).expect(200);
    const res = await request(app).get('/control/deliveries').expect(200);
    expect(res.body.items[0]).toMatchObject({ kind: 'direct_message_events', forUserId: '1001', eventIds: [second.body.eventId], signing: 'wrong', webhookStatus: 401, webhookUrl: receiver.url });
    expect(res.body.items[1]).toMatchObject({ signing: 'valid', webhookStatus: 200 });
  });

  it('answers 502 when the webhook does not answer, and logs the attempt', async () => {
    const url = await deadUrl();
    const res = await request(app).post('/control/direct-messages').send({ from: '@ana', to: '1001', text: 'hi', webhookUrl: url }).expect(502);
    expect(res.body.error.code).toBe('webhook_unreachable');
    const list = await request(app).get('/control/deliveries').expect(200);
    expect(list.body.items[0]).toMatchObject({ webhookUrl: url, webhookStatus: null });
  });

  describe('CRC', () => {
    it('is valid against a webhook that answers it correctly (the configured URL by default)', async () => {
      const res = await request(app).post('/control/crc').send({}).expect(200);
      expect(res.body).toEqual({ url: receiver.url, valid: true, status: 200 });
    });

    it('is invalid against a webhook answering with the wrong token', async () => {
      const res = await request(app).post('/control/crc').send({ url: wrongCrcReceiver.url }).expect(200);
      expect(res.body).toMatchObject({ valid: false, status: 200 });
      expect(res.body.reason).toMatch(/response_token does not match/);
    });

    it('is invalid, with no status, when nothing answers', async () => {
      const res = await request(app).post('/control/crc').send({ url: await deadUrl() }).expect(200);
      expect(res.body).toMatchObject({ valid: false, status: null });
      expect(res.body.reason).toMatch(/could not reach/);
    });

    it('gives up after the timeout, as the platform does after 3 s', async () => {
      const { createServer } = await import('node:http');
      const silent = createServer(() => undefined); // takes the request, never answers
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as { port: number };
      try {
        const result = await runCrcCheck(`http://127.0.0.1:${port}/webhooks/test`, SECRET, { timeoutMs: 200 });
        expect(result).toMatchObject({ valid: false, status: null });
        expect(result.reason).toMatch(/within 200 ms/);
      } finally {
        silent.closeAllConnections();
        await new Promise((resolve) => silent.close(resolve));
      }
    });
  });
});
