/**
 * The X Activity API deliveries in the shapes the platform documents (the repository's examples
 * in libs/testing/fixtures/xaa, for @acme_support) end on the right tickets and contacts, as the
 * Account Activity ones do: a legacy DM in the Account Activity shape with wrapped users, a like
 * with no liker id, follows, mutes and blocks with wrapped users and no time, an encrypted chat
 * message, a post delete with no time, and a revoke with date_time, user_id and app_id.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENCRYPTED_DM_NOTICE } from './domain/direct-messages';
import { testPool } from '@crm/testing';
import { apiClient, HandledMessages, ticketingUnderTest, type TicketingUnderTest } from './testing/harness';

const example = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(__dirname, '../../../libs/testing/fixtures/xaa', `${name}.json`), 'utf8')) as Record<string, unknown>;
const ACME = '7420000000000000001';

interface Activity {
  kind: string;
  platformEventId: string;
  text: string | null;
  direction: string;
}
interface TicketDetail {
  channel: string;
  contact: { platformUserId: string; screenName: string | null; name: string | null } | null;
  activities: Activity[];
}

let stack: TicketingUnderTest;
const handled = new HandledMessages();
const api = apiClient(() => `http://127.0.0.1:${stack.service.port}`);

beforeAll(async () => {
  stack = await ticketingUnderTest('xaa-documented', {}, { onHandled: handled.note });
  expect((await api.put(`/v1/partner-configs/${ACME}`, { pageName: 'Acme Support' })).status).toBe(201);
}, 90_000);

afterAll(async () => {
  await stack?.stop();
});

async function deliver(...names: string[]): Promise<void> {
  for (const name of names) await handled.wait(await stack.publisher.delivery(example(name)));
}

async function tickets(): Promise<TicketDetail[]> {
  const { body } = await api.get<{ items: { id: string }[] }>(`/v1/tickets?accountId=${ACME}`);
  return Promise.all(body.items.map(async ({ id }) => (await api.get<TicketDetail>(`/v1/tickets/${id}`)).body));
}

const ticketWith = async (platformEventId: string) => (await tickets()).find((t) => t.activities.some((a) => a.platformEventId === platformEventId));

async function contact(query: string): Promise<{ screenName: string | null; blocked: boolean; muted: boolean; timeline: Activity[] }> {
  const { body } = await api.get<{ items: { id: string }[] }>(`/v1/contacts?accountId=${ACME}&${query}`);
  expect(body.items).toHaveLength(1);
  return (await api.get<{ screenName: string | null; blocked: boolean; muted: boolean; timeline: Activity[] }>(`/v1/contacts/${body.items[0]!.id}`)).body;
}

it('makes a DM ticket of dm.received with its text and sender, and puts dm.sent on it', async () => {
  await deliver('dm.received', 'dm.sent');
  const ticket = await ticketWith('7420000000000002001');
  expect(ticket).toMatchObject({ channel: 'dm', contact: { screenName: 'rita_ok', name: 'Rita Okafor' } });
  expect(ticket!.activities.map((a) => [a.platformEventId, a.direction, a.text])).toEqual([
    ['7420000000000002001', 'inbound', 'hi, my order 1182 has not arrived'],
    ['7420000000000002002', 'outbound', 'Sorry about that, Rita: it ships today.'],
  ]);
});

it('makes public tickets of a mention, a reply and a quote, and puts a repost on the reposter', async () => {
  await deliver('follow.follow', 'post.mention.create', 'post.reply.create', 'post.quote.create', 'post.repost.create');
  expect(await ticketWith('7420000000000003001')).toMatchObject({ channel: 'public', contact: { screenName: 'rita_ok' }, activities: [{ kind: 'mention', text: '@acme_support my parcel is a week late' }] });
  expect(await ticketWith('7420000000000003002')).toMatchObject({ channel: 'public', contact: { screenName: 'omar_b' }, activities: [{ kind: 'reply_to_account', text: '@acme_support finally, thank you!' }] });
  expect(await ticketWith('7420000000000003003')).toMatchObject({ contact: { screenName: 'rita_ok' }, activities: [{ kind: 'quote_of_account' }] });
  expect((await contact(`screenName=omar_b`)).timeline.map((a) => a.kind)).toEqual(expect.arrayContaining(['follow_of_account', 'reply_to_account', 'repost_of_account']));
});

it("records the account's like on the liked post's author, and a like of its post whose liker is not named", async () => {
  await deliver('like.create.outbound', 'like.create.inbound');
  const like = (await contact('screenName=rita_ok')).timeline.find((a) => a.kind === 'like_by_account');
  expect(like).toMatchObject({ platformEventId: '4f0c2a9e7b1d4e6f8a3c5b7d9e1f2a3b', text: '@acme_support my parcel is a week late' });
  const pool = testPool(stack.db.url);
  try {
    const { rows } = await pool.query<{ kind: string; text: string }>('SELECT kind, text FROM activities WHERE account_id = $1 AND platform_event_id = $2', [ACME, '9a8b7c6d5e4f30211203f4e5d6c7b8a9']);
    expect(rows).toEqual([{ kind: 'like_of_account', text: 'Our help desk now answers on Sundays too.' }]);
  } finally {
    await pool.end();
  }
});

it('records an unfollow, a mute and a block on the contact, each once when delivered again', async () => {
  await deliver('follow.unfollow', 'mute.mute', 'block.block', 'block.block');
  const omar = await contact('screenName=omar_b');
  expect(omar).toMatchObject({ muted: true, blocked: true });
  expect(omar.timeline.filter((a) => ['unfollow_of_account', 'mute', 'block'].includes(a.kind)).map((a) => a.kind).sort()).toEqual(['block', 'mute', 'unfollow_of_account']);
});

it('records an encrypted chat message as unreadable, and takes a post delete and a revoke', async () => {
  await deliver('chat.received', 'post.delete', 'oauth.revoke');
  const chat = await ticketWith('0b6f2d1e-7c3a-4e59-9a41-5d2c8e7f1a20');
  expect(chat).toMatchObject({ channel: 'dm', contact: { screenName: 'rita_ok' } });
  expect(chat!.activities.find((a) => a.platformEventId === '0b6f2d1e-7c3a-4e59-9a41-5d2c8e7f1a20')).toMatchObject({ text: ENCRYPTED_DM_NOTICE });
  expect((await api.get<{ status: string }>(`/v1/accounts/${ACME}`)).body).toMatchObject({ status: 'revoked' });
});
