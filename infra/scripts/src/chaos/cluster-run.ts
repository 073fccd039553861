/**
 * `pnpm chaos --cluster`: the run on the local cluster of `pnpm cluster up` (three RabbitMQ
 * nodes, PostgreSQL with a Patroni standby). Two replicas of auth, ticketing, webhook-ingest and
 * tracking, one ticketing replica in a network namespace of its own; signed DM deliveries to
 * both webhook-ingests and agents' replies to both ticketings while, one after the other: a
 * RabbitMQ node is killed and later restarted, a node frozen (SIGSTOP) for 30 s, the
 * PostgreSQL primary killed (Patroni promotes the standby; the old primary comes back as a
 * standby), a replica of each service killed (and the time until the other ticketing is active
 * on every partition measured), and the namespaced ticketing cut from the broker and the
 * database. Then counts what ticketing recorded and what the platform was sent.
 */
import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { promisify } from 'node:util';
import { ACTIVITY_PARTITION_QUEUES } from '@crm/contracts';
import { listDeadLetters } from '@crm/messaging';
import { LOCAL_DEV } from '@crm/config';
import { createPool, ensureDatabase } from '@crm/db';
import { createLogger } from '@crm/logging';
import { browserSession, freePort } from '@crm/testing';
import type pg from 'pg';
import { createSimulatorApp } from '../../../simulators/social-platform/src/app';
import { loadSimulatorConfig } from '../../../simulators/social-platform/src/config';
import { killPostgresMember, leaderMember, startPatroni } from '../../../cluster/src/postgres';
import { listening } from '../../../cluster/src/processes';
import { addVirtualHost, deleteVirtualHost, freezeRabbitNode, killRabbitNode, rabbitmqctl, startRabbitNodes } from '../../../cluster/src/rabbitmq';
import { clientUrls, clusterSettings, type ClusterSettings } from '../../../cluster/src/settings';
import { closingLine, commitLatency, lostByFault, outOfOrderByFault, type FaultWindow } from './figures';
import { networkCut, type NetworkCut } from './network-cut';
import { kill, running, start, urlOf, waitReady, type Replica } from './replicas';
import { plannedConversations, recordedFigures, sendAll, settle, sleep, type Conversation, type PlannedDelivery } from './traffic';

const run = promisify(execFile);
const ENV_NAME = 'chaos';

export interface ClusterOptions {
  deliveries: number;
  senders: number;
  accounts: number;
  /** Quiet time before the first fault and between faults. */
  gapMs: number;
  replies: number;
  /** Leaves the run's virtual host and databases on the cluster. */
  keep: boolean;
}

const log = (line: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);

async function clusterIsUp(settings: ClusterSettings): Promise<void> {
  const nodes = await Promise.all(settings.rabbitNodes.map(({ amqpPort }) => listening(amqpPort)));
  if (nodes.some((up) => !up) || !(await leaderMember(settings))) throw new Error('the cluster is not up (every RabbitMQ node and a PostgreSQL leader): run `pnpm cluster up` first');
}

/** The run's own virtual host and databases on the cluster, and the addresses that reach them from the machine and from the namespace. */
async function clusterResources(settings: ClusterSettings, stamp: string) {
  const vhost = await addVirtualHost(settings, `chaos-${stamp}`);
  const amqp = (host: string) => settings.rabbitNodes.map(({ amqpPort }) => `amqp://guest:guest@${host}:${amqpPort}/${encodeURIComponent(vhost)}`).join(',');
  const database = (name: string, host = '127.0.0.1') => clientUrls(settings, `chaos_${stamp}_${name}`).database.replaceAll('127.0.0.1', host);
  for (const name of ['auth', 'ticketing', 'tracking']) await ensureDatabase(database(name));
  return { vhost, amqp, database };
}

