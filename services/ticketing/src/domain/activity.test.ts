import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dmDelivery, dmEvent, rawActivity, userObject } from '../testing/deliveries';
import { interpretActivity } from './activity';
import { InvalidActivity } from './errors';
import type { DmReceived, DmSent } from './events';

const ACCOUNT = '4337869213';
const CUSTOMER = '3001969357';

/** The platform's own example, malformed as published: its user objects sit inside `apps`. */
const official = JSON.parse(
  readFileSync(join(__dirname, '../../../../../shared/fixtures/social/direct_message_events.official.json'), 'utf8'),
) as { for_user_id: string; direct_message_events: Record<string, unknown>[]; apps: Record<string, Record<string, unknown>> };

/** The official example as real deliveries come: users and apps as top-level maps. */
function repairedOfficial(): Record<string, unknown> {
  const users: Record<string, unknown> = {};
  const apps: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(official.apps)) {
    if (key === 'users') continue;
    if ('screen_name' in value) users[key] = value;
    else apps[key] = value;
  }
  return { for_user_id: official.for_user_id, direct_message_events: official.direct_message_events, users, apps };
}

function errorOf(work: () => unknown): InvalidActivity {
  try {
    work();
  } catch (error) {
    if (error instanceof InvalidActivity) return error;
    throw error;
  }
  throw new Error('expected an InvalidActivity');
}

function delivery(event: Record<string, unknown>) {
  return rawActivity(dmDelivery(ACCOUNT, [event], [userObject(CUSTOMER, 'furiouscamper', 'Jordan Brinks')]));
}

