/**
 * The platform refusing the whole app, as it means it. Spent credit (402 `credits-depleted`) is
 * auth's own state: the app is marked out of credit (kept across a restart, announced once),
 * every command is held in the order it came and sent once the periodic probe finds credit back
 * (none lost, none twice), and reads answer 503 `out_of_credit` with Retry-After meanwhile. A
 * used-up monthly usage cap (429 `usage-capped`) fails commands at once with `usage_capped` and
 * keeps later ones from calling until the cap resets or the hold ends; an ordinary 429 stays a
 * rate limit. Each refusal is counted in `platform_refusals_total{reason}`. Credit runs out as on
 * the platform: the simulator's balance spent, then topped up; the cap is the simulator's switch.
 */
import { randomUUID } from 'node:crypto';
import { Exchanges, Queues, SearchPostsRequest, SocialCommand, SYSTEM_TOPOLOGY, type SearchPostsRequestPayload, type SearchPostsResult, type SocialCommandPayload } from '@crm/contracts';
import { Broker, makeEnvelope, Publisher, RpcClient } from '@crm/messaging';
import { testLogger, waitFor } from '@crm/testing';
import { startHarness, type Harness } from './testing/harness';

const HOLD_SECONDS = 2;
const PROBE_MS = 500;

let h: Harness;
let accountId: string;
let otherAccountId: string;
let broker: Broker;
let publisher: Publisher;
let rpc: RpcClient;

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_running_out', env: { PLATFORM_REFUSAL_HOLD_SECONDS: String(HOLD_SECONDS), CREDIT_PROBE_INTERVAL_MS: String(PROBE_MS) } });
  accountId = await h.connect('@acme_runout');
  otherAccountId = await h.connect('@acme_runout_two');
  broker = new Broker({ url: h.vhost.url, name: 'running-out-test', logger: testLogger('running-out-test') });
  publisher = new Publisher(broker, SYSTEM_TOPOLOGY);
  rpc = new RpcClient(broker, 'running-out-test', SYSTEM_TOPOLOGY);
});

afterAll(async () => {
  await rpc?.close();
  await publisher?.close();
  await broker?.close();
  await h?.stop();
});

const send = (payload: SocialCommandPayload) => publisher.publish(Exchanges.socialCommands, payload.action, makeEnvelope(SocialCommand, 'ticketing', payload));
const refuse = (body: { kind: string; resetInSeconds?: number }) => h.sim.post('/control/platform/app-refusal', body);
const lift = () => h.sim.delete('/control/platform/app-refusal');
/** The simulator's balance spent, as the platform's prepaid credits run out; and bought again. */
const spendBalance = async () => expect((await h.sim.put('/control/billing', { balance: 0 })).status).toBe(200);
const topUp = async () => expect((await h.sim.post('/control/billing/top-up', { amount: 100 })).status).toBe(200);
const posts = async () => (await h.platformRequests('/2/tweets', 'POST')).length;

