/**
 * The Account Activity API through auth's API, on the platform's v2 routes: the webhook on
 * `/2/webhooks` (register: the platform's CRC reaches the webhook first; list, re-run the CRC,
 * delete), and subscriptions on `/2/account_activity/webhooks/:webhook_id/subscriptions/...`
 * (subscribe, check, list, count, unsubscribe), answers read from `data`; each call made with
 * the credentials the platform wants. And the periodic check that re-runs the CRC of an invalid
 * webhook and publishes webhook.invalid.
 */
import { waitFor } from '@crm/testing';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
let owner: string;
let other: string;
const WEBHOOKS = '/2/webhooks';
let webhookId: string;
const subscriptions = (rest: string) => `/2/account_activity/webhooks/${webhookId}/subscriptions/${rest}`;

beforeAll(async () => {
  // A short interval, so the periodic check runs while the test watches.
  h = await startHarness({ prefix: 'auth_webhooks', env: { WEBHOOK_CHECK_INTERVAL_MS: '200' } });
  owner = await h.connect('@app_owner');
  other = await h.connect('@second_shop');
});

afterAll(async () => {
  await h?.stop();
});

const lastCaller = async (path: string, method: string) => (await h.platformRequests(path, method))[0]?.caller;

describe('the webhook', () => {
  it('takes no subscription before it is registered', async () => {
    const res = await h.crm.put(`/v1/accounts/${other}/subscription`);
    expect(res.status).toBe(409);
    expect(res.data.error.code).toBe('no_webhook');
  });

  it('needs the app owner named to register', async () => {
    const res = await h.crm.post('/v1/webhooks', {});
    expect(res.status).toBe(400);
    expect(res.data.error.code).toBe('owner_unknown');
  });

  it('is not registered while its CRC fails, and is once it passes (owner user context)', async () => {
    h.webhook!.crc = 'wrong';
    const refused = await h.crm.post('/v1/webhooks', { ownerAccountId: owner });
    expect(refused.status).toBe(422);
    expect(refused.data.error.message).toContain('The webhook did not answer the CRC');

    h.webhook!.crc = 'right';
    const registered = await h.crm.post('/v1/webhooks', { ownerAccountId: owner });
    expect(registered.status).toBe(201);
    expect(registered.data).toMatchObject({ id: expect.stringMatching(/^[0-9]+$/), url: h.webhook!.url, valid: true });
    webhookId = registered.data.id as string;
    expect(await lastCaller(WEBHOOKS, 'POST')).toEqual({ kind: 'user', userId: owner });
    expect((await h.platformRequests(WEBHOOKS, 'POST'))[0]?.json).toEqual({ url: h.webhook!.url });
  });

  it('is listed with the bearer token, and its CRC re-run in the owner context', async () => {
    const listed = await h.crm.get('/v1/webhooks');
    expect(listed.data).toEqual({ envName: 'test', items: [expect.objectContaining({ url: h.webhook!.url, valid: true })] });
    expect(await lastCaller(WEBHOOKS, 'GET')).toEqual({ kind: 'app' });
    const id = listed.data.items[0].id as string;
    expect((await h.crm.post(`/v1/webhooks/${id}/crc`, {})).data).toEqual({ valid: true });
    expect(await lastCaller(`${WEBHOOKS}/${id}`, 'PUT')).toEqual({ kind: 'user', userId: owner });
  });
});

describe('subscriptions', () => {
  it('subscribe and check in the account context; list, count and remove with the bearer token', async () => {
    expect((await h.crm.get(`/v1/accounts/${other}/subscription`)).data).toEqual({ subscribed: false });
    expect((await h.crm.put(`/v1/accounts/${other}/subscription`)).data).toEqual({ subscribed: true, alreadySubscribed: false });
    expect(await lastCaller(subscriptions('all'), 'POST')).toEqual({ kind: 'user', userId: other });
    expect((await h.crm.put(`/v1/accounts/${other}/subscription`)).data).toEqual({ subscribed: true, alreadySubscribed: true });
    expect((await h.crm.get(`/v1/accounts/${other}/subscription`)).data).toEqual({ subscribed: true });
    expect(await lastCaller(subscriptions('all'), 'GET')).toEqual({ kind: 'user', userId: other });
    await h.crm.put(`/v1/accounts/${owner}/subscription`);

    expect((await h.crm.get('/v1/subscriptions')).data.items).toEqual(expect.arrayContaining([{ accountId: owner }, { accountId: other }]));
    expect(await lastCaller(subscriptions('all/list'), 'GET')).toEqual({ kind: 'app' });
    expect((await h.crm.get('/v1/subscriptions/count')).data).toEqual({ all: 2, directMessages: 2 });
    expect(await lastCaller('/2/account_activity/subscriptions/count', 'GET')).toEqual({ kind: 'app' });

    expect((await h.crm.delete(`/v1/accounts/${other}/subscription`)).status).toBe(204);
    expect(await lastCaller(subscriptions(`${other}/all`), 'DELETE')).toEqual({ kind: 'app' });
    expect((await h.crm.delete(`/v1/accounts/${other}/subscription`)).status).toBe(404);
    expect((await h.crm.get('/v1/subscriptions/count')).data).toEqual({ all: 1, directMessages: 1 });
  });

  it('refuses an account connected with OAuth 2.0 with 409 needs_oauth1 (auth subscribes it through the X Activity API), without calling the platform', async () => {
    const modern = await h.connectOAuth2('@modern_mia');
    const calls = async () => (await h.platformRequests(subscriptions('all'), 'POST')).length + (await h.platformRequests(subscriptions('all'), 'GET')).length;
    const before = await calls();
    for (const res of [await h.crm.put(`/v1/accounts/${modern}/subscription`), await h.crm.get(`/v1/accounts/${modern}/subscription`)]) {
      expect(res.status).toBe(409);
      expect(res.data.error).toMatchObject({ code: 'needs_oauth1', message: expect.stringContaining(`cli xaa subscribe ${modern}`) });
    }
    expect(await calls()).toBe(before);
  });

  it('says when an account is not connected in auth', async () => {
    const res = await h.crm.put('/v1/accounts/999999/subscription');
    expect(res.status).toBe(404);
    expect(res.data.error.code).toBe('account_not_connected');
  });
});

