/**
 * The platform refusing the whole app, as it means it: a used-up monthly usage cap (429 whose
 * problem type is `usage-capped`) and depleted credits (402 `credits-depleted`) fail commands at
 * once with `usage_capped` / `credits_depleted`, are not retried, and keep later commands from
 * calling until the cap resets or the hold ends; an ordinary 429 stays a rate limit. Each is
 * counted in `platform_refusals_total{reason}`. The simulator refuses on its control switch.
 */
import { randomUUID } from 'node:crypto';
import { Exchanges, SocialCommand, SYSTEM_TOPOLOGY, type SocialCommandPayload } from '@crm/contracts';
import { Broker, makeEnvelope, Publisher } from '@crm/messaging';
import { testLogger, waitFor } from '@crm/testing';
import { startHarness, type Harness } from './testing/harness';

const HOLD_SECONDS = 2;

let h: Harness;
let accountId: string;
let broker: Broker;
let publisher: Publisher;

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_running_out', env: { PLATFORM_REFUSAL_HOLD_SECONDS: String(HOLD_SECONDS) } });
  accountId = await h.connect('@acme_runout');
  broker = new Broker({ url: h.vhost.url, name: 'running-out-test', logger: testLogger('running-out-test') });
  publisher = new Publisher(broker, SYSTEM_TOPOLOGY);
});

afterAll(async () => {
  await publisher?.close();
  await broker?.close();
  await h?.stop();
});

const send = (payload: SocialCommandPayload) => publisher.publish(Exchanges.socialCommands, payload.action, makeEnvelope(SocialCommand, 'ticketing', payload));
const refuse = (body: { kind: string; resetInSeconds?: number }) => h.sim.post('/control/platform/app-refusal', body);
const lift = () => h.sim.delete('/control/platform/app-refusal');
const posts = async () => (await h.platformRequests('/2/tweets', 'POST')).length;

/** The value of a series on auth's /metrics: `name` with every label given; an error when it is not there. */
async function metric(name: string, labels: Record<string, string>): Promise<number> {
  const text = await (await fetch(`${h.authUrl}/metrics`)).text();
  const pairs = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{`) && pairs.every((pair) => candidate.includes(pair)));
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

describe('depleted credits: 402 credits-depleted', () => {
  afterAll(async () => {
    await lift();
    await holdEnded('credits_depleted');
  });

  it('fails the command at once with credits_depleted, sends nothing more during the hold, and sends again once credits are back', async () => {
    const counted = await refusals('credits_depleted');
    await refuse({ kind: 'credits-depleted' });
    const before = await posts();

    const first = await post('no credits left');
    expect(first).toMatchObject({ outcome: 'failed', error: { code: 'credits_depleted', platformStatus: 402 } });
    expect((first.error as { message: string }).message).toMatch(/credits .*depleted.*add credits/);
    // A second command during the hold fails without calling the platform.
    const second = await post('still none');
    expect(second).toMatchObject({ outcome: 'failed', error: { code: 'credits_depleted', platformStatus: null } });
    expect(await posts()).toBe(before + 1);
    expect(await refusals('credits_depleted')).toBe(counted + 1);

    await lift();
    await holdEnded('credits_depleted');
    const commandId = `post-${randomUUID()}`;
    await send({ commandId, action: 'post', accountId, input: { text: 'credits added' } });
    const done = await h.waitForPublished('post.succeeded', (p) => p.commandId === commandId);
    expect(done.envelope.payload.outcome).toBe('succeeded');
  });

  it('answers an HTTP action 503 credits_depleted', async () => {
    await refuse({ kind: 'credits-depleted' });
    const answer = await h.crm.get(`/v1/accounts/${accountId}/profile`);
    expect(answer.status).toBe(503);
    expect(answer.data.error.code).toBe('credits_depleted');
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
