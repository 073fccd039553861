/**
 * Text PostgreSQL cannot store (NUL, lone surrogates), in a request or in the platform's
 * answer, never turns a sent command back into an unsent one: a retry with the same
 * Idempotency-Key sends nothing again, and every answer is a 200.
 */
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
let accountId: string;

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_unstorable' });
  accountId = await h.connectAndSubscribe('@acme_unstorable');
});

afterAll(async () => {
  await h?.stop();
});

const accountPath = (path: string) => `/v1/accounts/${accountId}${path}`;

it('stores a write whose platform answer holds a NUL, once: retries with the same key get the same result and send nothing', async () => {
  // The platform keeps what it is given: the account's own profile now holds a NUL, and every profile answer includes it.
  await h.sim.post('/control/platform/users', { id: accountId, name: 'Acme\u0000Support' });
  const before = (await h.platformRequests('/1.1/account/update_profile.json', 'POST')).length;
  const headers = { 'idempotency-key': 'nul-in-answer-1' };
  const answers = [];
  for (let i = 0; i < 3; i += 1) answers.push(await h.crm.patch(accountPath('/profile'), { location: 'Berlin' }, { headers }));
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
  expect((await h.platformRequests('/1.1/account/update_profile.json', 'POST')).length).toBe(before + 1);
  expect(answers[0]!.data.data.name).toBe('Acme\uFFFDSupport');
  expect(answers[2]!.data.platformId).toBe(answers[0]!.data.platformId);
  expect(answers[2]!.data.replayed).toBe(true);
});

it('sends request text with NUL and lone surrogates replaced, and answers 200', async () => {
  const ana = (await h.sim.post('/control/platform/users', { screenName: 'unstorable_ana' })).data.id_str as string;
  const sent = await h.crm.post(accountPath('/direct-messages'), { recipientId: ana, text: 'hi\u0000 there \uD800!' }, { headers: { 'idempotency-key': 'nul-in-request-1' } });
  expect(sent.status).toBe(200);
  const [received] = await h.platformRequests(`/2/dm_conversations/with/${ana}/messages`, 'POST');
  expect(received).toMatchObject({ json: { text: 'hi\uFFFD there \uFFFD!' } });
});