describe('the periodic check', () => {
  const invalidEvents = () => h.published.filter((p) => p.routingKey === 'webhook.invalid');
  const listCalls = async () => (await h.platformRequests(WEBHOOKS, 'GET')).length;

  it('re-runs the CRC of a webhook the platform marked invalid, and publishes webhook.invalid once while it stays invalid', async () => {
    h.webhook!.crc = 'wrong';
    await h.sim.post('/control/platform/webhooks/check'); // the platform's own periodic CRC marks it invalid
    const event = await h.waitForPublished('webhook.invalid');
    expect(event.envelope.payload).toMatchObject({ envName: 'test', url: h.webhook!.url, reason: expect.stringContaining('The webhook did not answer the CRC') });
    expect(await lastCaller(`${WEBHOOKS}/${String(event.envelope.payload.webhookId)}`, 'PUT')).toEqual({ kind: 'user', userId: owner });

    // Several more checks run; none repeats the event.
    const calls = await listCalls();
    await waitFor(async () => (await listCalls()) >= calls + 3, { what: 'three more checks' });
    expect(invalidEvents()).toHaveLength(1);

    // Asked by hand, the CRC fails with the platform's reason.
    const recheck = await h.crm.post(`/v1/webhooks/${String(event.envelope.payload.webhookId)}/crc`, {});
    expect(recheck.data).toEqual({ valid: false, reason: expect.stringContaining('response_token does not match') });
  });

  it('makes the webhook valid again once its CRC passes, and reports a new failure again', async () => {
    h.webhook!.crc = 'right';
    await waitFor(async () => ((await h.crm.get('/v1/webhooks')).data.items as { valid: boolean }[])[0]?.valid === true, { what: 'the webhook valid again' });
    await waitFor(async () => (await h.auth.pool.query('SELECT invalid_reported_at FROM webhook_registrations')).rows[0]?.invalid_reported_at === null, { what: 'the report cleared' });

    h.webhook!.crc = 'wrong';
    await h.sim.post('/control/platform/webhooks/check');
    await waitFor(() => invalidEvents().length === 2, { what: 'a second webhook.invalid' });
  });

  it('runs one check at a time: concurrent checks by hand and by the timer publish webhook.invalid once', async () => {
    h.webhook!.crc = 'right';
    await waitFor(async () => (await h.auth.pool.query('SELECT invalid_reported_at FROM webhook_registrations')).rows[0]?.invalid_reported_at === null, { what: 'the report cleared' });
    const before = invalidEvents().length;

    h.webhook!.crc = 'wrong';
    await h.sim.post('/control/platform/webhooks/check');
    const answers = await Promise.all(Array.from({ length: 4 }, () => h.crm.post('/v1/webhooks/check')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    await waitFor(() => invalidEvents().length > before, { what: 'webhook.invalid' });
    // auth publishes on one channel: once a later event arrived, any duplicate would have too.
    const marker = await h.connect('@check_marker');
    await h.waitForPublished('account.connected', (p) => p.accountId === marker);
    expect(invalidEvents()).toHaveLength(before + 1);
  });

  it('deletes the webhook in the owner context', async () => {
    h.webhook!.crc = 'right';
    const [webhook] = (await h.crm.get('/v1/webhooks')).data.items as { id: string }[];
    expect((await h.crm.delete(`/v1/webhooks/${webhook!.id}`)).status).toBe(204);
    expect(await lastCaller(`${WEBHOOKS}/${webhook!.id}`, 'DELETE')).toEqual({ kind: 'user', userId: owner });
    expect((await h.crm.get('/v1/webhooks')).data.items).toEqual([]);
  });
});
