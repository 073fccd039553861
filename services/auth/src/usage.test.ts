/**
 * Metering: every platform call auth makes for an account is priced from the rate card and
 * stored per account, UTC day and kind, a resource read twice in a day charged once. After a
 * hundred mixed actions and search polls of two accounts, `GET /v1/usage` gives what the
 * simulated platform billed each account for the same day, to a tenth of a cent, kind by kind.
 */
import axios from 'axios';
import { testLogger } from '@crm/testing';
import { runCli } from './cli-commands';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
let alpha: string;
let beta: string;

interface UsageAnswer {
  items: { accountId: string; date: string; kind: string; units: number; amount: number }[];
  total: number;
}
interface Charge {
  userId: string | null;
  kind: string;
  units: number;
  amount: number;
}

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_usage', env: { PLATFORM_RATE_CARD: '{"posts_read": 0.005}' } });
  alpha = await h.connect('@acme_use_a');
  beta = await h.connect('@acme_use_b');
});

afterAll(async () => {
  await h?.stop();
});

const today = () => new Date().toISOString().slice(0, 10);

/** The customers and posts one account deals with (none shared: the platform deduplicates per app, auth per account). */
async function customerOf(account: 'alpha' | 'beta') {
  const screenName = `cust_${account}`;
  const user = (await h.sim.post('/control/platform/users', { screenName })).data.id_str as string;
  const posts: string[] = [];
  for (let n = 1; n <= 12; n += 1) posts.push((await h.sim.post('/control/platform/posts', { author: `@${screenName}`, text: `${account}topic question ${n}` })).data.id_str as string);
  return { screenName, user, posts, topic: `${account}topic` };
}

type Customer = Awaited<ReturnType<typeof customerOf>>;

/** The i-th action of a mixed day's work for an account: search polls most often, replies, DMs, likes, profile and timeline reads. */
function action(accountId: string, customer: Customer, i: number) {
  const path = (rest: string) => `/v1/accounts/${accountId}${rest}`;
  const post = customer.posts[i % customer.posts.length]!;
  const steps = [
    () => h.crm.get(path('/search'), { params: { query: customer.topic, count: 20 } }),
    () => h.crm.post(path(`/posts/${post}/replies`), { text: `@${customer.screenName} on it (${i})` }),
    () => h.crm.get(path('/search'), { params: { query: customer.topic, count: 20 } }),
    () => h.crm.post(path('/direct-messages'), { recipientId: customer.user, text: `About your order, step ${i}` }),
    () => h.crm.put(path(`/posts/${post}/like`)),
    () => h.crm.get(path('/profile')),
    () => h.crm.get(path(`/users/${customer.screenName}/timeline`), { params: { count: 10 } }),
    () => h.crm.post(path('/posts'), { text: i % 2 === 0 ? `Service update ${i}` : `Service update ${i}: https://status.example.com/${i}` }),
    () => h.crm.get(path('/direct-messages'), { params: { count: 10 } }),
    () => h.crm.get(path(`/users/${customer.screenName}`)),
    () => h.crm.put(path(`/following/${customer.screenName}`)),
  ];
  return steps[i % steps.length]!();
}

const byKind = (rows: { kind: string; units: number; amount: number }[]) => {
  const sums: Record<string, { units: number; amount: number }> = {};
  for (const row of rows) {
    const sum = (sums[row.kind] ??= { units: 0, amount: 0 });
    sum.units += row.units;
    sum.amount = Math.round((sum.amount + row.amount) * 1e6) / 1e6;
  }
  return sums;
};

async function simulatorCharges(userId: string): Promise<Charge[]> {
  const from = `${today()}T00:00:00.000Z`;
  return ((await h.sim.get('/control/billing', { params: { userId, from } })).data as { charges: Charge[] }).charges;
}

