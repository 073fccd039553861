/**
 * The X Activity API end to end, with a replay after an outage: auth registers the XAA webhook
 * (the platform's CRC reaches webhook-ingest) and subscribes a connected account; DMs reach
 * ticketing. Then the webhook is down while more DMs are sent, and auth is restarted with a
 * heartbeat old enough to be an outage: it asks the platform to replay the gap (which starts
 * before the outage, so DMs already ticketed come again) and every DM is in ticketing exactly once.
 * An account removed from auth leaves its XAA subscriptions. The repository's examples of the
 * platform's documented deliveries (every one: DMs, a mention, a reply, a quote, likes, follows), signed as the platform signs them,
 * end on the right tickets and contacts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AxiosInstance } from 'axios';
import { runCli } from '@crm/auth/src/cli-commands';
import type { Harness } from '@crm/auth/src/testing/harness';
import { waitFor } from '@crm/testing';
import { expectDeliveredOutcomes, startActivityStack, type ActivityStack } from './activity-stack';

/** Generous: the test machine may be shared. */
const SLOW = 45_000;
/** The event types auth subscribes an account to by default (HELP_DESK_EVENT_TYPES). */
const SUBSCRIBED = 12;
const NO_REPLAY_DELAY = { XAA_REPLAY_MIN_START_AGE_SECONDS: '0', XAA_REPLAY_MIN_END_AGE_SECONDS: '0' };

let stack: ActivityStack;
let h: Harness;
let ticketingUrl = '';
let http: AxiosInstance;

beforeAll(async () => {
  stack = await startActivityStack('xaa_replay', {
    simulatorEnv: NO_REPLAY_DELAY,
    // No heartbeat round during the test: the restart below finds the heartbeat it is given.
    env: { ...NO_REPLAY_DELAY, HEARTBEAT_INTERVAL_MS: '3600000', XAA_REPLAY_GAP_SECONDS: '120', XAA_REPLAY_MARGIN_SECONDS: '60' },
  });
  ({ harness: h, ticketingUrl, crm: http } = stack);
}, 90_000);

afterAll(async () => {
  await stack?.stop();
});

async function cli(...argv: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, h.config, h.logger, { out: (line) => out.push(line), err: (line) => err.push(line) });
  if (code !== 0) throw new Error(`cli ${argv.join(' ')} exited ${code}: ${err.join('\n')}`);
  return { code, json: JSON.parse(out.join('\n')) as Record<string, unknown> };
}

/** The platform event ids of every DM on the account's tickets, with repeats. */
async function ticketedDms(accountId: string): Promise<string[]> {
  const list = await http.get(`${ticketingUrl}/v1/tickets?accountId=${accountId}`);
  const tickets = await Promise.all((list.data.items as { id: string }[]).map(async ({ id }) => (await http.get(`${ticketingUrl}/v1/tickets/${id}`)).data));
  return tickets.flatMap((ticket: { activities: { platformEventId: string }[] }) => ticket.activities.map((activity) => activity.platformEventId));
}

