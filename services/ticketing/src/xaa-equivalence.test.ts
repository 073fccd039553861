/**
 * The same activities delivered by the Account Activity API to one ticketing and by the X
 * Activity API to another give the same tickets, threading, timelines and contacts: ticketing
 * reads an XAA delivery as the AAA delivery of the same activity. The XAA deliveries are what
 * the social platform simulator makes of the AAA ones, as the platform does.
 */
import { appRevoked, markedRead, postCreated, postDeleted, postLiked, typingIndicated, userRelation } from '@crm/social-platform-simulator/src/activity-deliveries';
import { directMessageReceived, directMessageSent } from '@crm/social-platform-simulator/src/deliveries';
import { encryptedDmEvent, xaaDelivery, xaaEventsOf } from '@crm/social-platform-simulator/src/xaa-deliveries';
import { nextEventId } from '@crm/social-platform-simulator/src/ids';
import { ENCRYPTED_DM_NOTICE } from './domain/direct-messages';
import { apiClient, HandledMessages, ticketingUnderTest, type TicketingUnderTest } from './testing/harness';

const ACCOUNT = { id: '7310000001', screenName: 'acme_help', name: 'Acme Help' };
const ANA = { id: '7310000002', screenName: 'ana', name: 'Ana' };
const BEN = { id: '7310000003', screenName: 'ben', name: 'Ben' };

/** One ticketing per API, each on a virtual host and database of its own. */
interface Side {
  stack: TicketingUnderTest;
  handled: HandledMessages;
  api: ReturnType<typeof apiClient>;
}

const sides: Record<'aaa' | 'xaa', Side> = {} as Record<'aaa' | 'xaa', Side>;

beforeAll(async () => {
  for (const name of ['aaa', 'xaa'] as const) {
    const handled = new HandledMessages();
    const stack = await ticketingUnderTest(`equivalence-${name}`, {}, { onHandled: handled.note });
    const side: Side = { stack, handled, api: apiClient(() => `http://127.0.0.1:${stack.service.port}`) };
    sides[name] = side;
    expect((await side.api.put(`/v1/partner-configs/${ACCOUNT.id}`, { pageName: 'Acme Help' })).status).toBe(201);
  }
}, 90_000);

afterAll(async () => {
  await Promise.all(Object.values(sides).map((side) => side.stack?.stop()));
});

/** The activity of a morning, as the Account Activity API delivers it to the account. */
function morning(): object[] {
  const t0 = Date.now() - 3_600_000;
  const at = (minutes: number) => t0 + minutes * 60_000;
  const ourPost = { id: nextEventId(at(1)), author: ACCOUNT, text: 'Our new opening hours' };
  const anasDm = nextEventId(at(2));
  const mention = nextEventId(at(3));
  return [
    postCreated({ account: ACCOUNT, author: ACCOUNT, text: ourPost.text, eventId: ourPost.id, createdAt: at(1) }),
    directMessageReceived({ account: ACCOUNT, customer: ANA, text: 'where is my order 42?', eventId: anasDm, createdAt: at(2), media: { url: 'https://pbs.example.test/photo.jpg' } }),
    typingIndicated({ account: ACCOUNT, sender: ANA, recipient: ACCOUNT, createdAt: at(2.5) }),
    directMessageSent({ account: ACCOUNT, customer: ANA, text: 'It left the warehouse today.', eventId: nextEventId(at(3)), createdAt: at(3) }),
    markedRead({ account: ACCOUNT, sender: ANA, recipient: ACCOUNT, lastReadEventId: anasDm, createdAt: at(3.5) }),
    postCreated({ account: ACCOUNT, author: BEN, text: '@acme_help my parcel is late', mentions: [ACCOUNT], eventId: mention, createdAt: at(4) }),
    postCreated({ account: ACCOUNT, author: ACCOUNT, text: '@ben sorry, looking into it', inReplyTo: { id: mention, author: BEN }, mentions: [BEN], eventId: nextEventId(at(5)), createdAt: at(5) }),
    postCreated({ account: ACCOUNT, author: BEN, text: 'thanks!', inReplyTo: { id: ourPost.id, author: ACCOUNT }, eventId: nextEventId(at(6)), createdAt: at(6) }),
    postCreated({ account: ACCOUNT, author: ANA, text: 'finally open on Sundays', quoteOf: ourPost, eventId: nextEventId(at(7)), createdAt: at(7) }),
    postCreated({ account: ACCOUNT, author: BEN, text: '', repostOf: ourPost, eventId: nextEventId(at(8)), createdAt: at(8) }),
    postLiked({ account: ACCOUNT, liker: ANA, post: ourPost, createdAt: at(9) }),
    userRelation('follow_events', { account: ACCOUNT, type: 'follow', source: BEN, target: ACCOUNT, createdAt: at(10) }),
    userRelation('block_events', { account: ACCOUNT, type: 'block', source: ACCOUNT, target: BEN, createdAt: at(11) }),
    postDeleted({ account: ACCOUNT, postId: mention, author: BEN, createdAt: at(12) }),
  ];
}

