import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { launch, listening, logFile, runningPid, stopLaunched, waitForPort } from './processes';
import { rabbitDir, type ClusterSettings, type RabbitNode } from './settings';

const run = promisify(execFile);

/** Where the RabbitMQ scripts are: RABBITMQ_SBIN, else Debian's layout (its /usr/sbin wrappers would run the machine's node user). */
function sbinDirectory(): string {
  if (process.env.RABBITMQ_SBIN) return process.env.RABBITMQ_SBIN;
  const root = '/usr/lib/rabbitmq/lib';
  const installed = existsSync(root) ? readdirSync(root).filter((name) => name.startsWith('rabbitmq_server-')) : [];
  if (installed.length === 0) throw new Error('RabbitMQ is not installed (apt-get install rabbitmq-server), or set RABBITMQ_SBIN to the folder of rabbitmq-server');
  return join(root, installed.sort().pop()!, 'sbin');
}

/** Every node and every rabbitmqctl share this HOME, hence one Erlang cookie. */
const homeOf = (settings: ClusterSettings) => join(rabbitDir(settings), 'home');
/** crm-a for crm-a@localhost: names the node's folder and process. */
const shortName = (node: RabbitNode) => node.name.split('@')[0] ?? node.name;
const nodeDir = (settings: ClusterSettings, node: RabbitNode) => join(rabbitDir(settings), shortName(node));
const processName = (node: RabbitNode) => `rabbitmq-${shortName(node)}`;

function nodeEnv(settings: ClusterSettings, node: RabbitNode): NodeJS.ProcessEnv {
  const dir = nodeDir(settings, node);
  return {
    ...process.env,
    HOME: homeOf(settings),
    RABBITMQ_NODENAME: node.name,
    RABBITMQ_NODE_PORT: String(node.amqpPort),
    RABBITMQ_DIST_PORT: String(node.distPort),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq'),
    RABBITMQ_PID_FILE: join(dir, 'pid'),
  };
}

/** rabbitmqctl against one of the cluster's nodes, always by name: never the machine's own node. */
export async function rabbitmqctl(settings: ClusterSettings, node: RabbitNode, ...args: string[]): Promise<string> {
  const { stdout } = await run(join(sbinDirectory(), 'rabbitmqctl'), ['-n', node.name, ...args], {
    env: nodeEnv(settings, node),
    timeout: 120_000,
  });
  return stdout;
}

function writeNodeFiles(settings: ClusterSettings, node: RabbitNode): void {
  const dir = nodeDir(settings, node);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'enabled_plugins'), '[rabbitmq_management,rabbitmq_consistent_hash_exchange].\n');
  const config = [
    `listeners.tcp.1 = 127.0.0.1:${node.amqpPort}`,
    `management.tcp.ip = 127.0.0.1`,
    `management.tcp.port = ${node.managementPort}`,
    // Statistics (the management API's consumers, which `pnpm chaos --cluster` reads to time a takeover) every half second, not every 5 s.
    'collect_statistics_interval = 500',
    // Three nodes on one shared machine: the default 40% of RAM each would be too much together.
    'vm_memory_high_watermark.relative = 0.1',
  ];
  writeFileSync(join(dir, 'rabbitmq.conf'), `${config.join('\n')}\n`);
}

function writeCookie(settings: ClusterSettings): void {
  const home = homeOf(settings);
  const cookie = join(home, '.erlang.cookie');
  if (existsSync(cookie)) return;
  mkdirSync(home, { recursive: true });
  writeFileSync(cookie, randomBytes(20).toString('hex').toUpperCase(), { mode: 0o400 });
  chmodSync(cookie, 0o400);
}

/**
 * The cluster's one queue policy (a queue takes one policy): classic queues mirrored on every
 * node, kept in step by the broker; and a work queue's own dead letters (a message past its
 * delivery limit) handed to its DLQ at least once, not dropped when the DLQ has no leader for a
 * moment (the broker's at-least-once dead-lettering needs `reject-publish` overflow; no queue
 * has a length limit, so none refuses for it). The work queues' arguments do not set either, so
 * the policy's apply.
 */
const QUEUE_POLICY = JSON.stringify({ 'ha-mode': 'all', 'ha-sync-mode': 'automatic', 'dead-letter-strategy': 'at-least-once', overflow: 'reject-publish' });
const QUEUE_POLICY_NAME = 'crm-queues';

/** Starts each node that is not running yet, all at once, and waits for their AMQP ports. */
export async function startRabbitNodes(settings: ClusterSettings): Promise<void> {
  writeCookie(settings);
  const dir = rabbitDir(settings);
  const starting = settings.rabbitNodes.map(async (node) => {
    if (runningPid(dir, processName(node)) && (await listening(node.amqpPort))) return;
    if (await listening(node.amqpPort)) throw new Error(`port ${node.amqpPort} is taken by another program: set CLUSTER_AMQP_PORT`);
    writeNodeFiles(settings, node);
    launch(dir, { name: processName(node), command: join(sbinDirectory(), 'rabbitmq-server'), args: [], env: nodeEnv(settings, node) });
    await waitForPort(node.amqpPort, `RabbitMQ node ${node.name}`, 110, logFile(dir, processName(node)));
  });
  await Promise.all(starting);
}