/** The simulated platform, in this process: auth sends the replies to it, and it counts them. */
async function startPlatform(): Promise<{ url: string; server: Server }> {
  const config = loadSimulatorConfig({ PORT: '0', SOCIAL_CONSUMER_KEY: LOCAL_DEV.consumerKey, SOCIAL_CONSUMER_SECRET: LOCAL_DEV.consumerSecret, SOCIAL_ENV_NAME: ENV_NAME, WEBHOOK_HTTP_ALLOWED: 'true' });
  const server = createServer(createSimulatorApp({ config, logger: createLogger('chaos-platform', 'error') }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server };
}

/** Connects the support account through auth, as an agent's browser does (OAuth 1.0a); answers its id. */
async function connectAccount(authUrl: string, screenName: string): Promise<string> {
  const headers = { authorization: `Bearer ${LOCAL_DEV.crmToken}` };
  const started = await fetch(`${authUrl}/v1/connections`, { method: 'POST', headers });
  if (started.status !== 201) throw new Error(`POST /v1/connections answered ${started.status}`);
  const { authorizeUrl } = (await started.json()) as { authorizeUrl: string };
  const browser = browserSession();
  const opened = await browser.get(authorizeUrl);
  const page = await browser.get<string>(String(opened.headers.location));
  const token = /name="oauth_token" value="([^"]+)"/.exec(page.data)?.[1];
  const action = /<form method="post" action="([^"]+)"/.exec(page.data)?.[1];
  if (!token || !action) throw new Error(`the platform's authorize page has no form (${page.status})`);
  const approved = await browser.post(new URL(action, String(opened.headers.location)).toString(), new URLSearchParams({ oauth_token: token, user: screenName, decision: 'approve' }).toString(), {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const callback = await browser.get(String(approved.headers.location));
  const accountId = new URL(String(callback.headers.location)).searchParams.get('accountId');
  if (!accountId) throw new Error(`connecting the account failed at the callback (${callback.status})`);
  return accountId;
}

/** The consumers' ports on the broker of one process, read from the machine's socket table. */
async function brokerPortsOf(pid: number, settings: ClusterSettings): Promise<Set<number>> {
  const { stdout } = await run('ss', ['-tnpH']);
  const amqpPorts = new Set(settings.rabbitNodes.map(({ amqpPort }) => amqpPort));
  const ports = new Set<number>();
  for (const line of stdout.split('\n')) {
    if (!line.includes(`pid=${pid},`)) continue;
    const [, , , local, peer] = line.trim().split(/\s+/);
    if (local && peer && amqpPorts.has(Number(peer.split(':').pop()))) ports.add(Number(local.split(':').pop()));
  }
  return ports;
}

interface ConsumerInfo {
  queue: { name: string };
  active?: boolean;
  channel_details?: { peer_port?: number };
}

/** The active consumer of each activity partition, by its client port, from a node's management API. */
async function activePartitionConsumers(settings: ClusterSettings, vhost: string): Promise<Map<string, number>> {
  for (const node of settings.rabbitNodes) {
    const answer = await fetch(`http://127.0.0.1:${node.managementPort}/api/consumers/${encodeURIComponent(vhost)}`, {
      headers: { authorization: `Basic ${Buffer.from('guest:guest').toString('base64')}` },
      signal: AbortSignal.timeout(2_000),
    }).catch(() => null);
    // The timeout may also fall while the body is read: the next node is asked instead.
    const consumers = answer?.ok ? ((await answer.json().catch(() => null)) as ConsumerInfo[] | null) : null;
    if (!consumers) continue;
    const active = new Map<string, number>();
    for (const consumer of consumers) {
      if (consumer.active !== false && ACTIVITY_PARTITION_QUEUES.includes(consumer.queue.name)) active.set(consumer.queue.name, consumer.channel_details?.peer_port ?? 0);
    }
    return active;
  }
  return new Map();
}

/** How long after a kill every partition has an active consumer that is not the killed process's. */
async function takeoverMs(settings: ClusterSettings, vhost: string, killedAt: number, killedPorts: Set<number>, timeoutMs = 30_000): Promise<number | null> {
  while (Date.now() - killedAt < timeoutMs) {
    const active = await activePartitionConsumers(settings, vhost);
    if (ACTIVITY_PARTITION_QUEUES.every((queue) => active.has(queue) && !killedPorts.has(active.get(queue)!))) return Date.now() - killedAt;
    await sleep(100);
  }
  return null;
}

interface Fault {
  name: string;
  apply: () => Promise<void>;
}

/** What the faults act on. */
interface Stage {
  settings: ClusterSettings;
  vhost: string;
  cut: NetworkCut;
  replicas: Replica[];
  /** Milliseconds until the other ticketing was active on every partition, per kill. */
  takeovers: number[];
}

const replicaNamed = (replicas: Replica[], name: string) => replicas.find((replica) => replica.name === name)!;

/** The replicas, two of each service: the b ticketing in the namespace, reaching the cluster through the link that is cut. */
function replicasOf(ports: number[], urls: { amqp: (host: string) => string; database: (name: string, host?: string) => string }, cut: NetworkCut, platformUrl: string): Replica[] {
  const local = '127.0.0.1';
  const common = (host: string) => ({ AMQP_URL: urls.amqp(host), SOCIAL_ENV_NAME: ENV_NAME });
  return (['a', 'b'] as const).flatMap((letter, i): Replica[] => {
    const inner = letter === 'b';
    const ticketingHost = inner ? cut.hostAddress : local;
    return [
      { name: `auth-${letter}`, dir: 'services/auth', port: ports[i]!, host: local, env: { ...common(local), DATABASE_URL: urls.database('auth'), SOCIAL_API_URL: platformUrl, WEBHOOK_CHECK_INTERVAL_MS: '0' } },
      { name: `ticketing-${letter}`, dir: 'services/ticketing', port: ports[2 + i]!, host: inner ? cut.innerAddress : local, ...(inner ? { namespace: cut.namespace } : {}), env: { ...common(ticketingHost), DATABASE_URL: urls.database('ticketing', ticketingHost) } },
      { name: `webhook-ingest-${letter}`, dir: 'services/webhook-ingest', port: ports[4 + i]!, host: local, env: common(local) },
      { name: `tracking-${letter}`, dir: 'services/tracking', port: ports[6 + i]!, host: local, env: { ...common(local), DATABASE_URL: urls.database('tracking') } },
    ];
  });
}

/** The a replicas first (they migrate the databases), then the b replicas. */
async function startReplicas(replicas: Replica[]): Promise<void> {
  for (const suffix of ['-a', '-b']) {
    const group = replicas.filter((replica) => replica.name.endsWith(suffix));
    group.forEach(start);
    await Promise.all(group.map((replica) => waitReady(replica)));
  }
}

/** The support accounts, each connected through auth (replies go out on their behalf), and the customers writing to them. */
async function conversationsOf(stage: Stage, platformUrl: string, options: ClusterOptions) {
  const accounts: { id: string; screenName: string }[] = [];
  for (let i = 0; i < options.accounts; i += 1) {
    const screenName = `chaos_desk_${i}`;
    accounts.push({ id: await connectAccount(urlOf(replicaNamed(stage.replicas, 'auth-a')), screenName), screenName });
  }
  const crm = { authorization: `Bearer ${LOCAL_DEV.crmToken}`, 'content-type': 'application/json' };
  for (const account of accounts) {
    const answer = await fetch(`${urlOf(replicaNamed(stage.replicas, 'ticketing-a'))}/v1/partner-configs/${account.id}`, { method: 'PUT', headers: crm, body: JSON.stringify({ pageName: `Chaos ${account.screenName}` }) });
    if (!answer.ok) throw new Error(`configuring account ${account.id} answered ${answer.status}`);
  }
  // The customers are known to the platform: a reply needs its recipient.
  const conversations: Conversation[] = [];
  for (let i = 0; i < options.senders; i += 1) {
    const made = await fetch(`${platformUrl}/control/platform/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ screenName: `chaos_c_${i}`, name: `Customer ${i}` }) });
    conversations.push({ account: accounts[i % accounts.length]!, customer: { id: ((await made.json()) as { id_str: string }).id_str, screenName: `chaos_c_${i}` } });
  }
  return { accounts: accounts.map(({ id }) => id), conversations };
}

function rabbitNodeKilled({ settings }: Stage): Fault {
  const node = settings.rabbitNodes[0]!;
  return {
    name: `RabbitMQ node ${node.name} killed (SIGKILL), restarted 15 s later`,
    apply: async () => {
      killRabbitNode(settings, node);
      await sleep(15_000);
      await startRabbitNodes(settings);
      await rabbitmqctl(settings, node, 'await_startup');
    },
  };
}

function rabbitNodeFrozen({ settings }: Stage): Fault {
  const node = settings.rabbitNodes[1]!;
  return {
    name: `RabbitMQ node ${node.name} frozen (SIGSTOP) for 30 s`,
    apply: async () => {
      freezeRabbitNode(settings, node, true);
      await sleep(30_000);
      freezeRabbitNode(settings, node, false);
      await rabbitmqctl(settings, node, 'await_startup');
    },
  };
}

function postgresPrimaryKilled({ settings }: Stage): Fault {
  return {
    name: 'PostgreSQL primary killed (SIGKILL of Patroni and postmaster); Patroni promotes the standby, the old primary returns as a standby',
    apply: async () => {
      const leader = await leaderMember(settings);
      if (!leader) throw new Error('no PostgreSQL leader to kill');
      killPostgresMember(settings, leader);
      const deadline = Date.now() + 60_000;
      for (let now = await leaderMember(settings); !now || now.name === leader.name; now = await leaderMember(settings)) {
        if (Date.now() > deadline) throw new Error('Patroni promoted no standby within 60 s');
        await sleep(500);
      }
      log(`  ${leader.name} killed; the standby leads`);
      await startPatroni(settings);
    },
  };
}

function replicasKilled(stage: Stage): Fault {
  return {
    name: 'a replica of each service killed (SIGKILL), restarted once the other ticketing took over',
    apply: async () => {
      const victims = stage.replicas.filter((replica) => replica.name.endsWith('-a'));
      const ticketing = replicaNamed(stage.replicas, 'ticketing-a');
      const ports = await brokerPortsOf(ticketing.child!.pid!, stage.settings);
      const killedAt = Date.now();
      await Promise.all(victims.map(kill));
      const took = await takeoverMs(stage.settings, stage.vhost, killedAt, ports);
      if (took !== null) stage.takeovers.push(took);
      log(`  the other ticketing active on every partition ${took === null ? 'not within 30 s' : `${took} ms`} after the kill`);
      victims.forEach(start);
      await Promise.all(victims.map((replica) => waitReady(replica)));
    },
  };
}

function ticketingCut(stage: Stage): Fault {
  return {
    name: 'ticketing-b cut from the broker and the database (its network link down) for 20 s',
    apply: async () => {
      await stage.cut.cut();
      await sleep(20_000);
      await stage.cut.restore();
      await waitReady(replicaNamed(stage.replicas, 'ticketing-b'));
    },
  };
}

/** The faults one after the other, each after a quiet gap; answers when each was applied and whole again. */
async function applyFaults(faults: Fault[], gapMs: number): Promise<FaultWindow[]> {
  const windows: FaultWindow[] = [];
  for (const fault of faults) {
    await sleep(gapMs);
    log(`fault: ${fault.name}`);
    const startedAt = Date.now();
    await fault.apply();
    windows.push({ name: fault.name, startedAt, endedAt: Date.now() });
    log(`  whole again after ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  }
  return windows;
}

/** How long the faults take at least (their own waits, a failover, restarts), with their gaps: the deliveries are spread over it. */
const faultsLastMs = (gapMs: number) => 6 * gapMs + 15_000 + 30_000 + 40_000 + 15_000 + 20_000;

interface RunState {
  cut?: NetworkCut;
  platform?: { url: string; server: Server };
  vhost?: string;
  ticketingDb?: pg.Pool;
  replicas: Replica[];
}

export async function clusterRun(options: ClusterOptions): Promise<number> {
  const settings = clusterSettings();
  await clusterIsUp(settings);
  const stamp = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const state: RunState = { replicas: [] };
  try {
    return await runOnCluster(settings, stamp, options, state);
  } finally {
    await Promise.all(state.replicas.map(kill));
    await state.ticketingDb?.end().catch(() => undefined);
    if (state.platform) await new Promise((resolve) => state.platform!.server.close(resolve));
    await state.cut?.remove();
    if (state.vhost && !options.keep) await dropRunResources(settings, state.vhost, stamp);
    if (state.vhost && options.keep) console.log(`kept: virtual host ${state.vhost}, databases chaos_${stamp}_auth, _ticketing, _tracking`);
  }
}

async function runOnCluster(settings: ClusterSettings, stamp: string, options: ClusterOptions, state: RunState): Promise<number> {
  const started = Date.now();
  const cut = (state.cut = await networkCut('crmchaos', [...settings.rabbitNodes.map(({ amqpPort }) => amqpPort), ...settings.postgresMembers.map(({ port }) => port)]));
  const urls = await clusterResources(settings, stamp);
  state.vhost = urls.vhost;
  const platform = (state.platform = await startPlatform());
  const ports = await Promise.all(Array.from({ length: 8 }, () => freePort()));
  state.replicas.push(...replicasOf(ports, urls, cut, platform.url));
  await startReplicas(state.replicas);
  log(`replicas ready: ${state.replicas.map((r) => `${r.name} ${urlOf(r)}`).join(', ')}`);
  const stage: Stage = { settings, vhost: urls.vhost, cut, replicas: state.replicas, takeovers: [] };
  const { accounts, conversations } = await conversationsOf(stage, platform.url, options);
  const ticketingDb = (state.ticketingDb = createPool(urls.database('ticketing'), { max: 2 }));

  const spreadMs = faultsLastMs(options.gapMs);
  log(`sending ${options.deliveries} DMs in ${conversations.length} conversations over ${accounts.length} accounts, spread over at least ${Math.round(spreadMs / 1000)} s, and ${options.replies} replies`);
  const faults = applyFaults([rabbitNodeKilled, rabbitNodeFrozen, postgresPrimaryKilled, replicasKilled, ticketingCut].map((fault) => fault(stage)), options.gapMs);
  const ingestUrls = state.replicas.filter((replica) => replica.name.startsWith('webhook-ingest')).map((replica) => `${urlOf(replica)}/webhooks/${ENV_NAME}`);
  const ticketings = state.replicas.filter((replica) => replica.name.startsWith('ticketing'));
  const planned = plannedConversations(conversations, options.deliveries);
  const [sent, replied] = await Promise.all([sendAll(ingestUrls, planned, spreadMs), sendReplies(ticketings, ticketingDb, accounts, options.replies, spreadMs)]);
  const windows = await faults;
  log(`sent: ${sent.accepted.size} accepted, ${sent.refused} given up`);
  for (const replica of state.replicas) if (!running(replica)) start(replica);
  await Promise.all(state.replicas.map((replica) => waitReady(replica)));

  await settle(ticketingDb, accounts, sent.accepted.size);
  const figures = await recordedFigures(ticketingDb, accounts, sent.accepted);
  const commands = await sentCommands(ticketingDb, platform.url, accounts, replied);
  const deadLetters = await deadLettersOf(settings, urls.vhost);
  const latency = commitLatency(figures.timed, windows);
  const outcome = { accepted: sent.accepted.size, recorded: figures.recorded, lost: figures.lost, doubled: figures.doubled, outOfOrder: figures.outOfOrder, faults: windows.length };
  console.log(JSON.stringify({ ...outcome, refused: sent.refused, commands, deadLetters, takeoverMs: stage.takeovers, seconds: Math.round((Date.now() - started) / 1000) }));
  const figure = (f: { p50: number; p99: number; count: number }) => `p50 ${f.p50} ms, p99 ${f.p99} ms (${f.count} deliveries)`;
  console.log(`webhook 200 -> commit${figures.commitTimestamps ? '' : ' (transaction start: track_commit_timestamp is off)'}: outside the faults ${figure(latency.outside)}; during them ${figure(latency.during)}`);
  for (const window of windows) console.log(`fault applied: ${window.name} (${((window.endedAt - window.startedAt) / 1000).toFixed(1)} s)`);
  for (const line of outOfOrderByFault(figures.outOfOrderPairs, windows)) console.log(`out of order: ${line}`);
  const at = (ms: number) => new Date(ms).toISOString().slice(11, 23);
  for (const { earlier, later } of figures.outOfOrderPairs.slice(0, 10)) console.log(`  ${earlier.conversation}: #${earlier.position} committed ${at(earlier.recordedAt)}, #${later.position} ${at(later.recordedAt)}`);
  if (figures.lostIds.length > 0) await reportLost(ticketingDb, planned, figures.lostIds, sent.accepted, windows);
  console.log(closingLine(outcome));
  const broken = figures.lost + figures.doubled + figures.outOfOrder + commands.sentTwice + commands.pending + deadLetters.withoutReason + sent.refused;
  return broken > 0 || windows.length < 5 ? 1 : 0;
}

/**
 * Where the lost deliveries were: by the fault in effect when each was accepted, how many reached
 * ticketing's raw log (a delivery logged but not recorded, or never taken from its queue), and the
 * first ten with when they were accepted.
 */
async function reportLost(db: pg.Pool, planned: PlannedDelivery[][], lostIds: string[], accepted: Map<string, number>, windows: FaultWindow[]): Promise<void> {
  const bodies = new Map(planned.flat().map((delivery) => [delivery.eventId, delivery.body]));
  const hashes = lostIds.map((id) => createHash('sha256').update(bodies.get(id)!).digest('hex'));
  const logged = (await db.query<{ n: string }>('SELECT count(DISTINCT body_sha256) AS n FROM raw_log WHERE body_sha256 = ANY($1)', [hashes])).rows[0]!.n;
  for (const line of lostByFault(lostIds.map((id) => accepted.get(id)!), windows)) console.log(`lost: ${line}`);
  console.log(`lost: ${logged} of ${lostIds.length} in ticketing's raw log`);
  const at = (ms: number) => new Date(ms).toISOString().slice(11, 23);
  const first = [...lostIds].sort((a, b) => accepted.get(a)! - accepted.get(b)!).slice(0, 10);
  for (const id of first) console.log(`  event ${id} accepted ${at(accepted.get(id)!)}`);
}

/**
 * Agents' replies on the accounts' tickets, round robin over the accounts, each retried (the same
 * Idempotency-Key) on either ticketing until accepted.
 */
async function sendReplies(ticketings: Replica[], db: pg.Pool, accounts: string[], count: number, spreadOverMs: number): Promise<Map<string, string>> {
  const sent = new Map<string, string>(); // reply text -> ticket id
  const started = Date.now();
  for (let r = 0; r < count; r += 1) {
    const due = started + (spreadOverMs * (r + 1)) / (count + 1);
    if (due > Date.now()) await sleep(due - Date.now());
    const ticket = await db.query<{ id: string }>(`SELECT id FROM tickets WHERE account_id = $1 ORDER BY random() LIMIT 1`, [accounts[r % accounts.length]]).then((res) => res.rows[0]?.id, () => undefined);
    if (!ticket) continue;
    const text = `chaos reply ${r}`;
    for (let attempt = 0; attempt < 120; attempt += 1) {
      const answer = await fetch(`${urlOf(ticketings[attempt % ticketings.length]!)}/v1/tickets/${ticket}/replies`, {
        method: 'POST',
        headers: { authorization: `Bearer ${LOCAL_DEV.crmToken}`, 'content-type': 'application/json', 'idempotency-key': `chaos-reply-${r}-${ticket}` },
        body: JSON.stringify({ text }),
        signal: AbortSignal.timeout(5_000),
      }).then((res) => res.status, () => 0);
      if (answer >= 200 && answer < 300) {
        sent.set(text, ticket);
        break;
      }
      await sleep(500);
    }
  }
  return sent;
}

/**
 * Each accepted reply, as the platform received it: sent twice (two DMs with its text), and
 * how each ended in ticketing (sent, failed, or unknown: an attempt interrupted while sending is
 * never repeated), waiting up to two minutes for the pending ones.
 */
async function sentCommands(db: pg.Pool, platformUrl: string, accounts: string[], replies: Map<string, string>) {
  const texts = [...replies.keys()];
  const statuses = async () =>
    (await db.query<{ text: string; status: string }>(`SELECT text, coalesce(send_status, 'pending') AS status FROM activities WHERE account_id = ANY($1) AND direction = 'outbound' AND text = ANY($2)`, [accounts, texts])).rows;
  const deadline = Date.now() + 120_000;
  let rows = await statuses();
  while (rows.some((row) => row.status === 'pending') && Date.now() < deadline) {
    await sleep(1_000);
    rows = await statuses();
  }
  const dms = (await (await fetch(`${platformUrl}/control/platform/requests?method=POST`)).json()) as { items: { path: string; status: number | null; json: { text?: string } | null }[] };
  const sends = new Map<string, number>();
  for (const item of dms.items) if (item.path.startsWith('/2/dm_conversations/') && item.json?.text && replies.has(item.json.text) && item.status === 201) sends.set(item.json.text, (sends.get(item.json.text) ?? 0) + 1);
  const outcome = (status: string) => rows.filter((row) => row.status === status).length;
  return {
    accepted: replies.size,
    sent: outcome('sent'),
    failed: outcome('failed'),
    unknown: outcome('unknown'),
    pending: rows.filter((row) => row.status === 'pending').length + (replies.size - rows.length),
    sentTwice: [...sends.values()].filter((n) => n > 1).length,
  };
}

/** Messages in the run's dead-letter queues, each with the reason it carries (the services' dead-lettering, or the broker's x-death). */
async function deadLettersOf(settings: ClusterSettings, vhost: string) {
  for (const node of settings.rabbitNodes) {
    const listed = await rabbitmqctl(settings, node, 'list_queues', '-p', vhost, 'name', 'messages', '--formatter', 'json').catch(() => null);
    if (!listed) continue;
    const url = `amqp://guest:guest@127.0.0.1:${node.amqpPort}/${encodeURIComponent(vhost)}`;
    const reasons = new Map<string, number>();
    let messages = 0;
    let withoutReason = 0;
    for (const queue of JSON.parse(listed) as { name: string; messages: number }[]) {
      if (!queue.name.endsWith('.dlq') || queue.messages === 0) continue;
      for (const letter of await listDeadLetters(url, queue.name.slice(0, -'.dlq'.length), queue.messages)) {
        messages += 1;
        if (letter.reason === undefined) withoutReason += 1;
        else reasons.set(letter.reason, (reasons.get(letter.reason) ?? 0) + 1);
      }
    }
    return { messages, withoutReason, reasons: Object.fromEntries(reasons) };
  }
  throw new Error('no RabbitMQ node answered for the dead-letter queues');
}

async function dropRunResources(settings: ClusterSettings, vhost: string, stamp: string): Promise<void> {
  await deleteVirtualHost(settings, vhost);
  const admin = createPool(clientUrls(settings, 'postgres').database, { max: 1 });
  try {
    for (const name of ['auth', 'ticketing', 'tracking']) await admin.query(`DROP DATABASE IF EXISTS chaos_${stamp}_${name} WITH (FORCE)`).catch(() => undefined);
  } finally {
    await admin.end();
  }
}
