/**
 * A partner's monthly budget, end to end on the real RabbitMQ and PostgreSQL: auth against the
 * social platform simulator, and ticketing polling a search query through auth.rpc. While the
 * budget lasts the query finds posts; past its warning threshold auth announces
 * `account.budget_warning` once; at the limit `account.budget_exhausted`, the search polling
 * stops (ticketing's search-query state shows `budget_exhausted`, the platform is not asked)
 * while a customer reply is still sent; a raised budget resumes the polling at once.
 */
import { randomUUID } from 'node:crypto';
import { Exchanges, SocialCommand, SYSTEM_TOPOLOGY, type SocialCommandPayload } from '@crm/contracts';
import { Broker, makeEnvelope, Publisher } from '@crm/messaging';
import { startHarness, type Harness } from '@crm/auth/src/testing/harness';
import { capturingLogger, freshDatabase, testLogger, type TestDatabase } from '@crm/testing';
import { startTicketing, type RunningTicketing } from '@crm/ticketing/src/service';
import { apiClient, testConfig } from '@crm/ticketing/src/testing/harness';

let h: Harness;
let accountId: string;
let ticketingDb: TestDatabase;
let ticketing: RunningTicketing;
let broker: Broker;
let publisher: Publisher;
let now = new Date();
const ticketingApi = apiClient(() => `http://127.0.0.1:${ticketing.port}`);

beforeAll(async () => {
  h = await startHarness({ prefix: 'e2e_budget' });
  accountId = await h.connect('@acme_budget');
  ticketingDb = await freshDatabase('e2e_budget_ticketing');
  // The periodic search round stays off: the test runs each round itself, on its own clock.
  const config = testConfig({ AMQP_URL: h.vhost.url, DATABASE_URL: ticketingDb.url, SEARCH_INTERVAL_MS: 3_600_000 });
  ticketing = await startTicketing(config, { logger: capturingLogger('e2e-budget-ticketing').logger, host: '127.0.0.1', clock: () => now });
  broker = new Broker({ url: h.vhost.url, name: 'e2e-budget-ticketing-commands', logger: testLogger('e2e-budget') });
  publisher = new Publisher(broker, SYSTEM_TOPOLOGY);
});

afterAll(async () => {
  await publisher?.close();
  await broker?.close();
  await ticketing?.stop();
  await ticketingDb?.drop();
  await h?.stop();
});

const later = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};

interface QueryState {
  query: string;
  lastError: { code: string; message: string } | null;
  lastMatches: number;
  matches: number;
}

async function queryState(): Promise<QueryState> {
  const res = await ticketingApi.get<{ items: QueryState[] }>(`/v1/partner-configs/${accountId}/search-queries`);
  expect(res.status).toBe(200);
  return res.body.items[0]!;
}

const customerPost = async (text: string) => (await h.sim.post('/control/platform/posts', { author: '@budget_cust', text })).data.id_str as string;
const searches = async () => (await h.platformRequests('/2/tweets/search/recent', 'GET')).length;
const announced = (routingKey: string) => h.published.filter((p) => p.routingKey === routingKey && p.envelope.payload.accountId === accountId);

/** A customer reply as ticketing sends it (a command on social.commands); its result. */
async function reply(inReplyToPostId: string, text: string) {
  const payload: SocialCommandPayload = { commandId: `reply-${randomUUID()}`, action: 'reply', accountId, input: { text, inReplyToPostId } };
  await publisher.publish(Exchanges.socialCommands, payload.action, makeEnvelope(SocialCommand, 'ticketing', payload));
  return (await h.waitForPublished('reply.succeeded', (p) => p.commandId === payload.commandId)).envelope.payload;
}

describe('a partner over its monthly budget', () => {
  it('stops search polling but still sends customer replies, announces the warning once, and resumes when the budget is raised', async () => {
    const question = await customerPost('gadgetkk arrived broken');
    expect((await ticketingApi.put(`/v1/partner-configs/${accountId}`, { searchQueries: [{ query: 'gadgetkk', intervalSeconds: 60 }] })).status).toBe(201);
    // Spent so far: the user read that verified the connection ($0.010).
    const budget = await h.crm.put(`/v1/accounts/${accountId}/budget`, { monthlyLimit: 0.05, warnAt: 0.5 });
    expect(budget.status).toBe(200);
    expect(budget.data).toMatchObject({ monthlyLimit: 0.05, warnAt: 0.5, stopEssential: false, spent: 0.01, exhausted: false });

    // Within the budget the query finds the post (one post read: $0.005).
    expect(await ticketing.searchQueries.runDue()).toBe(1);
    expect(await queryState()).toMatchObject({ lastError: null, lastMatches: 1 });

    // Replies at $0.015: the first crosses half the budget ($0.030), the third the budget ($0.060).
    for (const n of [1, 2, 3]) expect(await reply(question, `@budget_cust sorry about that (${n})`)).toMatchObject({ outcome: 'succeeded' });
    const exhausted = await h.waitForPublished('account.budget_exhausted', (p) => p.accountId === accountId);
    expect(exhausted.envelope.payload).toMatchObject({ monthlyLimit: 0.05, spent: 0.06, stopEssential: false });
    expect(announced('account.budget_warning').map((p) => p.envelope.payload)).toEqual([expect.objectContaining({ accountId, spent: 0.03, warnAt: 0.5, monthlyLimit: 0.05 })]);
    expect((await h.crm.get(`/v1/accounts/${accountId}/budget`)).data).toMatchObject({ spent: 0.06, exhausted: true });

    // Search polling stops: the query's state says why, and the platform is not asked.
    await customerPost('gadgetkk still broken');
    const asked = await searches();
    later(61);
    expect(await ticketing.searchQueries.runDue()).toBe(1);
    const stopped = await queryState();
    expect(stopped).toMatchObject({ lastError: { code: 'budget_exhausted' }, matches: 1 });
    expect(stopped.lastError!.message).toMatch(/monthly budget of \$0\.05 .* is spent/);
    expect(await searches()).toBe(asked);

    // A customer reply is still sent; its result is announced after anything its charge announced: no second warning or exhaustion.
    const posted = (await h.platformRequests('/2/tweets', 'POST')).length;
    expect(await reply(question, '@budget_cust a replacement is on its way')).toMatchObject({ outcome: 'succeeded' });
    expect((await h.platformRequests('/2/tweets', 'POST')).length).toBe(posted + 1);
    expect(announced('account.budget_warning')).toHaveLength(1);
    expect(announced('account.budget_exhausted')).toHaveLength(1);

    // The CRM raises the budget: the next round searches again and finds the new post.
    expect((await h.crm.put(`/v1/accounts/${accountId}/budget`, { monthlyLimit: 5 })).data).toMatchObject({ monthlyLimit: 5, warnAt: 0.8, exhausted: false });
    later(61);
    expect(await ticketing.searchQueries.runDue()).toBe(1);
    expect(await queryState()).toMatchObject({ lastError: null, lastMatches: 1, matches: 2 });
    expect(await searches()).toBe(asked + 1);
  });
});