/** The nodes the first node counts in its cluster. */
async function clusterMembers(settings: ClusterSettings, first: RabbitNode): Promise<string[]> {
  const status = JSON.parse(await rabbitmqctl(settings, first, 'cluster_status', '--formatter', 'json')) as { disk_nodes?: string[]; running_nodes?: string[] };
  return status.disk_nodes ?? [];
}

/** Joins the second and third node to the first (those not in its cluster yet), then sets the policies. */
export async function formRabbitCluster(settings: ClusterSettings): Promise<void> {
  const [first, ...others] = settings.rabbitNodes;
  if (!first) return;
  const members = await clusterMembers(settings, first);
  for (const node of others) {
    if (members.includes(node.name)) continue;
    await rabbitmqctl(settings, node, 'stop_app');
    await rabbitmqctl(settings, node, 'reset');
    await rabbitmqctl(settings, node, 'join_cluster', first.name);
    await rabbitmqctl(settings, node, 'start_app');
  }
  // The services declare their work queues as quorum queues, which are replicated on every node
  // of the cluster by default; the rest (delay, RPC and presence queues) are classic queues,
  // mirrored on every node by this policy (quorum queues ignore that part), so that losing a node
  // loses none of them.
  await rabbitmqctl(settings, first, 'set_policy', '--apply-to', 'queues', QUEUE_POLICY_NAME, '.*', QUEUE_POLICY);
  for (const node of settings.rabbitNodes) await rabbitmqctl(settings, node, 'await_startup');
}

export async function stopRabbitNodes(settings: ClusterSettings): Promise<void> {
  const dir = rabbitDir(settings);
  const stopping = settings.rabbitNodes.map(async (node) => {
    if (!runningPid(dir, processName(node))) return;
    await rabbitmqctl(settings, node, 'stop').catch(() => undefined);
    await stopLaunched(dir, processName(node), 10);
  });
  await Promise.all(stopping);
}

/** The Erlang VM's pid of a running node (RabbitMQ writes it to its pid file). */
function vmPid(settings: ClusterSettings, node: RabbitNode): number | undefined {
  const file = join(nodeDir(settings, node), 'pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Kills a node as a machine's crash would (SIGKILL of its process group); `pnpm cluster up`, or startRabbitNodes, brings it back. */
export function killRabbitNode(settings: ClusterSettings, node: RabbitNode): void {
  const pid = runningPid(rabbitDir(settings), processName(node));
  if (!pid) throw new Error(`RabbitMQ node ${node.name} is not running`);
  process.kill(-pid, 'SIGKILL');
}

/** Freezes (SIGSTOP) or thaws (SIGCONT) a node's Erlang VM: it keeps its sockets open and answers nothing meanwhile. */
export function freezeRabbitNode(settings: ClusterSettings, node: RabbitNode, frozen: boolean): void {
  const pid = vmPid(settings, node);
  if (!pid) throw new Error(`RabbitMQ node ${node.name} has no pid file`);
  process.kill(pid, frozen ? 'SIGSTOP' : 'SIGCONT');
}

/**
 * A virtual host of its own on the cluster, for one run: the guest user's rights on it, and
 * the queue policy (QUEUE_POLICY; policies belong to a virtual host).
 */
export async function addVirtualHost(settings: ClusterSettings, name: string): Promise<string> {
  const [first] = settings.rabbitNodes;
  if (!first) throw new Error('the cluster has no RabbitMQ node');
  await rabbitmqctl(settings, first, 'add_vhost', name);
  await rabbitmqctl(settings, first, 'set_permissions', '-p', name, 'guest', '.*', '.*', '.*');
  await rabbitmqctl(settings, first, 'set_policy', '-p', name, '--apply-to', 'queues', QUEUE_POLICY_NAME, '.*', QUEUE_POLICY);
  return name;
}

export async function deleteVirtualHost(settings: ClusterSettings, name: string): Promise<void> {
  for (const node of settings.rabbitNodes) {
    try {
      await rabbitmqctl(settings, node, 'delete_vhost', name);
      return;
    } catch {
      // that node is down: the next one
    }
  }
}

/** One line per node: its name, AMQP port, and whether it answers. */
export async function rabbitStatus(settings: ClusterSettings): Promise<string[]> {
  const lines = settings.rabbitNodes.map(async (node) => {
    const up = await listening(node.amqpPort);
    return `rabbitmq ${node.name}  amqp 127.0.0.1:${node.amqpPort}  management http://127.0.0.1:${node.managementPort}  ${up ? 'up' : 'down'}`;
  });
  return Promise.all(lines);
}