/** The app's bearer token, to read the platform's subscriptions as the app. */
async function bearer(): Promise<string> {
  const basic = Buffer.from(`${encodeURIComponent(h.secrets.consumerKey)}:${encodeURIComponent(h.secrets.consumerSecret)}`).toString('base64');
  const answer = await h.sim.post('/oauth2/token', 'grant_type=client_credentials', { headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' } });
  return answer.data.access_token as string;
}

async function sendDm(from: string, to: string, text: string): Promise<string> {
  const sent = await h.crm.post(`/v1/accounts/${from}/direct-messages`, { recipientId: to, text });
  if (sent.status !== 200) throw new Error(`the DM answered ${sent.status}: ${JSON.stringify(sent.data)}`);
  return sent.data.platformId as string;
}

describe('the X Activity API with a replay after an outage', () => {
  let account: string;
  let customer: string;
  let webhookId: string;
  const before: string[] = [];
  const during: string[] = [];

  it('registers the XAA webhook and subscribes the account to each event type, idempotently', async () => {
    // Private events (DMs, likes, posts of others) are subscribed with the account's OAuth 2.0 token.
    account = await h.connectOAuth2('@acme_help');
    customer = await h.connectOAuth2('@ana');
    expect((await http.put(`${ticketingUrl}/v1/partner-configs/${account}`, { pageName: 'Acme Help' })).status).toBe(201);

    const registered = await cli('xaa', 'webhook', 'register');
    webhookId = registered.json.id as string;
    expect(registered.json).toMatchObject({ url: `${h.config.PUBLIC_WEBHOOK_URL}/xaa`, valid: true });
    expect((await cli('xaa', 'webhook', 'list')).json.items).toEqual([expect.objectContaining({ id: webhookId, valid: true })]);

    const first = await cli('xaa', 'subscribe', account);
    expect(first.json).toMatchObject({ created: expect.arrayContaining(['dm.received', 'chat.received', 'follow.follow', 'oauth.revoke']), refused: [] });
    expect(first.json.created).toHaveLength(SUBSCRIBED);
    expect((await cli('xaa', 'subscribe', account)).json).toMatchObject({ created: [], existing: first.json.created });
    const onPlatform = (await h.platformRequests('/2/activity/subscriptions', 'POST')).filter((r) => r.status === 200);
    expect(onPlatform).toHaveLength(SUBSCRIBED);
    expect(onPlatform.map((r) => r.json)).toContainEqual({ event_type: 'like.create', filter: { user_id: account, direction: 'inbound' }, tag: account, webhook_id: webhookId });
  }, 60_000);

  it('delivers DMs to ticketing over XAA', async () => {
    for (const text of ['where is my order 42?', 'it was due Monday']) before.push(await sendDm(customer, account, text));
    await waitFor(async () => (await ticketedDms(account)).length >= before.length || undefined, { what: 'the DMs ticketed', timeoutMs: SLOW });
    expect((await ticketedDms(account)).sort()).toEqual([...before].sort());
  }, 60_000);

  it('replays what an outage missed once auth restarts after a gap: every DM once, none doubled', async () => {
    expect((await h.sim.post('/control/platform/xaa/outage', { webhookId, down: true })).status).toBe(200);
    for (const text of ['hello?', 'anyone there?', 'I will call instead']) during.push(await sendDm(customer, account, text));
    await waitFor(async () => {
      const sent = (await h.sim.get('/control/platform/xaa/deliveries')).data.items as { eventType: string; status: number | null }[];
      return sent.filter((d) => d.eventType === 'dm.received' && d.status === null).length === during.length;
    }, { what: 'the failed deliveries', timeoutMs: SLOW });
    expect(await ticketedDms(account)).toHaveLength(before.length);
    await h.sim.post('/control/platform/xaa/outage', { webhookId, down: false });

    // auth was down for five minutes: its last heartbeat is that old when it starts again.
    await h.auth.pool.query("UPDATE heartbeats SET beat_at = now() - interval '5 minutes'");
    const restarted = await h.restartAuth();
    const { rows } = await restarted.pool.query<{ status: string; job_id: string | null; reason: string }>('SELECT status, job_id, reason FROM xaa_replays');
    expect(rows).toEqual([{ status: 'requested', job_id: expect.any(String), reason: 'outage found at start-up' }]);
    await waitFor(async () => (await h.sim.get('/control/platform/xaa/replay')).data.job?.status === 'complete' || undefined, { what: 'the replay job', timeoutMs: SLOW });

    const all = [...before, ...during];
    await waitFor(async () => {
      const ids = await ticketedDms(account);
      return all.every((id) => ids.includes(id)) || undefined;
    }, { what: 'every DM ticketed', timeoutMs: SLOW });
    const ids = await ticketedDms(account);
    expect(ids.sort()).toEqual([...all].sort());
    // The replay sent the DMs from before the outage again too: delivered twice, ticketed once.
    const { job } = (await h.sim.get('/control/platform/xaa/replay')).data as { job: { id: string; delivered: number } };
    expect(job).toMatchObject({ id: rows[0]!.job_id, delivered: all.length });
  }, 90_000);

  it('queues nothing when auth restarts without a gap, and unsubscribes the account', async () => {
    await h.restartAuth();
    expect((await h.auth.pool.query('SELECT count(*)::int AS n FROM xaa_replays')).rows[0].n).toBe(1);
    expect((await cli('xaa', 'unsubscribe', account)).json).toEqual({ accountId: account, removed: SUBSCRIBED });
    expect((await h.auth.pool.query('SELECT count(*)::int AS n FROM xaa_subscriptions')).rows[0].n).toBe(0);
  }, 60_000);

  it('unsubscribes an account that is removed from auth', async () => {
    expect((await cli('xaa', 'subscribe', customer)).json.created).toHaveLength(SUBSCRIBED);
    expect((await h.crm.delete(`/v1/accounts/${customer}`)).status).toBe(204);
    const left = (await h.sim.get('/2/activity/subscriptions', { headers: { authorization: `Bearer ${await bearer()}` } })).data;
    expect(left.meta).toMatchObject({ result_count: 0, total_subscriptions: 0 });
    expect((await h.auth.pool.query('SELECT count(*)::int AS n FROM xaa_subscriptions')).rows[0].n).toBe(0);
  }, 60_000);
});

/** The repository's examples of the platform's XAA deliveries (libs/testing/fixtures/xaa), written from the documented shapes. */
const EXAMPLES = join(__dirname, '../../../libs/testing/fixtures/xaa');

describe("the repository's examples of the platform's documented X Activity API deliveries", () => {
  it('end each DM, mention, reply, quote, like and follow on the right ticket or timeline, with its text and people', async () => {
    const deliveries = readdirSync(EXAMPLES)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => ({ name, body: readFileSync(join(EXAMPLES, name)) }));
    const checked = await expectDeliveredOutcomes(stack, deliveries);
    expect(checked).toEqual(expect.arrayContaining(['dm.received.json', 'dm.sent.json', 'post.mention.create.json', 'post.reply.create.json', 'post.quote.create.json', 'like.create.outbound.json', 'follow.follow.json']));
  }, 120_000);
});