/** The value of a series on auth's /metrics: `name` with every label given; an error when it is not there. */
async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${h.authUrl}/metrics`)).text();
  const pairs = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  const line = text.split('\n').find((candidate) => (pairs.length === 0 ? candidate.startsWith(`${name} `) : candidate.startsWith(`${name}{`) && pairs.every((pair) => candidate.includes(pair))));
  if (!line) throw new Error(`${name}{${pairs.join(',')}} is not on /metrics`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** The refusals counted for `reason`. */
const refusals = (reason: string) => metric('platform_refusals_total', { reason });

/** Waits until auth no longer holds commands for `reason` (the hold of PLATFORM_REFUSAL_HOLD_SECONDS has ended). */
const holdEnded = (reason: string) =>
  waitFor(async () => (await metric('platform_refusal_in_force', { reason })) === 0, { timeoutMs: HOLD_SECONDS * 1000 + 15_000, what: `the ${reason} hold to end` });

/** The commands auth's consumer has acknowledged (done with, not to be retried). */
const commandsAcked = () => metric('messages_consumed_total', { queue: 'auth.commands', outcome: 'acked' }).catch(() => 0);

async function post(text: string) {
  const commandId = `post-${randomUUID()}`;
  await send({ commandId, action: 'post', accountId, input: { text } });
  return (await h.waitForPublished('post.failed', (p) => p.commandId === commandId)).envelope.payload;
}

const status = async () => (await h.crm.get('/v1/app/status')).data as { outOfCredit: boolean; since: string | null; heldCommands: number };
const announced = (routingKey: string) => h.published.filter((p) => p.routingKey === routingKey);
/** Results published for a command (a replayed result would be a second). */
const resultsOf = (commandId: string) => h.published.filter((p) => p.exchange === Exchanges.socialCommandResults && p.envelope.payload.commandId === commandId);

describe('credit spent mid-run: 402 credits-depleted', () => {
  const texts: string[] = [];
  const commandIds: string[] = [];

  /** Sends a post and waits until auth holds it: the order commands reach auth is the order they are sent. */
  async function sendHeld(account: string, text: string) {
    const commandId = `credit-${randomUUID()}`;
    const before = (await status()).heldCommands;
    await send({ commandId, action: 'post', accountId: account, input: { text } });
    await waitFor(async () => (await status()).heldCommands === before + 1, { what: `command ${commandId} to be held` });
    texts.push(text);
    commandIds.push(commandId);
  }

  it('holds the command that met the refusal and every command after it, in order, across accounts and a restart, and refuses reads meanwhile', async () => {
    const counted = await refusals('credits_depleted');
    const warmup = `post-${randomUUID()}`;
    await send({ commandId: warmup, action: 'post', accountId, input: { text: 'before the credit ran out' } });
    await h.waitForPublished('post.succeeded', (p) => p.commandId === warmup);
    expect(await status()).toEqual({ outOfCredit: false, since: null, heldCommands: 0 });

    await spendBalance();
    const before = await posts();
    for (const [index, account] of [accountId, otherAccountId, accountId, otherAccountId].entries()) await sendHeld(account, `held ${index} ${randomUUID()}`);
    // Only the first met the platform's 402; the others were held without calling.
    expect(await posts()).toBe(before + 1);
    // Counted: the command's 402, and the probe's while credit is spent.
    expect(await refusals('credits_depleted')).toBeGreaterThan(counted);
    const held = await status();
    expect(held).toMatchObject({ outOfCredit: true, heldCommands: 4 });
    expect(Math.abs(new Date(held.since!).getTime() - Date.now())).toBeLessThan(60_000);
    expect(await metric('platform_out_of_credit')).toBe(1);
    await h.waitForPublished('app.out_of_credit');
    expect(announced('app.out_of_credit')[0]!.envelope.payload).toMatchObject({ envName: 'test', since: held.since });
    for (const commandId of commandIds) expect(resultsOf(commandId)).toHaveLength(0);

    // Reads: HTTP and RPC, refused with what to do.
    const read = await h.crm.get(`/v1/accounts/${accountId}/profile`);
    expect(read.status).toBe(503);
    expect(read.data.error.code).toBe('out_of_credit');
    expect(read.data.error.message).toMatch(/credits .*spent.*add credits/);
    expect(Number(read.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const searched = await rpc.call<SearchPostsRequestPayload, SearchPostsResult>(Queues.authRpc, SearchPostsRequest, { accountId, query: 'anything' }, { timeoutMs: 10_000 });
    expect(searched).toMatchObject({ status: 'failed', code: 'out_of_credit' });

    // A restart keeps the state and the held commands; a command after it is held behind them.
    await h.restartAuth();
    expect(await status()).toMatchObject({ outOfCredit: true, since: held.since, heldCommands: 4 });
    await sendHeld(otherAccountId, `held after restart ${randomUUID()}`);
    expect(await posts()).toBe(before + 1);
    expect(announced('app.out_of_credit')).toHaveLength(1);
  });

  it('sends every held command once the probe finds credit back: in order, none lost, none twice, the end announced once', async () => {
    const sentBefore = (await h.platformRequests('/2/tweets', 'POST')).filter((request) => request.status === 201).length;
    await topUp();
    await h.waitForPublished('app.credit_restored');
    for (const commandId of commandIds) await h.waitForPublished('post.succeeded', (p) => p.commandId === commandId);
    expect(announced('app.credit_restored')[0]!.envelope.payload).toMatchObject({ envName: 'test', heldCommands: commandIds.length });

    const sent = (await h.platformRequests('/2/tweets', 'POST')).filter((request) => request.status === 201).reverse().slice(sentBefore);
    expect(sent.map((request) => (request.json as { text: string }).text)).toEqual(texts);
    for (const commandId of commandIds) expect(resultsOf(commandId)).toHaveLength(1);
    expect(await status()).toEqual({ outOfCredit: false, since: null, heldCommands: 0 });
    expect(await metric('platform_out_of_credit')).toBe(0);
    expect((await h.crm.get(`/v1/accounts/${accountId}/profile`)).status).toBe(200);

    // Checking again once credit is back finds nothing to end: each event once.
    expect((await h.crm.post('/v1/app/credit-check')).data).toEqual({ outOfCredit: false, since: null, heldCommands: 0 });
    expect(announced('app.out_of_credit')).toHaveLength(1);
    expect(announced('app.credit_restored')).toHaveLength(1);
  });
});

describe('the monthly usage cap: 429 usage-capped', () => {
  it('without a reset time: fails at once with usage_capped (never as a rate limit to retry), and says no reset was given', async () => {
    const counted = await refusals('usage_capped');
    const limited = await refusals('rate_limited');
    await refuse({ kind: 'usage-capped' });
    const before = await posts();
    const acked = await commandsAcked();
    const failed = await post('over the cap');
    expect(failed).toMatchObject({ outcome: 'failed', error: { code: 'usage_capped', platformStatus: 429 } });
    expect((failed.error as { message: string }).message).toMatch(/usage cap .*no reset time/);
    // Not retried by the consumer: still one call once it has acknowledged the command.
    await waitFor(async () => (await commandsAcked()) > acked, { what: 'the consumer to acknowledge the command' });
    expect(await posts()).toBe(before + 1);
    expect(await refusals('usage_capped')).toBe(counted + 1);
    expect(await refusals('rate_limited')).toBe(limited);
    await lift();
    await holdEnded('usage_capped');
  });

  it('with a reset time: the command names it, and no command calls the platform before it (HTTP 429 usage_capped)', async () => {
    await refuse({ kind: 'usage-capped', resetInSeconds: 3600 });
    const before = await posts();
    const failed = await post('capped until next month');
    expect(failed).toMatchObject({ outcome: 'failed', error: { code: 'usage_capped', platformStatus: 429 } });
    const reset = /resets at (\S+?):? /.exec((failed.error as { message: string }).message)?.[1];
    expect(Math.abs(new Date(reset!).getTime() - (Date.now() + 3_600_000))).toBeLessThan(60_000);

    await lift(); // the platform would answer now, but auth holds until the reset it was given
    const again = await post('still capped for auth');
    expect(again).toMatchObject({ outcome: 'failed', error: { code: 'usage_capped' } });
    expect(await posts()).toBe(before + 1);
    const answer = await h.crm.get(`/v1/accounts/${accountId}/profile`);
    expect(answer.status).toBe(429);
    expect(answer.data.error.code).toBe('usage_capped');
  });
});

describe('an ordinary 429', () => {
  it('is counted as rate_limited', async () => {
    const counted = await refusals('rate_limited');
    await h.sim.post('/control/platform/faults', { path: '/2/users/me', status: 429, resetInSeconds: 60 });
    await h.restartAuth(); // a fresh process: the usage cap held above is in the last one's memory
    const answer = await h.crm.get(`/v1/accounts/${accountId}/profile`);
    expect(answer.status).toBe(429);
    expect(answer.data.error.code).toBe('rate_limited');
    expect(await refusals('rate_limited')).toBe(counted + 1);
  });
});
