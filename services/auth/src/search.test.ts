/**
 * The platform's search of recent posts (v2's recent search, answered in the shape of v1.1's
 * standard search) as a read action of an OAuth 1.0a account: over HTTP, and over `auth.rpc`
 * (how ticketing runs its search queries), against the simulated platform.
 */
import { Queues, SearchPostsRequest, SYSTEM_TOPOLOGY, type SearchPostsRequestPayload, type SearchPostsResult } from '@crm/contracts';
import { Broker, RpcClient } from '@crm/messaging';
import { testLogger } from '@crm/testing';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
let accountId: string;
let broker: Broker;
let rpc: RpcClient;

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_search' });
  accountId = await h.connect('@acme_search');
  broker = new Broker({ url: h.vhost.url, name: 'search-test', logger: testLogger('search-test') });
  rpc = new RpcClient(broker, 'search-test', SYSTEM_TOPOLOGY);
});

afterAll(async () => {
  await rpc?.close();
  await broker?.close();
  await h?.stop();
});

async function postAs(author: string, text: string): Promise<string> {
  return (await h.sim.post('/control/platform/posts', { author, text })).data.id_str as string;
}

const search = (payload: Omit<SearchPostsRequestPayload, 'accountId'>) =>
  rpc.call<SearchPostsRequestPayload, SearchPostsResult>(Queues.authRpc, SearchPostsRequest, { accountId, ...payload }, { timeoutMs: 10_000 });

const ids = (result: SearchPostsResult) => (result.status === 'ok' ? result.posts.map((post) => post.id_str) : result);

describe('search of recent posts', () => {
  it('finds matching posts newest first, after since_id, at most count, signed as the account', async () => {
    const first = await postAs('@searcher_one', 'Where is my Widgetco parcel?');
    const second = await postAs('@searcher_two', 'widgetco support is fast');
    await postAs('@searcher_two', 'nothing to see here');
    const third = await postAs('@searcher_three', '"widgetco" again, with quotes');

    expect(ids(await search({ query: 'widgetco' }))).toEqual([third, second, first]);
    expect(ids(await search({ query: 'widgetco', sinceId: first }))).toEqual([third, second]);
    expect(ids(await search({ query: 'widgetco', count: 1 }))).toEqual([third]);
    expect(ids(await search({ query: 'widgetco from:searcher_two' }))).toEqual([second]);

    const [request] = await h.platformRequests('/2/tweets/search/recent', 'GET');
    expect(request).toMatchObject({ caller: { kind: 'user', userId: accountId }, status: 200, query: { query: 'widgetco from:searcher_two', sort_order: 'recency', max_results: '15' } });
    // v2 takes at least 10 a page: a smaller count is asked as 10 and the answer cut.
    expect((await h.platformRequests('/2/tweets/search/recent', 'GET')).map((entry) => entry.query.max_results)).toContain('10');
    expect(await h.platformRequests('/1.1/search/tweets.json', 'GET')).toEqual([]);

    const res = await h.crm.get(`/v1/accounts/${accountId}/search`, { params: { query: 'widgetco', sinceId: second } });
    expect(res.status).toBe(200);
    expect((res.data as { data: { statuses: { id_str: string }[] } }).data.statuses.map((post) => post.id_str)).toEqual([third]);
  });

  it("answers the platform's rate limit with the time it opens again, and refuses a bad input", async () => {
    await h.sim.post('/control/platform/faults', { path: '/2/tweets/search/recent', status: 429, resetInSeconds: 300 });
    const limited = await search({ query: 'anything' });
    expect(limited.status).toBe('rate_limited');
    const resetAt = Date.parse((limited as { resetAt: string }).resetAt);
    expect(resetAt).toBeGreaterThan(Date.now() + 200_000);
    // auth remembers the window: the next search is not sent before the reset
    const before = (await h.platformRequests('/2/tweets/search/recent', 'GET')).length;
    expect((await search({ query: 'anything' })).status).toBe('rate_limited');
    expect((await h.platformRequests('/2/tweets/search/recent', 'GET')).length).toBe(before);
    // The window is the route's: reads through other routes still go out.
    expect((await h.crm.get(`/v1/accounts/${accountId}/profile`)).status).toBe(200);

    await expect(search({ query: 'x', count: 500 })).rejects.toThrow('/payload/count must be <= 100');
    const bad = await h.crm.get(`/v1/accounts/${accountId}/search`, { params: { query: '   ' } });
    expect(bad.status).toBe(400);
  });
});