async function deliver(side: Side, deliveries: object[]): Promise<void> {
  for (const delivery of deliveries) await side.handled.wait(await side.stack.publisher.delivery(delivery));
}

/** What an agent and the CRM see: every ticket with its timeline, and the contacts; ids that each database makes are left out. */
async function seen(side: Side): Promise<unknown> {
  const { body: list } = await side.api.get<{ items: { id: string }[] }>(`/v1/tickets?accountId=${ACCOUNT.id}`);
  const tickets = await Promise.all(list.items.map(async ({ id }) => (await side.api.get<Record<string, unknown>>(`/v1/tickets/${id}`)).body));
  const { body: contacts } = await side.api.get<{ items: Record<string, unknown>[] }>(`/v1/contacts?accountId=${ACCOUNT.id}`);
  return JSON.parse(JSON.stringify({ tickets, contacts: contacts.items }), (key, value: unknown) => (GENERATED.has(key) ? undefined : value));
}

/**
 * Made by each ticketing (ids, its own clock), not by the activity; and the times of blocks and
 * mutes, which the X Activity API does not carry (ticketing takes the time it received them).
 */
const GENERATED = new Set(['id', 'ticketId', 'contactId', 'activityId', 'receivedAt', 'updatedAt', 'createdAt', 'raw', 'mergedInto', 'links', 'lastActivityAt', 'sla', 'blockedChangedAt', 'mutedChangedAt']);

it('gives the same tickets, threading, timelines and contacts whichever API delivered the activities', async () => {
  const activities = morning();
  await deliver(sides.aaa, activities);
  await deliver(
    sides.xaa,
    activities.flatMap((delivery) => xaaEventsOf(delivery as Record<string, unknown>).map((event) => xaaDelivery(event, { filter: { user_id: event.userId } }))),
  );
  const [aaa, xaa] = await Promise.all([seen(sides.aaa), seen(sides.xaa)]);
  expect((aaa as { tickets: unknown[] }).tickets.length).toBeGreaterThanOrEqual(2);
  expect(xaa).toEqual(aaa);
}, 60_000);

it('records an encrypted DM (chat.received) delivered by the X Activity API as unreadable, with a notice on the ticket', async () => {
  const eventId = nextEventId();
  const event = encryptedDmEvent({ account: ACCOUNT.id, sender: { id_str: ANA.id, name: ANA.name, screen_name: ANA.screenName }, recipient: { id_str: ACCOUNT.id, name: ACCOUNT.name, screen_name: ACCOUNT.screenName }, eventId });
  await deliver(sides.xaa, [xaaDelivery(event, { filter: { user_id: ACCOUNT.id } })]);
  const { body: list } = await sides.xaa.api.get<{ items: { id: string }[] }>(`/v1/tickets?accountId=${ACCOUNT.id}`);
  const timelines = await Promise.all(list.items.map(async ({ id }) => (await sides.xaa.api.get<{ activities: { platformEventId: string; text: string }[] }>(`/v1/tickets/${id}`)).body.activities));
  expect(timelines.flat().find((activity) => activity.platformEventId === eventId)).toMatchObject({ text: ENCRYPTED_DM_NOTICE });
});

it('takes a revoke from either API', async () => {
  const revoke = appRevoked({ account: ACCOUNT });
  await deliver(sides.aaa, [revoke]);
  await deliver(
    sides.xaa,
    xaaEventsOf(revoke).map((event) => xaaDelivery(event, { filter: { user_id: event.userId } })),
  );
  const [aaa, xaa] = await Promise.all([sides.aaa.api.get<Record<string, unknown>>(`/v1/accounts/${ACCOUNT.id}`), sides.xaa.api.get<Record<string, unknown>>(`/v1/accounts/${ACCOUNT.id}`)]);
  expect(xaa.body).toEqual(aaa.body);
});
