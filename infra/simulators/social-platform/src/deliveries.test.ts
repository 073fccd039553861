import { checkDelivery } from '@crm/contracts';
import { sign } from '@crm/webhook-signature';
import { DEFAULT_APP, directMessageReceived, directMessageSent, serializeLikePlatform } from './deliveries';
import { nextEventId, stableUserId } from './ids';

const account = { id: '1001', screenName: 'acme_support', name: 'Acme Support' };

describe('directMessageReceived', () => {
  const delivery = directMessageReceived({ account, customer: '@ana', text: 'where is my order 42?' });
  const event = delivery.direct_message_events[0]!;

  it('is a delivery the contracts accept, for the account', () => {
    expect(checkDelivery(delivery)).toEqual({ ok: true, kind: 'direct_message_events', forUserId: '1001', eventCount: 1 });
    expect(delivery.for_user_id).toBe('1001');
  });

  it('has the real shape: string ids, top-level users keyed by id, the text, no app', () => {
    const anaId = stableUserId('ana');
    expect(event).toMatchObject({
      type: 'message_create',
      message_create: {
        target: { recipient_id: '1001' },
        sender_id: anaId,
        message_data: { text: 'where is my order 42?', entities: { hashtags: [], symbols: [], user_mentions: [], urls: [] } },
      },
    });
    expect(event.id).toMatch(/^[0-9]{18,19}$/);
    expect(event.created_timestamp).toMatch(/^[0-9]{13}$/);
    expect(event.message_create.source_app_id).toBeUndefined();
    expect(Object.keys(delivery.users).sort()).toEqual(['1001', anaId].sort());
    expect(delivery.users[anaId]).toMatchObject({ id: anaId, screen_name: 'ana', name: 'Ana', protected: false, verified: false });
    expect(delivery.users['1001']).toMatchObject({ id: '1001', screen_name: 'acme_support', name: 'Acme Support' });
    for (const user of Object.values(delivery.users)) {
      expect(typeof user.followers_count).toBe('number');
      expect(user.created_timestamp).toMatch(/^[0-9]+$/);
    }
    expect(delivery.apps).toBeUndefined();
  });

  it('gives a customer named only by screen name the same id every time (case-insensitive), and different customers different ids', () => {
    const again = directMessageReceived({ account: '1001', customer: '@ANA', text: 'hi' });
    expect(again.direct_message_events[0]!.message_create.sender_id).toBe(event.message_create.sender_id);
    expect(stableUserId('ana')).toMatch(/^[1-9][0-9]{9}$/);
    expect(stableUserId('bob')).not.toBe(stableUserId('ana'));
  });

  it('makes a fresh event id per call unless one is given', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => directMessageReceived({ account, customer: '@ana', text: 'x' }).direct_message_events[0]!.id));
    expect(ids.size).toBe(2000);
    const fixed = directMessageReceived({ account, customer: '@ana', text: 'x', eventId: '954491830116155396' });
    expect(fixed.direct_message_events[0]!.id).toBe('954491830116155396');
  });

  it('dates the event and its id by createdAt', () => {
    const at = Date.UTC(2024, 0, 2, 3, 4, 5);
    const dated = directMessageReceived({ account, customer: '@ana', text: 'x', createdAt: at });
    expect(dated.direct_message_events[0]!.created_timestamp).toBe(String(at));
    const idMs = Number(BigInt(dated.direct_message_events[0]!.id) >> 22n) + 1288834974657;
    expect(idMs).toBe(at);
    expect(BigInt(nextEventId(at))).toBeGreaterThan(BigInt(dated.direct_message_events[0]!.id));
  });
});

describe('directMessageSent', () => {
  it('is the echo of a DM the account sent: sender is the account, with source_app_id and the apps map', () => {
    const delivery = directMessageSent({ account, customer: { screenName: 'ana', name: 'Ana Lima' }, text: 'on its way' });
    expect(checkDelivery(delivery).ok).toBe(true);
    const create = delivery.direct_message_events[0]!.message_create;
    expect(create.sender_id).toBe('1001');
    expect(create.target.recipient_id).toBe(stableUserId('ana'));
    expect(create.source_app_id).toBe(DEFAULT_APP.id);
    expect(delivery.apps).toEqual({ [DEFAULT_APP.id]: DEFAULT_APP });
    expect(delivery.users[stableUserId('ana')]!.name).toBe('Ana Lima');
  });
});

describe('serializeLikePlatform', () => {
  const delivery = directMessageReceived({ account, customer: '@ana', text: 'is <b>order</b> 42 & 43 late?' });
  const bytes = serializeLikePlatform(delivery);

  it('escapes <, > and & as the platform does', () => {
    const text = bytes.toString('utf8');
    expect(text).toContain('is \\u003cb\\u003eorder\\u003c/b\\u003e 42 \\u0026 43 late?');
    expect(text).not.toMatch(/[<>&]/);
  });

  it('parses back to the same delivery, but re-serialising changes the bytes and so the signature', () => {
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(delivery);
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(bytes.toString('utf8'))));
    expect(reserialised.equals(bytes)).toBe(false);
    expect(sign('secret', reserialised)).not.toBe(sign('secret', bytes));
  });

  it('leaves other text byte-for-byte as JSON.stringify writes it', () => {
    const plain = directMessageReceived({ account, customer: '@ana', text: 'olá 👋 "quoted"' });
    expect(serializeLikePlatform(plain).equals(Buffer.from(JSON.stringify(plain)))).toBe(true);
  });
});
