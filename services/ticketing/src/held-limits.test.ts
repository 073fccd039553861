import { listActivityDeadLetters } from '@crm/messaging';
import { directMessageReceived } from '@crm/social-platform-simulator/src/deliveries';
import { waitFor } from '@crm/testing';
import { apiClient, HandledMessages, ticketingUnderTest, type TicketingUnderTest } from './testing/harness';

/** Held deliveries of an account that is never configured are capped and expire, counted; none is lost silently. */

let stack: TicketingUnderTest;
const handled = new HandledMessages();
const api = apiClient(() => `http://127.0.0.1:${stack.service.port}`);
let now = Date.now();
const ACCOUNT = '7400000001';
const ANA = { id: '940000001', screenName: 'ana', name: 'Ana' };

beforeAll(async () => {
  stack = await ticketingUnderTest('held', { HELD_MAX_PER_ACCOUNT: 2, HELD_TTL_DAYS: 1 }, { onHandled: handled.note, clock: () => new Date(now) });
});

afterAll(() => stack?.stop());

const dm = (n: number) => directMessageReceived({ account: ACCOUNT, customer: ANA, text: `message ${n}`, eventId: `174000000000000000${n}` });

it('holds up to HELD_MAX_PER_ACCOUNT deliveries of an account; the next goes to the DLQ naming the limit, a redelivered held one does not', async () => {
  const [first, second] = [await stack.publisher.delivery(dm(1)), await stack.publisher.delivery(dm(2))];
  await handled.wait(first);
  await handled.wait(second);
  const third = await stack.publisher.delivery(dm(3));
  await stack.publisher.delivery(dm(1), first);
  await handled.wait(first, 2);
  const letters = await waitFor(async () => {
    const found = await listActivityDeadLetters(stack.vhost.url);
    return found.length > 0 ? found : undefined;
  }, { what: 'the third delivery dead-lettered' });
  expect(letters).toEqual([expect.objectContaining({ messageId: third, reason: expect.stringMatching(/already 2 held deliveries \(HELD_MAX_PER_ACCOUNT\)/) })]);
  const { body } = await api.get<{ accounts: unknown[] }>(`/v1/held-deliveries?accountId=${ACCOUNT}`);
  expect(body.accounts).toEqual([expect.objectContaining({ accountId: ACCOUNT, deliveries: 2 })]);
});

it('deletes deliveries held longer than HELD_TTL_DAYS and counts them per account', async () => {
  await stack.service.retention.runNow();
  expect((await api.get<{ items: unknown[] }>(`/v1/held-deliveries?accountId=${ACCOUNT}`)).body.items).toHaveLength(2);
  now += 25 * 3_600_000;
  await stack.service.retention.runNow();
  const { body } = await api.get(`/v1/held-deliveries?accountId=${ACCOUNT}`);
  expect(body).toEqual({ accounts: [], expired: [{ accountId: ACCOUNT, deliveries: 2, lastExpiredAt: expect.any(String) }], items: [], nextCursor: null });
  // Still in the raw log: a rebuild, or a replay from it, finds them.
  expect(await stack.service.rawLog.count(ACCOUNT)).toBeGreaterThanOrEqual(3);
});
