/**
 * Search queries, ticketing alone on the real RabbitMQ and PostgreSQL: this test plays auth on
 * `auth.rpc` (a platform of posts answering searches by since_id and count, or its rate
 * limit) and webhook-ingest (deliveries handed to the activity handler, awaited). Time is
 * the service's injected clock; runs are started by the test.
 */
import pg from 'pg';
import { Queues, RawActivity, SearchPostsRequest, SYSTEM_TOPOLOGY, type SearchPostsRequestPayload, type SearchPostsResult } from '@crm/contracts';
import { Broker, makeEnvelope, rpcMethod, RpcServer } from '@crm/messaging';
import { postCreated, tweetObject } from '@crm/social-platform-simulator/src/activity-deliveries';
import { capturingLogger, freshDatabase, freshVirtualHost, testLogger, type TestDatabase, type TestVirtualHost, testPool } from '@crm/testing';
import { TicketingStore } from './adapters/db/store';
import { createActivityHandler } from './handlers/activity-handler';
import { startTicketing, type RunningTicketing } from './service';
import { rawActivity } from './testing/deliveries';
import { apiClient, testConfig } from './testing/harness';

let vhost: TestVirtualHost;
let db: TestDatabase;
let service: RunningTicketing;
let pool: pg.Pool;
let authBroker: Broker;
let auth: RpcServer;
let now = new Date();
const api = apiClient(() => `http://127.0.0.1:${service.port}`);

/** The simulated platform's posts, and what auth was asked. */
const posts: Record<string, unknown>[] = [];
let rateLimitedUntil: Date | null = null;
const calls: SearchPostsRequestPayload[] = [];

function answer(request: SearchPostsRequestPayload): SearchPostsResult {
  calls.push(request);
  if (rateLimitedUntil && now < rateLimitedUntil) return { status: 'rate_limited', resetAt: rateLimitedUntil.toISOString() };
  const found = posts
    .filter((post) => String(post.text).toLowerCase().includes(request.query.toLowerCase()))
    .filter((post) => !request.sinceId || BigInt(post.id_str as string) > BigInt(request.sinceId))
    .sort((a, b) => (BigInt(b.id_str as string) > BigInt(a.id_str as string) ? 1 : -1));
  return { status: 'ok', posts: found.slice(0, request.count ?? 15) };
}

let nextAccount = 50_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
const newAccount = () => String((nextAccount += 1));
let postSeq = 1_900_000_000_000_000_000n;
const nextPostId = () => String((postSeq += 1n));
const ANA = { id: '3001969357', screenName: 'ana', name: 'Ana Lima' };
const BOB = { id: '3001969358', screenName: 'bob', name: 'Bob Stone' };

beforeAll(async () => {
  [vhost, db] = await Promise.all([freshVirtualHost('ticketing_search'), freshDatabase('ticketing_search')]);
  authBroker = new Broker({ url: vhost.url, name: 'fake-auth', logger: testLogger('fake-auth') });
  auth = new RpcServer(authBroker, { queue: Queues.authRpc, topology: SYSTEM_TOPOLOGY, producer: 'auth', methods: [rpcMethod(SearchPostsRequest, async (payload) => answer(payload))] });
  await auth.ready();
  const config = testConfig({ AMQP_URL: vhost.url, DATABASE_URL: db.url, SEARCH_INTERVAL_MS: 3_600_000, SEARCH_FIRST_RUN_MAX: 3 });
  service = await startTicketing(config, { logger: capturingLogger('ticketing').logger, host: '127.0.0.1', clock: () => now });
  pool = testPool(db.url, { max: 2 });
});

afterAll(async () => {
  await service?.stop();
  await auth?.stop(1_000);
  await authBroker?.close();
  await pool?.end();
  await Promise.all([db?.drop(), vhost?.drop()]);
});

const later = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};

/** A post on the simulated platform; returns its tweet object. */
function platformPost(author: typeof ANA | string, text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const post = tweetObject({ author, text, eventId: nextPostId(), createdAt: now, ...extra });
  posts.push(post);
  return post;
}

/** The same post delivered by webhook, handled to the end (as the consumer would). */
async function deliver(accountId: string, post: Record<string, unknown>): Promise<void> {
  const user = post.user as { id_str: string; screen_name: string; name: string };
  const delivery = postCreated({ account: accountId, author: { id: user.id_str, screenName: user.screen_name, name: user.name }, text: String(post.text), eventId: String(post.id_str), createdAt: Date.parse(String(post.created_at)) });
  await createActivityHandler({ store: new TicketingStore(pool), logger: testLogger('webhook-test') })(makeEnvelope(RawActivity, 'webhook-ingest', rawActivity(delivery)), {
    routingKey: 'tweet_create_events',
    attempt: 1,
    lastAttempt: false,
    redelivered: false,
    signal: new AbortController().signal,
    deadLetter: () => Promise.reject(new Error('a valid post has nothing to dead-letter')),
  });
}