describe('usage per account', () => {
  it("equals the platform's bill for the same day after a hundred mixed actions and search polls", async () => {
    const customers = { alpha: await customerOf('alpha'), beta: await customerOf('beta') };
    const statuses: number[] = [];
    for (let i = 0; i < 100; i += 1) {
      const [accountId, customer] = i % 2 === 0 ? [alpha, customers.alpha] : [beta, customers.beta];
      statuses.push((await action(accountId, customer, Math.floor(i / 2))).status);
    }
    // Most calls succeed; a like of a post liked before is the platform's to refuse (and not billed).
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(90);

    for (const accountId of [alpha, beta]) {
      const usage = (await h.crm.get('/v1/usage', { params: { accountId, from: today(), to: today() } })).data as UsageAnswer;
      const charges = await simulatorCharges(accountId);
      const billed = charges.reduce((sum, charge) => sum + charge.amount, 0);
      expect(usage.items.length).toBeGreaterThanOrEqual(6);
      expect(Math.abs(usage.total - billed)).toBeLessThan(0.001);
      expect(byKind(usage.items)).toEqual(byKind(charges));
    }
  });

  it('charges a post read twice in a day once', async () => {
    const before = (await h.crm.get('/v1/usage', { params: { accountId: alpha } })).data as UsageAnswer;
    const posts = (units: UsageAnswer) => units.items.filter((item) => item.kind === 'posts_read').reduce((sum, item) => sum + item.units, 0);
    const again = await h.crm.get(`/v1/accounts/${alpha}/search`, { params: { query: 'alphatopic', count: 20 } });
    expect(again.status).toBe(200);
    expect((again.data.data as { statuses: unknown[] }).statuses.length).toBeGreaterThan(0);
    const after = (await h.crm.get('/v1/usage', { params: { accountId: alpha } })).data as UsageAnswer;
    expect(posts(after)).toBe(posts(before));
    expect(after.total).toBe(before.total);
  });

  it("forgets the records of earlier days' reads, keeping today's", async () => {
    await h.auth.pool.query(`INSERT INTO platform_reads (account_id, kind, resource_id, day) VALUES ($1, 'posts_read', '1', '2020-01-01')`, [alpha]);
    const count = async (older: boolean) => Number((await h.auth.pool.query<{ n: string }>(`SELECT count(*) AS n FROM platform_reads WHERE ${older ? 'day <' : 'day >='} (now() AT TIME ZONE 'UTC')::date`)).rows[0]!.n);
    const todays = await count(false);
    expect(todays).toBeGreaterThan(0);
    expect(await h.auth.meter.forgetOldReads()).toBeGreaterThanOrEqual(1);
    expect(await count(true)).toBe(0);
    expect(await count(false)).toBe(todays);
  });

  it('gives the same usage as CSV, the rate card, and the spend on /metrics without an account label', async () => {
    const csv = await h.crm.get('/v1/usage.csv', { params: { from: today(), to: today() }, responseType: 'text' });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = (csv.data as string).trim().split('\n');
    expect(lines[0]).toBe('accountId,date,kind,units,amount');
    const json = (await h.crm.get('/v1/usage', { params: { from: today(), to: today() } })).data as UsageAnswer;
    expect(lines.slice(1)).toEqual(json.items.map((item) => `${item.accountId},${item.date},${item.kind},${item.units},${item.amount.toFixed(6)}`));

    const card = (await h.crm.get('/v1/usage/rate-card')).data as { items: { kind: string; price: number; per: string }[] };
    expect(card.items).toEqual(expect.arrayContaining([{ kind: 'posts_read', price: 0.005, per: 'resource' }, { kind: 'post_create_with_url', price: 0.2, per: 'request' }]));

    const metrics = await (await fetch(`${h.authUrl}/metrics`)).text();
    const spend = metrics.split('\n').filter((line) => line.startsWith('platform_spend_dollars_total{'));
    expect(spend.length).toBeGreaterThan(0);
    expect(spend.every((line) => /^platform_spend_dollars_total\{kind="[a-z_]+"\} [0-9.e-]+$/.test(line))).toBe(true);
    const metered = spend.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    expect(Math.abs(metered - json.total)).toBeLessThan(0.001);
    expect(metrics).toMatch(/^platform_units_total\{kind="posts_read"\} [1-9]/m);
  });

  it('announces a budget set below the spend at once, refuses optional calls over HTTP with budget_exhausted, and lets essential ones through', async () => {
    expect((await h.crm.get(`/v1/accounts/${beta}/budget`)).status).toBe(404);
    const set = await h.crm.put(`/v1/accounts/${beta}/budget`, { monthlyLimit: 0.1 });
    expect(set.status).toBe(200);
    expect(set.data).toMatchObject({ accountId: beta, monthlyLimit: 0.1, warnAt: 0.8, stopEssential: false, exhausted: true });
    const exhausted = await h.waitForPublished('account.budget_exhausted', (p) => p.accountId === beta);
    expect(exhausted.envelope.payload).toMatchObject({ monthlyLimit: 0.1, stopEssential: false });
    await h.waitForPublished('account.budget_warning', (p) => p.accountId === beta);

    const searches = (await h.platformRequests('/2/tweets/search/recent', 'GET')).length;
    const refused = await h.crm.get(`/v1/accounts/${beta}/search`, { params: { query: 'betatopic' } });
    expect(refused.status).toBe(403);
    expect(refused.data.error).toMatchObject({ code: 'budget_exhausted', message: expect.stringContaining(`account ${beta}'s monthly budget of $0.1`) });
    expect((await h.crm.get(`/v1/accounts/${beta}/profile`)).data.error.code).toBe('budget_exhausted');
    expect((await h.platformRequests('/2/tweets/search/recent', 'GET')).length).toBe(searches);
    expect((await h.crm.get(`/v1/accounts/${beta}/direct-messages`, { params: { count: 5 } })).status).toBe(200);

    const strict = await h.crm.put(`/v1/accounts/${beta}/budget`, { monthlyLimit: 0.1, stopEssential: true });
    expect(strict.data).toMatchObject({ stopEssential: true, exhausted: true });
    expect((await h.crm.get(`/v1/accounts/${beta}/direct-messages`)).data.error.code).toBe('budget_exhausted');

    const bad = await h.crm.put(`/v1/accounts/${beta}/budget`, { monthlyLimit: 10, warnAt: 80 });
    expect(bad.status).toBe(400);
    expect(bad.data.error.message).toContain('warnAt');
    expect((await h.crm.delete(`/v1/accounts/${beta}/budget`)).status).toBe(204);
    expect((await h.crm.get(`/v1/accounts/${beta}/search`, { params: { query: 'betatopic' } })).status).toBe(200);
  });

  it('shows a credential limited to some accounts only their usage, and names a bad filter', async () => {
    const out: string[] = [];
    const code = await runCli(['credentials', 'create', '--name', 'alpha desk', '--scopes', 'tickets:read', '--accounts', alpha], h.config, testLogger(), { out: (line) => out.push(line), err: () => undefined });
    expect(code).toBe(0);
    const limited = axios.create({ baseURL: h.authUrl, validateStatus: () => true, headers: { authorization: `Bearer ${(JSON.parse(out.join('\n')) as { token: string }).token}` } });

    const all = (await limited.get('/v1/usage')).data as UsageAnswer;
    expect(all.items.length).toBeGreaterThan(0);
    expect(new Set(all.items.map((item) => item.accountId))).toEqual(new Set([alpha]));
    expect(((await limited.get('/v1/usage', { params: { accountId: beta } })).data as UsageAnswer).items).toEqual([]);

    const bad = await h.crm.get('/v1/usage', { params: { from: '2026-13-01' } });
    expect(bad.status).toBe(400);
    expect(bad.data.error.message).toContain('from');
    const reversed = await h.crm.get('/v1/usage', { params: { from: today(), to: '2020-01-01' } });
    expect(reversed.status).toBe(400);
    expect(reversed.data.error.message).toContain('`from` must not be after `to`');
  });
});
