/**
 * ticketing's silence alarm as auth hears it, over the real broker and database against the
 * simulated platform: `account.silent` for an account with X Activity API subscriptions queues
 * a replay from a margin before its silence to now and asks the platform for it; the same
 * message redelivered asks nothing more; an account without subscriptions gets no replay.
 */
import { AccountSilent, Exchanges, Queues, SilenceEventKeys, SYSTEM_TOPOLOGY, type AccountSilentPayload } from '@crm/contracts';
import { Broker, makeEnvelope, Publisher } from '@crm/messaging';
import { brokerMetrics } from '@crm/messaging/src/metrics';
import { testLogger, waitFor } from '@crm/testing';
import { PlatformClient } from './adapters/platform/client';
import { XaaStore } from './adapters/xaa-store';
import { replayTime } from './domain/xaa';
import { startHarness, type Harness } from './testing/harness';

const MARGIN_SECONDS = 120;
const MINUTE = 60_000;

let h: Harness;
let store: XaaStore;
let broker: Broker;
let publisher: Publisher;

beforeAll(async () => {
  h = await startHarness({
    prefix: 'auth_silent_replay',
    simulatorEnv: { XAA_REPLAY_MIN_START_AGE_SECONDS: '0', XAA_REPLAY_MIN_END_AGE_SECONDS: '0' },
    env: { HEARTBEAT_INTERVAL_MS: '0', XAA_REPLAY_MIN_START_AGE_SECONDS: '0', XAA_REPLAY_MIN_END_AGE_SECONDS: '0', XAA_REPLAY_MARGIN_SECONDS: String(MARGIN_SECONDS) },
  });
  const platform = new PlatformClient({ baseUrl: h.simulatorUrl, consumerKey: h.secrets.consumerKey, consumerSecret: h.secrets.consumerSecret, timeoutMs: 5_000, logger: h.logger });
  store = new XaaStore(h.auth.pool, h.config.SOCIAL_ENV_NAME);
  // A v2 webhook on the platform (the test webhook answers its CRC), as `xaa webhook register` records it.
  const made = await platform.call({ method: 'POST', path: '/2/webhooks', json: { url: h.webhook!.url } }, { kind: 'app' });
  const webhook = (made.data as { data: { id: string; url: string } }).data;
  await store.saveWebhook({ webhookId: webhook.id, url: webhook.url });
  broker = new Broker({ url: h.vhost.url, name: 'auth-silent-replay-test', logger: testLogger() });
  publisher = new Publisher(broker, SYSTEM_TOPOLOGY);
  await publisher.ready();
});

afterAll(async () => {
  await publisher?.close();
  await broker?.close();
  await h?.stop();
});

const silent = (accountId: string, silentSince: Date, id?: string) => {
  const payload: AccountSilentPayload = {
    accountId,
    silentSince: silentSince.toISOString(),
    detectedAt: new Date().toISOString(),
    silentAfterMinutes: 60,
    usualDeliveries: { atLeast: 50, lookbackHours: 24 },
  };
  return makeEnvelope(AccountSilent, 'ticketing', payload, id ? { id } : {});
};

/** Messages auth's account-event consumer has taken and acknowledged: a message is handled once this grows. */
const accountEventsAcked = async () => (await brokerMetrics.consumed.get()).values.filter((v) => v.labels.queue === Queues.authAccountEvents && v.labels.outcome === 'acked').reduce((sum, v) => sum + v.value, 0);
const logged = (message: string, accountId: string) => h.logLines.filter((line) => line.includes(message) && line.includes(`"accountId":"${accountId}"`));
const replayRequests = async () => (await h.platformRequests('/2/webhooks/replay', 'POST')).filter((r) => r.status === 200);

it('asks the platform to replay a subscribed account from a margin before its silence to now, once however often it hears it', async () => {
  const accountId = await h.connect('silent_acme');
  await h.auth.xaa.admin.subscribe(accountId);
  const silentSince = new Date(Date.now() - 90 * MINUTE);
  const envelope = silent(accountId, silentSince);

  const before = Date.now();
  await publisher.publish(Exchanges.accountEvents, SilenceEventKeys.silent, envelope);
  const replay = await waitFor(async () => {
    const [queued] = await store.replays();
    return queued && queued.status !== 'requesting' ? queued : null;
  }, { what: 'a replay queued' });
  const after = Date.now();

  const from = Math.floor((silentSince.getTime() - MARGIN_SECONDS * 1000) / MINUTE) * MINUTE;
  // error: why the platform was not asked (a replay left waiting says it), for the failure's message.
  expect(replay).toMatchObject({ status: 'requested', error: null, from: new Date(from), reason: `account ${accountId} silent since ${silentSince.toISOString()}`, jobId: expect.any(String) });
  expect(replay!.to.getTime()).toBeGreaterThanOrEqual(Math.floor(before / MINUTE) * MINUTE);
  expect(replay!.to.getTime()).toBeLessThanOrEqual(Math.floor(after / MINUTE) * MINUTE);
  const requests = await replayRequests();
  expect(requests).toHaveLength(1);
  expect(requests[0]!.json).toMatchObject({ from_date: replayTime(from), to_date: replayTime(replay!.to.getTime()) });

  // The same message again (a redelivery, ticketing's outbox publishing it twice): nothing more is asked.
  const ackedBefore = await accountEventsAcked();
  await publisher.publish(Exchanges.accountEvents, SilenceEventKeys.silent, envelope);
  await waitFor(async () => (await accountEventsAcked()) > ackedBefore, { what: 'the redelivery handled' });
  expect(logged('replay of its silent window queued', accountId)[1]).toContain('"status":"duplicate"');
  expect(await store.replays()).toHaveLength(1);
  expect(await replayRequests()).toHaveLength(1);
});

it('queues no replay for an account without XAA subscriptions', async () => {
  const accountId = await h.connect('silent_plain');
  const ackedBefore = await accountEventsAcked();
  await publisher.publish(Exchanges.accountEvents, SilenceEventKeys.silent, silent(accountId, new Date(Date.now() - 70 * MINUTE)));
  await waitFor(async () => (await accountEventsAcked()) > ackedBefore, { what: 'the event handled' });
  expect(logged('has no XAA subscriptions', accountId)).toHaveLength(1);
  expect((await store.replays()).filter((r) => r.reason.includes(accountId))).toEqual([]);
});
