/**
 * Store, then announce: what auth announces is stored with the change, in its outbox, and
 * published by the relay after the commit; with no relay running (the broker gone), the
 * change is stored and its announcement waits, and goes out once a relay runs again.
 */
import { SYSTEM_TOPOLOGY } from '@crm/contracts';
import { Broker, OutboxRelay, Publisher } from '@crm/messaging';
import { testLogger, waitFor } from '@crm/testing';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_outbox' });
});

afterAll(async () => {
  await h?.stop();
});

const waiting = async () =>
  (await h.auth.pool.query<{ routing_key: string; account_id: string }>("SELECT routing_key, envelope->'payload'->>'accountId' AS account_id FROM outbox ORDER BY id")).rows;

it('keeps an announcement with its change while nothing relays, and relays it once something does', async () => {
  await h.auth.relay.stop();
  const accountId = await h.connect('@patient_pat');
  expect((await h.crm.get(`/v1/accounts/${accountId}`)).data.status).toBe('connected');
  expect(await waiting()).toEqual([{ routing_key: 'account.connected', account_id: accountId }]);
  expect(h.published.filter((p) => p.envelope.payload.accountId === accountId)).toEqual([]);

  const logger = testLogger();
  const broker = new Broker({ url: h.vhost.url, name: 'auth-relay-again', logger });
  const publisher = new Publisher(broker, SYSTEM_TOPOLOGY);
  const relay = new OutboxRelay({ pool: h.auth.pool, publisher, logger });
  try {
    await relay.kick();
    const announced = await h.waitForPublished('account.connected', (p) => p.accountId === accountId);
    expect(announced.envelope).toMatchObject({ producer: 'auth', payload: { accountId, screenName: 'patient_pat', via: 'oauth' } });
    await waitFor(async () => (await waiting()).length === 0, { what: 'an empty outbox' });
  } finally {
    await relay.stop();
    await publisher.close();
    await broker.close();
  }
});