describe('interpreting direct_message_events', () => {
  it('turns the official example (with top-level users) into one received DM with its sender', () => {
    const result = interpretActivity(rawActivity(repairedOfficial()));
    expect(result.accountId).toBe(ACCOUNT);
    expect(result.ignored).toEqual([]);
    expect(result.events).toHaveLength(1);
    const event = result.events[0] as DmReceived;
    expect(event).toMatchObject({
      type: 'dm_received',
      accountId: ACCOUNT,
      platformEventId: '954491830116155396',
      text: 'Hello World!',
      senderId: CUSTOMER,
      recipientId: ACCOUNT,
      counterpartId: CUSTOMER,
      conversationKey: `dm:${ACCOUNT}:${CUSTOMER}`,
      sender: {
        platformUserId: CUSTOMER,
        screenName: 'furiouscamper',
        name: 'Jordan Brinks',
        avatarUrl: 'https://pbs.twimg.com/profile_images/851526626785480705/cW4WTi7C_normal.jpg',
      },
    });
    expect(event.occurredAt.toISOString()).toBe(new Date(1516403560557).toISOString());
    expect(event.sender.raw).toMatchObject({ location: 'Boulder, CO' });
  });

  it('treats a customer DM that carries the customer app\'s source_app_id as received', () => {
    // The official example has source_app_id although the account is the recipient.
    const event = interpretActivity(rawActivity(repairedOfficial())).events[0]!;
    expect(event.type).toBe('dm_received');
  });

  it('still reads the official example as published; the sender is then known by id only', () => {
    const result = interpretActivity(rawActivity(official as unknown as Record<string, unknown>));
    const event = result.events[0] as DmReceived;
    expect(event.type).toBe('dm_received');
    expect(event.sender).toEqual({ platformUserId: CUSTOMER, screenName: null, name: null, avatarUrl: null, raw: null });
  });

  it('gives the same events when ids and timestamps arrive as numbers', () => {
    const asStrings = interpretActivity(delivery(dmEvent({ id: '1001', from: CUSTOMER, to: ACCOUNT, text: 'hi', at: 1700000000000 })));
    const numeric = dmDelivery(Number(ACCOUNT), [dmEvent({ id: 1001, from: Number(CUSTOMER), to: Number(ACCOUNT), text: 'hi', at: 1700000000000, numericTimestamp: true })], [
      { ...userObject(CUSTOMER, 'furiouscamper', 'Jordan Brinks'), id: Number(CUSTOMER) },
    ]);
    const asNumbers = interpretActivity(rawActivity(numeric));
    const withoutRaw = (events: typeof asStrings.events) =>
      events.map((event) => ({ ...event, raw: null, sender: 'sender' in event ? { ...event.sender, raw: null } : null }));
    expect(withoutRaw(asNumbers.events)).toEqual(withoutRaw(asStrings.events));
    expect(asNumbers.events[0]).toMatchObject({ platformEventId: '1001', senderId: CUSTOMER, sender: { screenName: 'furiouscamper' } });
  });

  it('recognises a DM sent by the account (sender = account, with source_app_id) as sent, threaded by the recipient', () => {
    const result = interpretActivity(delivery(dmEvent({ id: '1002', from: ACCOUNT, to: CUSTOMER, text: 'on its way', sourceAppId: '13090192' })));
    const event = result.events[0] as DmSent;
    expect(event).toMatchObject({ type: 'dm_sent', counterpartId: CUSTOMER, conversationKey: `dm:${ACCOUNT}:${CUSTOMER}`, sourceAppId: '13090192' });
    expect(event.recipient.screenName).toBe('furiouscamper');
  });

  it('yields one event per DM of a delivery, in delivery order', () => {
    const payload = rawActivity(
      dmDelivery(ACCOUNT, [
        dmEvent({ id: '1', from: CUSTOMER, to: ACCOUNT, text: 'one' }),
        dmEvent({ id: '2', from: '42', to: ACCOUNT, text: 'two' }),
        dmEvent({ id: '3', from: ACCOUNT, to: '42', text: 'three' }),
      ]),
    );
    expect(interpretActivity(payload).events.map((e) => [e.type, e.platformEventId, e.counterpartId])).toEqual([
      ['dm_received', '1', CUSTOMER],
      ['dm_received', '2', '42'],
      ['dm_sent', '3', '42'],
    ]);
  });

  it('ignores DM events of other types and other delivery kinds', () => {
    const otherType = interpretActivity(rawActivity(dmDelivery(ACCOUNT, [{ type: 'message_delete', id: '5' }])));
    expect(otherType.events).toEqual([]);
    expect(otherType.ignored[0]!.reason).toContain("'message_delete'");
    const otherKind = interpretActivity(rawActivity({ for_user_id: ACCOUNT, favorite_events: [{ id: 'x' }] }, 'favorite_events'));
    expect(otherKind).toEqual({ accountId: null, events: [], ignored: [{ reason: "kind 'favorite_events' is not handled yet" }] });
  });

  describe('names the field of a delivery it cannot use', () => {
    type Event = Record<string, unknown> & { message_create?: Record<string, unknown> };
    const base = (): Event & { message_create: Record<string, unknown> } =>
      dmEvent({ id: '1003', from: CUSTOMER, to: ACCOUNT, text: 'x' }) as Event & { message_create: Record<string, unknown> };

    it.each([
      ['a missing sender', (e: ReturnType<typeof base>) => delete e.message_create.sender_id, /direct_message_events\[0\]\.message_create\.sender_id is missing/],
      ['a garbled sender', (e: ReturnType<typeof base>) => (e.message_create.sender_id = 'ana'), /message_create\.sender_id must be a platform id/],
      ['a missing recipient', (e: ReturnType<typeof base>) => (e.message_create.target = {}), /message_create\.target\.recipient_id is missing/],
      ['a missing event id', (e: ReturnType<typeof base>) => delete e.id, /direct_message_events\[0\]\.id is missing/],
      ['a fractional event id', (e: ReturnType<typeof base>) => (e.id = 1.5), /direct_message_events\[0\]\.id must be a platform id/],
      ['a garbled timestamp', (e: ReturnType<typeof base>) => (e.created_timestamp = 'yesterday'), /created_timestamp must be milliseconds/],
      ['a missing text', (e: ReturnType<typeof base>) => (e.message_create.message_data = {}), /message_data\.text is missing/],
      ['a missing message_create', (e: Event) => delete e.message_create, /direct_message_events\[0\]\.message_create is missing/],
      ['a missing type', (e: ReturnType<typeof base>) => delete e.type, /direct_message_events\[0\]\.type is missing/],
    ])('%s', (_name, spoil, message) => {
      const event = base();
      spoil(event);
      expect(errorOf(() => interpretActivity(delivery(event))).message).toMatch(message);
    });

    it('a DM between two other users', () => {
      const event = dmEvent({ id: '1004', from: CUSTOMER, to: '77', text: 'x' });
      expect(errorOf(() => interpretActivity(delivery(event))).message).toMatch(/recipient_id: neither the sender .* nor the recipient .* is the account/);
    });

    it('a missing or contradicting account', () => {
      const payload = delivery(dmEvent({ id: '1005', from: CUSTOMER, to: ACCOUNT, text: 'x' }));
      expect(errorOf(() => interpretActivity({ ...payload, forUserId: null, delivery: { ...payload.delivery, for_user_id: undefined } })).message).toMatch(/forUserId is missing/);
      expect(errorOf(() => interpretActivity({ ...payload, forUserId: '1' })).message).toMatch(/forUserId 1 does not match delivery.for_user_id/);
    });

    it('a non-object event', () => {
      expect(errorOf(() => interpretActivity(rawActivity(dmDelivery(ACCOUNT, ['x' as unknown as Record<string, unknown>])))).message).toMatch(
        /direct_message_events\[0\] must be an object/,
      );
    });
  });
});
