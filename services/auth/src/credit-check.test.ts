/**
 * An admin's credit check (POST /v1/app/credit-check) ends an out-of-credit episode at once,
 * without the periodic probe (off here): the held command is sent before it answers. An HTTP
 * write meanwhile is refused 503 out_of_credit (its caller is waiting), and the same
 * Idempotency-Key sends it once afterwards. A held command that meets a rate limit keeps the
 * ones after it waiting, a command arriving then included, so none overtakes it.
 */
import { randomUUID } from 'node:crypto';
import { Exchanges, SocialCommand, SYSTEM_TOPOLOGY } from '@crm/contracts';
import { Broker, makeEnvelope, Publisher } from '@crm/messaging';
import { testLogger, testPool, waitFor } from '@crm/testing';
import { ApiCredentialStore } from './adapters/api-credentials';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
let accountId: string;
let broker: Broker;
let publisher: Publisher;

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_credit_check', env: { CREDIT_PROBE_INTERVAL_MS: '0' } });
  accountId = await h.connect('@acme_crcheck');
  broker = new Broker({ url: h.vhost.url, name: 'credit-check-test', logger: testLogger('credit-check-test') });
  publisher = new Publisher(broker, SYSTEM_TOPOLOGY);
});

afterAll(async () => {
  await h?.sim.delete('/control/platform/app-refusal');
  await publisher?.close();
  await broker?.close();
  await h?.stop();
});

const status = async () => (await h.crm.get('/v1/app/status')).data as { outOfCredit: boolean; since: string | null; heldCommands: number };

it('holds a command until an admin checks, refuses an HTTP write meanwhile, and sends both once credit is back', async () => {
  const write = () => h.crm.post(`/v1/accounts/${accountId}/posts`, { text: 'written over HTTP' }, { headers: { 'idempotency-key': 'credit-check-write' } });
  await h.sim.post('/control/platform/app-refusal', { kind: 'credits-depleted' });
  const commandId = `credit-check-${randomUUID()}`;
  await publisher.publish(Exchanges.socialCommands, 'post', makeEnvelope(SocialCommand, 'ticketing', { commandId, action: 'post', accountId, input: { text: 'held for the check' } }));
  await waitFor(async () => (await status()).heldCommands === 1, { what: 'the command to be held' });

  const refused = await write();
  expect(refused.status).toBe(503);
  expect(refused.data.error.code).toBe('out_of_credit');
  expect(refused.headers['retry-after']).toBeDefined();
  // Still spent: the check says so and sends nothing.
  expect((await h.crm.post('/v1/app/credit-check')).data).toMatchObject({ outOfCredit: true, heldCommands: 1 });

  await h.sim.delete('/control/platform/app-refusal');
  const checked = await h.crm.post('/v1/app/credit-check');
  expect(checked.status).toBe(200);
  expect(checked.data).toEqual({ outOfCredit: false, since: null, heldCommands: 0 });
  const result = await h.waitForPublished('post.succeeded', (p) => p.commandId === commandId);
  expect(result.envelope.payload.outcome).toBe('succeeded');
  await h.waitForPublished('app.credit_restored');

  const again = await write();
  expect(again.status).toBe(200);
  expect(again.data.replayed).toBe(false);
  expect((await write()).data.replayed).toBe(true);
  const sent = (await h.platformRequests('/2/tweets', 'POST')).filter((request) => request.status === 201 && (request.json as { text: string }).text === 'written over HTTP');
  expect(sent).toHaveLength(1);
});

it('keeps the order behind a held command that must wait for a rate limit: one arriving meanwhile is held behind it, in credit', async () => {
  const sendPost = async (text: string) => {
    const commandId = `credit-order-${randomUUID()}`;
    const before = (await status()).heldCommands;
    await publisher.publish(Exchanges.socialCommands, 'post', makeEnvelope(SocialCommand, 'ticketing', { commandId, action: 'post', accountId, input: { text } }));
    await waitFor(async () => (await status()).heldCommands === before + 1, { what: `command ${commandId} to be held` });
    return commandId;
  };
  const texts = ['first in line', 'second in line', 'arrived in credit'];
  await h.sim.post('/control/platform/app-refusal', { kind: 'credits-depleted' });
  const ids = [await sendPost(texts[0]!), await sendPost(texts[1]!)];
  await h.sim.delete('/control/platform/app-refusal');
  await h.sim.post('/control/platform/faults', { path: '/2/tweets', method: 'POST', status: 429, resetInSeconds: 2 });

  // Credit is back, but the first held command is rate limited: it and the one after it stay held.
  expect((await h.crm.post('/v1/app/credit-check')).data).toEqual({ outOfCredit: false, since: null, heldCommands: 2 });
  ids.push(await sendPost(texts[2]!));
  await waitFor(async () => (await h.crm.post('/v1/app/credit-check')).data.heldCommands === 0, { what: 'the held commands to be sent once the rate limit ends' });

  for (const commandId of ids) await h.waitForPublished('post.succeeded', (p) => p.commandId === commandId);
  const sent = (await h.platformRequests('/2/tweets', 'POST')).filter((request) => request.status === 201).map((request) => (request.json as { text: string }).text);
  expect(sent.filter((text) => texts.includes(text)).reverse()).toEqual(texts);
});

it('answers the status to a reader and the check to an admin only', async () => {
  const pool = testPool(h.db.url, { applicationName: 'credit-check-test' });
  const { token } = await new ApiCredentialStore(pool).create({ name: 'reader', scopes: ['tickets:read'], accountIds: null, trackingClientIds: null }).finally(() => pool.end());
  const asReader = { headers: { authorization: `Bearer ${token}` } };
  expect((await h.crm.get('/v1/app/status', asReader)).status).toBe(200);
  expect((await h.crm.post('/v1/app/credit-check', undefined, asReader)).status).toBe(403);
});
