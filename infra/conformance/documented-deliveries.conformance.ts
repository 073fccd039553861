import { readFileSync } from 'node:fs';
import { expectDeliveredOutcomes, expectedOutcome, startActivityStack, type ActivityStack, type XaaDelivery } from '../e2e/src/activity-stack';
import { XAA_EVENT_TYPES } from '../../libs/contracts/src';
import { waitFor } from '../../libs/testing/src';
import { documentedJsonBlocks, socialFile, socialFiles } from './fixtures';

/**
 * The platform's documented deliveries through the running stack: each X Activity API event
 * payload of its event-payloads page (verbatim from the page's code blocks) and each Account
 * Activity example, signed as the platform signs, POSTed to webhook-ingest, carried over RabbitMQ
 * to ticketing on PostgreSQL. Every documented DM, mention, reply, quote, like and follow must
 * end on the right ticket (or the other person's timeline) with its text and people.
 */

/** The page's sample of the envelope alone (an empty payload), not a delivery. */
const ENVELOPE_SAMPLE = 'Event envelope';

const allDocumented: XaaDelivery[] = documentedJsonBlocks('x-api_activity_event-payloads.mdx')
  .filter((block) => block.title !== ENVELOPE_SAMPLE)
  .map((block) => ({ name: block.title, body: Buffer.from(block.text) }));

const eventTypeOf = (delivery: XaaDelivery) => (JSON.parse(delivery.body.toString('utf8')) as { data: { event_type: string } }).data.event_type;
/** The event types the project takes (and subscribes to some of); the others (profile, spaces, news, broadcasts) it never subscribes to. */
const taken = (delivery: XaaDelivery) => (XAA_EVENT_TYPES as readonly string[]).includes(eventTypeOf(delivery));
const documented = allDocumented.filter(taken);
const neverSubscribed = allDocumented.filter((delivery) => !taken(delivery));

/** Account Activity examples published as complete deliveries (templates need filling: see social-payloads.conformance.ts). */
const accountActivity = [...socialFiles('.official.json'), ...socialFiles('.SYNTHESIZED.json')]
  .filter((name) => !name.endsWith('.tweet_object_only.official.json'))
  .map((name) => ({ name, body: readFileSync(socialFile(name)) }));

let stack: ActivityStack;

beforeAll(async () => {
  stack = await startActivityStack('conformance_documented');
}, 90_000);

afterAll(async () => {
  await stack?.stop();
});

afterAll(() => {
  console.log(`conformance: ${documented.length} documented X Activity API payloads taken, ${neverSubscribed.length} of types never subscribed refused, and ${accountActivity.length} Account Activity examples through the stack`);
});

it('the page documents a DM, a mention, a reply, a quote, a like and a follow', () => {
  const kinds = documented.filter((delivery) => expectedOutcome(delivery) !== null).map((delivery) => delivery.name);
  expect(kinds).toEqual(expect.arrayContaining(['dm.received', 'dm.sent', 'post.mention.create', 'post.reply.create', 'post.quote.create', 'like.create', 'follow.follow']));
});

it('each documented X Activity API payload is taken, and each DM, mention, reply, quote, like and follow ends where it belongs', async () => {
  const checked = await expectDeliveredOutcomes(stack, documented);
  expect(checked).toEqual(expect.arrayContaining(['dm.received', 'post.mention.create', 'post.reply.create', 'post.quote.create', 'like.create', 'follow.follow']));
}, 180_000);

it('an event type the project never subscribes to is refused as bad input, never with a 5xx', async () => {
  expect(neverSubscribed.length).toBeGreaterThan(0);
  for (const delivery of neverSubscribed) expect({ name: delivery.name, status: await stack.deliverXaa(delivery.body) }).toEqual({ name: delivery.name, status: 400 });
});

it('each published Account Activity delivery is taken, and each DM from someone else ends on a ticket with its text', async () => {
  const dms: { name: string; account: string; id: string; text: string }[] = [];
  for (const { name, body } of accountActivity) {
    expect({ name, status: await stack.deliverAccountActivity(body) }).toEqual({ name, status: 200 });
    const delivery = JSON.parse(body.toString('utf8')) as { for_user_id?: string; direct_message_events?: { id: string; message_create: { sender_id: string; message_data: { text: string } } }[] };
    for (const event of delivery.direct_message_events ?? []) {
      if (event.message_create.sender_id !== delivery.for_user_id) dms.push({ name, account: String(delivery.for_user_id), id: event.id, text: event.message_create.message_data.text });
    }
  }
  expect(dms.length).toBeGreaterThan(0);
  for (const account of new Set(dms.map((dm) => dm.account))) expect([200, 201]).toContain((await stack.crm.put(`/v1/partner-configs/${account}`, { pageName: 'Support' })).status);
  for (const dm of dms) {
    const text = await waitFor(
      async () => {
        const list = (await stack.crm.get(`/v1/tickets?accountId=${dm.account}`)).data.items as { id: string }[];
        for (const { id } of list) {
          const ticket = (await stack.crm.get(`/v1/tickets/${id}`)).data as { activities: { platformEventId: string; text: string }[] };
          const activity = ticket.activities.find((a) => a.platformEventId === dm.id);
          if (activity) return activity.text;
        }
        return undefined;
      },
      { what: `${dm.name} ${dm.id} on a ticket`, timeoutMs: 45_000 },
    );
    expect({ dm: dm.id, text }).toEqual({ dm: dm.id, text: dm.text });
  }
}, 120_000);