async function configure(accountId: string, searchQueries: unknown[]): Promise<void> {
  const res = await api.put(`/v1/partner-configs/${accountId}`, { searchQueries });
  expect(res.status).toBe(201);
}

interface StoredActivity {
  platform_event_id: string;
  ticket_id: string | null;
  kind: string;
  source: string | null;
  search_query: string | null;
}

async function activities(accountId: string): Promise<StoredActivity[]> {
  const { rows } = await pool.query<StoredActivity>(
    'SELECT platform_event_id, ticket_id, kind, source, search_query FROM activities WHERE account_id = $1 ORDER BY platform_event_id',
    [accountId],
  );
  return rows;
}

interface QueryState {
  query: string;
  lastRunAt: string | null;
  lastError: { code: string; message: string } | null;
  rateLimitedUntil: string | null;
  sinceId: string | null;
  lastMatches: number;
  matches: number;
  currentIntervalSeconds: number;
  estimatedMonthlyCost: number | null;
}

async function states(accountId: string): Promise<QueryState[]> {
  const res = await api.get<{ items: QueryState[] }>(`/v1/partner-configs/${accountId}/search-queries`);
  expect(res.status).toBe(200);
  return res.body.items;
}

describe('search queries', () => {
  it('cap the first run, remember since_id, and run again only after their interval', async () => {
    const accountId = newAccount();
    const old = Array.from({ length: 6 }, (_, index) => platformPost(ANA, `widgetzz order ${index} late`));
    await configure(accountId, [{ query: 'widgetzz', intervalSeconds: 60 }]);

    expect(await service.searchQueries.runDue()).toBe(1);
    const newest = old.slice(-3).map((post) => post.id_str as string);
    expect((await activities(accountId)).map((activity) => activity.platform_event_id)).toEqual(newest);
    expect((await activities(accountId)).every((activity) => activity.kind === 'mention' && activity.source === 'search' && activity.search_query === 'widgetzz' && activity.ticket_id !== null)).toBe(true);
    expect(calls.at(-1)).toMatchObject({ accountId, query: 'widgetzz', count: 3 });
    expect(await states(accountId)).toEqual([expect.objectContaining({ query: 'widgetzz', sinceId: newest[2], lastMatches: 3, matches: 3, lastError: null })]);

    const fresh = platformPost(BOB, 'is widgetzz down?');
    later(30);
    expect(await service.searchQueries.runDue()).toBe(0);
    later(31);
    expect(await service.searchQueries.runDue()).toBe(1);
    expect(calls.at(-1)).toMatchObject({ sinceId: newest[2], count: 100 });
    expect((await activities(accountId)).map((activity) => activity.platform_event_id)).toEqual([...newest, fresh.id_str]);
    expect((await states(accountId))[0]).toMatchObject({ sinceId: fresh.id_str, lastMatches: 1, matches: 4 });
  });

  it("skip the account's own posts, and reposts unless asked for", async () => {
    const accountId = newAccount();
    const own = platformPost({ id: accountId, screenName: `acct${accountId}`, name: 'Acme' }, 'gizmoqq is back in stock');
    const repost = platformPost(BOB, 'gizmoqq', { repostOf: { id: nextPostId(), text: 'gizmoqq rocks', author: ANA } });
    const customer = platformPost(ANA, 'my gizmoqq broke');
    await configure(accountId, ['gizmoqq']);
    await service.searchQueries.runDue();
    expect((await activities(accountId)).map((activity) => activity.platform_event_id)).toEqual([customer.id_str]);
    // the skipped posts are behind since_id all the same
    expect((await states(accountId))[0]).toMatchObject({ sinceId: [own, repost, customer].map((post) => post.id_str as string).sort().at(-1) });

    const withReposts = newAccount();
    await configure(withReposts, [{ query: 'gizmoqq', includeReposts: true }]);
    await service.searchQueries.runDue();
    // (the first account's own post is someone else's post to this one)
    expect((await activities(withReposts)).map((activity) => activity.platform_event_id).sort()).toEqual([own.id_str, repost.id_str, customer.id_str].sort());
  });

  it('make one activity on one ticket of a post found by search and delivered by webhook, in either order', async () => {
    const accountId = newAccount();
    await configure(accountId, [{ query: 'sprocketvv', intervalSeconds: 10 }]);
    const searchedFirst = platformPost(ANA, 'sprocketvv arrived broken');
    await service.searchQueries.runDue();
    await deliver(accountId, searchedFirst);

    const deliveredFirst = platformPost(BOB, 'sprocketvv refund please');
    await deliver(accountId, deliveredFirst);
    later(11);
    await service.searchQueries.runDue();

    const stored = await activities(accountId);
    expect(stored.map((activity) => [activity.platform_event_id, activity.source])).toEqual([
      [searchedFirst.id_str, 'search'],
      [deliveredFirst.id_str, null],
    ]);
    const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM tickets WHERE account_id = $1', [accountId]);
    expect(Number(rows[0]!.n)).toBe(2);
    expect(new Set(stored.map((activity) => activity.ticket_id)).size).toBe(2);
    expect((await states(accountId))[0]).toMatchObject({ lastMatches: 0, matches: 1 });
  });

  it("back off on the platform's rate limit until its reset, and show it", async () => {
    const accountId = newAccount();
    await configure(accountId, [{ query: 'doohickeyxx', intervalSeconds: 60 }]);
    rateLimitedUntil = new Date(now.getTime() + 600_000);
    const asked = () => calls.filter((call) => call.accountId === accountId).length;
    await service.searchQueries.runDue();
    expect(asked()).toBe(1);
    expect((await states(accountId))[0]).toMatchObject({ lastError: { code: 'rate_limited' }, rateLimitedUntil: rateLimitedUntil.toISOString() });

    // its interval has passed, the reset has not
    later(120);
    await service.searchQueries.runDue();
    expect(asked()).toBe(1);

    now = new Date(rateLimitedUntil.getTime() + 1_000);
    const match = platformPost(ANA, 'doohickeyxx missing');
    await service.searchQueries.runDue();
    expect(asked()).toBe(2);
    expect((await states(accountId))[0]).toMatchObject({ lastError: null, rateLimitedUntil: null, matches: 1 });
    expect((await activities(accountId)).map((activity) => activity.platform_event_id)).toEqual([match.id_str]);
    rateLimitedUntil = null;
  });

  it('run a due query once when several runs (replicas) claim at the same time', async () => {
    const accountId = newAccount();
    await configure(accountId, ['thingamajigww']);
    platformPost(BOB, 'thingamajigww stuck');
    await Promise.all([service.searchQueries.runDue(), service.searchQueries.runDue(), service.searchQueries.runDue()]);
    expect(calls.filter((call) => call.accountId === accountId)).toHaveLength(1);
    expect(await activities(accountId)).toHaveLength(1);
  });

  it('wait twice as long after each run that finds nothing (up to the cap), go back to the interval on a match, and estimate the monthly cost', async () => {
    const accountId = newAccount();
    platformPost(ANA, 'whatsitvv late');
    platformPost(BOB, 'whatsitvv broken');
    await configure(accountId, [{ query: 'whatsitvv', intervalSeconds: 60 }]);
    const asked = () => calls.filter((call) => call.accountId === accountId);

    await service.searchQueries.runDue();
    // Two posts at $0.005: $0.01 a run, 43,200 runs of 60 s in 30 days.
    expect((await states(accountId))[0]).toMatchObject({ lastMatches: 2, currentIntervalSeconds: 60, estimatedMonthlyCost: 432 });

    // Nothing new: 120 s, 240 s, ... up to SEARCH_IDLE_INTERVAL_MAX_SECONDS (3600).
    const waits = [120, 240, 480, 960, 1920, 3600, 3600];
    for (const [index, expected] of waits.entries()) {
      const current = (await states(accountId))[0]!.currentIntervalSeconds;
      later(current - 1);
      await service.searchQueries.runDue();
      expect(asked()).toHaveLength(index + 1);
      later(1);
      await service.searchQueries.runDue();
      expect(asked()).toHaveLength(index + 2);
      expect((await states(accountId))[0]).toMatchObject({ lastError: null, lastMatches: 0, currentIntervalSeconds: expected });
    }
    // The recent cost per run fell with the empty runs (each weighs a quarter), and the runs are rarer.
    const idle = (await states(accountId))[0]!;
    expect(idle.estimatedMonthlyCost).toBeCloseTo(0.01 * 0.75 ** waits.length * (30 * 86_400 / 3600), 2);

    const fresh = platformPost(ANA, 'whatsitvv refund?');
    later(3600);
    await service.searchQueries.runDue();
    expect((await states(accountId))[0]).toMatchObject({ lastMatches: 1, currentIntervalSeconds: 60, sinceId: fresh.id_str });
    // Every run after the first asked only for posts newer than the last one seen.
    expect(asked().slice(1).every((call) => typeof call.sinceId === 'string')).toBe(true);
    expect(asked()).toHaveLength(waits.length + 2);
  });

  it('refuse a bad query configuration with a 400 naming the field, and 404 the states of an unknown account', async () => {
    const bad = await api.put<{ error: { code: string; message: string } }>(`/v1/partner-configs/${newAccount()}`, { searchQueries: [{ query: 'x', intervalSeconds: 5 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_partner_config', message: expect.stringContaining('body.searchQueries[0].intervalSeconds must be >= 10') });
    expect((await api.get(`/v1/partner-configs/${newAccount()}/search-queries`)).status).toBe(404);
  });
});
