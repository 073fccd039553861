import { listActivityDeadLetters } from '@crm/messaging';
import { postCreated } from '@crm/social-platform-simulator/src/activity-deliveries';
import { waitFor } from '@crm/testing';
import { dmDelivery, dmEvent, userObject } from './testing/deliveries';
import { apiClient, HandledMessages, ticketingUnderTest, type TicketingUnderTest } from './testing/harness';

/**
 * Nothing accepted ends nowhere: a DM or post delivered again under its id with another text is
 * an edit on the timeline, and one unusable event of a delivery goes to the DLQ alone while its
 * neighbours are recorded.
 */

const ANA = { id: '9740000001', screenName: 'ana', name: 'Ana' };
let nextAccount = 7_400_000_000 + Math.floor(Math.random() * 1_000_000);
const newAccount = () => String((nextAccount += 1));
let nextEvent = 840_000_000;
const eventId = () => String((nextEvent += 1));

let stack: TicketingUnderTest;
const handled = new HandledMessages();
const api = apiClient(() => `http://127.0.0.1:${stack.service.port}`);

beforeAll(async () => {
  stack = await ticketingUnderTest('edits', {}, { onHandled: handled.note });
}, 60_000);

afterAll(() => stack?.stop());

async function deliver(delivery: object, envelopeId?: string): Promise<string> {
  const id = await stack.publisher.delivery(delivery, envelopeId);
  await handled.wait(id, envelopeId ? 2 : 1);
  return id;
}

interface TicketBody {
  id: string;
  subject: string;
  activities: { platformEventId: string; text: string; editedAt: string | null; edits: { text: string; receivedAt: string; replacedAt: string | null }[] }[];
}

async function onlyTicket(account: string): Promise<TicketBody> {
  const { body } = await api.get<{ items: { id: string }[] }>(`/v1/tickets?accountId=${account}`);
  expect(body.items).toHaveLength(1);
  return (await api.get<TicketBody>(`/v1/tickets/${body.items[0]!.id}`)).body;
}

const dm = (account: string, id: string, text: string) => dmDelivery(account, [dmEvent({ id, from: ANA.id, to: account, text })], [userObject(ANA.id, ANA.screenName, ANA.name)]);

describe('a DM or post delivered again with another text', () => {
  it('is an edit: the activity shows the new text and keeps the old one; the same texts again change nothing', async () => {
    const account = newAccount();
    expect((await api.put(`/v1/partner-configs/${account}`, {})).status).toBe(201);
    const id = eventId();
    const first = await deliver(dm(account, id, 'my order 41 is late'));
    await deliver(dm(account, id, 'my order 42 is late'));
    // the first message redelivered, and the same new text in another message: nothing more
    await deliver(dm(account, id, 'my order 41 is late'), first);
    await deliver(dm(account, id, 'my order 42 is late'));

    const ticket = await onlyTicket(account);
    expect(ticket.subject).toBe('my order 42 is late');
    expect(ticket.activities).toHaveLength(1);
    const [activity] = ticket.activities;
    expect(activity).toMatchObject({ platformEventId: id, text: 'my order 42 is late', editedAt: expect.any(String) });
    expect(activity!.edits).toEqual([{ text: 'my order 41 is late', receivedAt: expect.any(String), replacedAt: activity!.editedAt }]);
  });

  it('edits a post the same way', async () => {
    const account = newAccount();
    expect((await api.put(`/v1/partner-configs/${account}`, {})).status).toBe(201);
    const id = eventId();
    const createdAt = Date.parse('2026-10-02T10:00:00Z');
    await deliver(postCreated({ account, author: ANA, text: '@acme where is my parcel', mentions: [account], eventId: id, createdAt }));
    await deliver(postCreated({ account, author: ANA, text: '@acme where is my parcel?! order 7', mentions: [account], eventId: id, createdAt }));
    const [activity] = (await onlyTicket(account)).activities;
    expect(activity).toMatchObject({ text: '@acme where is my parcel?! order 7', edits: [{ text: '@acme where is my parcel' }] });
  });
});

describe('a delivery with one unusable event', () => {
  it('records the good events and sends only the bad one to the DLQ, with its reason, the delivery id and its index', async () => {
    const account = newAccount();
    expect((await api.put(`/v1/partner-configs/${account}`, {})).status).toBe(201);
    const [good1, bad, good2] = [eventId(), eventId(), eventId()];
    const poke = { ...dmEvent({ id: bad, from: ANA.id, to: account, text: 'poke' }), type: 'poke' };
    const delivery = dmDelivery(
      account,
      [dmEvent({ id: good1, from: ANA.id, to: account, text: 'first', at: 1_790_000_000_000 }), poke, dmEvent({ id: good2, from: ANA.id, to: account, text: 'second', at: 1_790_000_001_000 })],
      [userObject(ANA.id, ANA.screenName, ANA.name)],
    );
    const envelopeId = await deliver(delivery);

    expect((await onlyTicket(account)).activities.map((a) => a.text)).toEqual(['first', 'second']);
    const letters = await waitFor(async () => (await listActivityDeadLetters(stack.vhost.url)).filter((letter) => letter.headers['x-delivery-id'] === envelopeId), {
      what: 'the bad event in the DLQ',
    });
    expect(letters).toHaveLength(1);
    const [letter] = letters;
    expect(letter).toMatchObject({ messageId: `${envelopeId}:event:1`, type: 'social.activity.raw.v1', attempts: 1 });
    expect(letter!.headers['x-event-index']).toBe(1);
    expect(letter!.reason).toMatch(/direct_message_events\[1\]\.type 'poke' is not a DM event type ticketing knows/);
    const body = JSON.parse(letter!.body) as { payload: { delivery: { direct_message_events: { id: string }[] } } };
    expect(body.payload.delivery.direct_message_events.map((event) => event.id)).toEqual([bad]);
  });
});
