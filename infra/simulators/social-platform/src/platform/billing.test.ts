import type { Server } from 'node:http';
import axios from 'axios';
import { closeServer, listen, portOf } from '@crm/http';
import { testLogger } from '@crm/testing';
import { createSimulatorApp } from '../app';
import { loadSimulatorConfig } from '../config';

const http = axios.create({ validateStatus: () => true });
let server: Server;
let base: string;

const SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'like.write', 'follows.write', 'dm.read', 'dm.write'];

beforeAll(async () => {
  const config = loadSimulatorConfig({ SOCIAL_ENV_NAME: 'test', WEBHOOK_URL: 'http://127.0.0.1:9/none' });
  server = await listen(createSimulatorApp({ config, logger: testLogger('sim'), contractCheck: null }), 0, '127.0.0.1');
  base = `http://127.0.0.1:${portOf(server)}`;
});

afterAll(async () => {
  await closeServer(server);
});

async function bearerOf(user: string): Promise<{ headers: { authorization: string }; userId: string }> {
  const res = await http.post(`${base}/control/platform/tokens`, { user, oauth2Scopes: SCOPES });
  expect(res.status).toBe(200);
  return { headers: { authorization: `Bearer ${res.data.accessToken as string}` }, userId: res.data.userId as string };
}

const billing = async (userId?: string) => (await http.get(`${base}/control/billing`, { params: userId ? { userId } : {} })).data as { balance: number; charges: { kind: string; units: number; amount: number; userId: string; method: string; path: string; at: string }[] };

describe('the bill', () => {
  it('starts with a large balance', async () => {
    expect((await billing()).balance).toBeGreaterThanOrEqual(1000);
  });

  it('charges reads per resource returned, once per resource and UTC day, and writes per request', async () => {
    const reader = await bearerOf('@billreader');
    for (const text of ['bill-marker one', 'bill-marker two', 'bill-marker three']) await http.post(`${base}/control/platform/posts`, { author: '@billauthor', text });
    const before = (await billing()).balance;

    const first = await http.get(`${base}/2/tweets/search/recent`, { params: { query: 'bill-marker', max_results: 10 }, headers: reader.headers });
    expect(first.status).toBe(200);
    expect(first.data.data).toHaveLength(3);
    const again = await http.get(`${base}/2/tweets/search/recent`, { params: { query: 'bill-marker', max_results: 10 }, headers: reader.headers });
    expect(again.status).toBe(200);
    const posted = await http.post(`${base}/2/tweets`, { text: 'hello' }, { headers: reader.headers });
    expect(posted.status).toBe(201);
    const linked = await http.post(`${base}/2/tweets`, { text: 'see https://example.com/a' }, { headers: reader.headers });
    expect(linked.status).toBe(201);

    const after = await billing(reader.userId);
    expect(after.charges.map(({ kind, units, amount, method, path }) => ({ kind, units, amount, method, path }))).toEqual([
      { kind: 'posts_read', units: 3, amount: 0.015, method: 'GET', path: '/2/tweets/search/recent' },
      { kind: 'post_create', units: 1, amount: 0.015, method: 'POST', path: '/2/tweets' },
      { kind: 'post_create_with_url', units: 1, amount: 0.2, method: 'POST', path: '/2/tweets' },
    ]);
    expect(after.balance).toBeCloseTo(before - 0.23, 6);
  });

  it('refuses every request with 402 credits-depleted once the balance is spent, until credits are added', async () => {
    const writer = await bearerOf('@billwriter');
    expect((await http.put(`${base}/control/billing`, { balance: 0.02 })).status).toBe(200);
    expect((await http.post(`${base}/2/tweets`, { text: 'first' }, { headers: writer.headers })).status).toBe(201);
    // 0.005 left: the next post takes the balance below zero, as the platform's may.
    expect((await http.post(`${base}/2/tweets`, { text: 'second' }, { headers: writer.headers })).status).toBe(201);
    expect((await billing()).balance).toBeCloseTo(-0.01, 6);

    const refused = await http.get(`${base}/2/users/me`, { headers: writer.headers });
    expect(refused.status).toBe(402);
    expect(refused.data).toMatchObject({ type: 'https://api.x.com/2/problems/credits-depleted', status: 402 });

    const topped = await http.post(`${base}/control/billing/top-up`, { amount: 5 });
    expect(topped.data.balance).toBeCloseTo(4.99, 6);
    expect((await http.get(`${base}/2/users/me`, { headers: writer.headers })).status).toBe(200);
    await http.put(`${base}/control/billing`, { balance: 1000 });
  });

  it('names the field of a bad control request', async () => {
    const bad = await http.put(`${base}/control/billing`, { balance: 'lots' });
    expect(bad.status).toBe(400);
    expect(bad.data.error.message).toContain('`balance`');
    const none = await http.post(`${base}/control/billing/top-up`, { amount: 0 });
    expect(none.status).toBe(400);
    expect(none.data.error.message).toContain('`amount`');
  });
});
