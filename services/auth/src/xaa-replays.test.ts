/**
 * Replays after an outage against the simulated platform and a real database: a window too
 * recent for the platform's rules waits in the queue (nothing is asked); replicas starting
 * together after an outage queue the gap once and ask for it once; a window the platform
 * refuses is recorded as failed with its reason. And the CLI's answers to bad input.
 */
import { PlatformClient } from './adapters/platform/client';
import { XaaStore } from './adapters/xaa-store';
import { HELP, runCli } from './cli-commands';
import { parseXaaArgs } from './cli-xaa';
import { XaaReplays, type ReplayOptions } from './operations/xaa';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
let platform: PlatformClient;
let store: XaaStore;

const NO_DELAY = { minStartAgeMs: 0, minEndAgeMs: 0, maxAgeMs: 24 * 3_600_000 };
const options = (rules = NO_DELAY): ReplayOptions => ({ rules, gapMs: 120_000, marginMs: 60_000, busyRetryMs: 300_000 });

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_xaa_replays', simulatorEnv: { XAA_REPLAY_MIN_START_AGE_SECONDS: '0', XAA_REPLAY_MIN_END_AGE_SECONDS: '0' }, env: { HEARTBEAT_INTERVAL_MS: '0' } });
  platform = new PlatformClient({ baseUrl: h.simulatorUrl, consumerKey: h.secrets.consumerKey, consumerSecret: h.secrets.consumerSecret, timeoutMs: 5_000, logger: h.logger });
  store = new XaaStore(h.auth.pool, h.config.SOCIAL_ENV_NAME);
  // A v2 webhook on the platform (the test webhook answers its CRC), as `xaa webhook register` records it.
  const made = await platform.call({ method: 'POST', path: '/2/webhooks', json: { url: h.webhook!.url } }, { kind: 'app' });
  const webhook = (made.data as { data: { id: string; url: string } }).data;
  await store.saveWebhook({ webhookId: webhook.id, url: webhook.url });
});

afterAll(async () => {
  await h?.stop();
});

beforeEach(async () => {
  await h.auth.pool.query('DELETE FROM xaa_replays');
});

const replayRequests = async () => (await h.platformRequests('/2/webhooks/replay', 'POST')).filter((r) => r.status === 200);

it('queues a window too recent for the platform until both its ends are old enough, and asks nothing yet', async () => {
  const platformRules = { minStartAgeMs: 31 * 60_000, minEndAgeMs: 10 * 60_000, maxAgeMs: 24 * 3_600_000 };
  const replays = new XaaReplays({ platform, store, logger: h.logger }, options(platformRules));
  const asked = (await h.platformRequests('/2/webhooks/replay')).length;
  const now = Date.now();
  const outcome = await replays.queue(now - 5 * 60_000, now, 'asked by an operator');
  expect(outcome.status).toBe('waiting');
  const from = Math.floor((now - 5 * 60_000) / 60_000) * 60_000;
  expect(Date.parse(outcome.notBefore!)).toBe(from + 31 * 60_000);
  expect(await store.replays()).toEqual([expect.objectContaining({ status: 'waiting', notBefore: new Date(from + 31 * 60_000), jobId: null })]);
  expect(await replays.runDue()).toEqual([]);
  expect(await h.platformRequests('/2/webhooks/replay')).toHaveLength(asked);
});

it('has replicas that start together after an outage queue the gap once and ask the platform once', async () => {
  await h.auth.pool.query("INSERT INTO heartbeats (env_name, beat_at) VALUES ($1, now() - interval '10 minutes') ON CONFLICT (env_name) DO UPDATE SET beat_at = EXCLUDED.beat_at", [h.config.SOCIAL_ENV_NAME]);
  const before = (await replayRequests()).length;
  const replicas = [1, 2, 3].map(() => new XaaReplays({ platform, store, logger: h.logger }, options()));
  const outcomes = await Promise.all(replicas.map((replicas) => replicas.checkGapAtStartup()));
  expect(outcomes.filter((o) => o !== null)).toEqual([expect.objectContaining({ status: 'requested', jobId: expect.any(String) })]);
  expect(await store.replays()).toEqual([expect.objectContaining({ status: 'requested', reason: 'outage found at start-up' })]);
  expect(await replayRequests()).toHaveLength(before + 1);
});

it('records a window the platform refuses, or that it no longer keeps, as failed with the reason; the same window is not queued twice', async () => {
  const replays = new XaaReplays({ platform, store, logger: h.logger }, options());
  const now = Date.now();
  const gone = await replays.queue(now - 30 * 3_600_000, now - 25 * 3_600_000, 'asked by an operator');
  expect(gone).toMatchObject({ status: 'failed', reason: 'the window is older than the platform keeps' });

  const ours = (await store.webhook())!;
  await store.saveWebhook({ webhookId: '1', url: ours.url }); // a webhook the platform does not have
  try {
    const refused = await replays.queue(now - 5 * 60_000, now - 60_000, 'asked by an operator');
    expect(refused).toMatchObject({ status: 'failed', reason: expect.stringContaining('the platform answered 404') });
  } finally {
    await store.saveWebhook(ours);
  }
  expect((await store.replays()).map((r) => r.status)).toEqual(['failed', 'failed']);
  expect((await replays.queue(now - 5 * 60_000, now - 60_000, 'asked by an operator')).status).toBe('duplicate');
});

describe('cli xaa', () => {
  const run = async (...argv: string[]) => {
    const err: string[] = [];
    const code = await runCli(argv, h.config, h.logger, { out: () => undefined, err: (line) => err.push(line) });
    return { code, err: err.join('\n') };
  };

  it('answers bad input with exit code 2 and what to fix', async () => {
    expect(await run('xaa', 'replay', '--from', 'yesterday', '--to', '2026-11-25T06:00Z')).toEqual({ code: 2, err: expect.stringContaining('replay needs --from and --to as ISO times') });
    expect(await run('xaa', 'replay', '--from', '2026-11-25T07:00Z', '--to', '2026-11-25T06:00Z')).toEqual({ code: 2, err: expect.stringContaining('--from must be before --to') });
    expect(await run('xaa', 'subscribe', 'acme')).toEqual({ code: 2, err: expect.stringContaining('xaa subscribe needs a numeric id') });
    expect(await run('xaa', 'webhook', 'rename')).toEqual({ code: 2, err: expect.stringContaining('cli xaa webhook register|list|delete <webhookId>') });
  });

  it('lists its commands and the replay settings in --help', () => {
    for (const line of ['cli xaa webhook register|list|delete <webhookId>', 'cli xaa subscribe|unsubscribe <accountId>', 'cli xaa replay --from <iso time> --to <iso time>', 'XAA_REPLAY_MIN_START_AGE_SECONDS']) expect(HELP).toContain(line);
  });

  it('reads a replay window as instants', () => {
    expect(parseXaaArgs(['replay', '--from', '2026-11-25T06:00Z', '--to', '2026-11-25T06:40Z'])).toEqual({ command: 'replay', from: Date.parse('2026-11-25T06:00Z'), to: Date.parse('2026-11-25T06:40Z') });
  });

  it('refuses to subscribe an account auth does not hold', async () => {
    expect(await run('xaa', 'subscribe', '999')).toEqual({ code: 1, err: expect.stringContaining('account 999 is not connected') });
  });
});
