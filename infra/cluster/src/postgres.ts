import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { launch, listening, logFile, runningPid, stopLaunched, waitForPort } from './processes';
import { postgresDir, type ClusterSettings, type PostgresMember } from './settings';

const run = promisify(execFile);
/** PostgreSQL refuses to run as root: Patroni, and so the servers it starts, run as this system user. */
const POSTGRES_USER = 'postgres';
const SCOPE = 'crm';

const memberDir = (settings: ClusterSettings, member: PostgresMember) => join(postgresDir(settings), member.name);
const processName = (member: PostgresMember) => `patroni-${member.name}`;
const configFile = (settings: ClusterSettings, member: PostgresMember) => join(memberDir(settings, member), 'patroni.yml');
/** The settings of the first member, which patronictl reads to find the cluster. */
export const patroniConfigFile = (settings: ClusterSettings) => join(postgresDir(settings), settings.postgresMembers[0]?.name ?? 'pg1', 'patroni.yml');

/** One etcd member, Patroni's store of who leads. */
export async function startEtcd(settings: ClusterSettings): Promise<void> {
  if (runningPid(settings.dir, 'etcd') && (await listening(settings.etcdClientPort))) return;
  if (await listening(settings.etcdClientPort)) throw new Error(`port ${settings.etcdClientPort} is taken by another program: set CLUSTER_ETCD_PORT`);
  const client = `http://127.0.0.1:${settings.etcdClientPort}`;
  const peer = `http://127.0.0.1:${settings.etcdPeerPort}`;
  const args = ['--name', 'crm', '--data-dir', join(settings.dir, 'etcd'), '--listen-client-urls', client, '--advertise-client-urls', client];
  args.push('--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer, '--initial-cluster', `crm=${peer}`);
  launch(settings.dir, { name: 'etcd', command: 'etcd', args });
  await waitForPort(settings.etcdClientPort, 'etcd', 30, logFile(settings.dir, 'etcd'));
}

/**
 * Patroni's settings for one member, as JSON (which YAML reads): trust on 127.0.0.1 for every
 * user and replication, since the cluster is local only; a short TTL so that a failover takes
 * seconds, not the default half minute.
 */
function patroniConfig(settings: ClusterSettings, member: PostgresMember): string {
  const dir = memberDir(settings, member);
  const [pgPort, restPort] = [member.port, member.restPort];
  const hba = ['local all all trust', 'host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust'];
  const user = { username: POSTGRES_USER };
  return JSON.stringify({
    scope: SCOPE,
    name: member.name,
    restapi: { listen: `127.0.0.1:${restPort}`, connect_address: `127.0.0.1:${restPort}` },
    etcd3: { hosts: `127.0.0.1:${settings.etcdClientPort}` },
    bootstrap: {
      dcs: {
        ttl: 10,
        loop_wait: 2,
        retry_timeout: 4,
        maximum_lag_on_failover: 1048576,
        // A commit returns once the standby has it too, and Patroni promotes only that standby: a
        // failover loses no committed transaction (asynchronous, the last ones before the kill went
        // with the old primary, after the services had acked their messages).
        synchronous_mode: true,
        // track_commit_timestamp: each transaction's commit time, from which `pnpm chaos --cluster` measures webhook-to-commit.
        postgresql: { use_pg_rewind: true, parameters: { wal_level: 'replica', hot_standby: 'on', wal_log_hints: 'on', max_wal_senders: 5, max_replication_slots: 5, track_commit_timestamp: 'on' } },
      },
      initdb: [{ encoding: 'UTF8' }, { locale: 'C' }],
    },
    postgresql: {
      listen: `127.0.0.1:${pgPort}`,
      connect_address: `127.0.0.1:${pgPort}`,
      data_dir: join(dir, 'data'),
      bin_dir: settings.postgresBin,
      pgpass: join(dir, 'pgpass'),
      pg_hba: hba,
      authentication: { superuser: user, replication: user, rewind: user },
      parameters: { unix_socket_directories: dir, max_connections: 200, shared_buffers: '64MB' },
    },
  });
}

/** Starts a Patroni for each member not running yet: the first to take the leader key in etcd bootstraps the primary, the other clones it as a streaming standby. */
export async function startPatroni(settings: ClusterSettings): Promise<void> {
  for (const member of settings.postgresMembers) {
    const name = processName(member);
    if (runningPid(settings.dir, name)) continue;
    const dir = memberDir(settings, member);
    mkdirSync(dir, { recursive: true });
    const { uid, gid } = await postgresIds();
    chownSync(dir, uid, gid);
    writeFileSync(configFile(settings, member), patroniConfig(settings, member));
    launch(settings.dir, { name, command: 'patroni', args: [configFile(settings, member)], user: POSTGRES_USER });
  }
  for (const member of settings.postgresMembers) {
    await waitForPort(member.port, `PostgreSQL ${member.name}`, 100, logFile(settings.dir, processName(member)));
  }
  await waitForReplication(settings);
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', POSTGRES_USER]), run('id', ['-g', POSTGRES_USER])]);
  return { uid: Number(uid), gid: Number(gid) };
}

interface PatroniMember {
  Member: string;
  Role: string;
  State: string;
  /** A standby's replay lag; absent for the leader, and for a standby not replicating. */
  'Lag in MB'?: number;
}

export async function patroniMembers(settings: ClusterSettings): Promise<PatroniMember[]> {
  const { stdout } = await run('patronictl', ['-c', patroniConfigFile(settings), 'list', '--format', 'json'], { timeout: 30_000 });
  return JSON.parse(stdout) as PatroniMember[];
}

/** Until one member leads and the other streams from it. */
async function waitForReplication(settings: ClusterSettings): Promise<void> {
  const deadline = Date.now() + 100_000;
  for (;;) {
    const members = await patroniMembers(settings).catch(() => []);
    const leader = members.some((member) => member.Role === 'Leader' && member.State === 'running');
    // Patroni 3.0.2 (Debian 12) says "running" for a standby that streams; later versions "streaming".
    const streaming = members.filter((member) => member.Role !== 'Leader' && ['running', 'streaming'].includes(member.State) && typeof member['Lag in MB'] === 'number').length;
    if (leader && streaming === settings.postgresMembers.length - 1) return;
    if (Date.now() > deadline) throw new Error(`Patroni did not report a leader and a streaming standby within 100 s: ${JSON.stringify(members)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The member Patroni names leader, if one leads now. */
export async function leaderMember(settings: ClusterSettings): Promise<PostgresMember | undefined> {
  const members = await patroniMembers(settings).catch(() => []);
  const leader = members.find((member) => member.Role === 'Leader' && member.State === 'running');
  return settings.postgresMembers.find(({ name }) => name === leader?.Member);
}

/**
 * Kills a member as a machine's crash would: SIGKILL of its Patroni and of its postmaster (whose
 * backends then end). Patroni on the other member promotes its standby once the leader key
 * expires; startPatroni brings this one back as a standby.
 */
export function killPostgresMember(settings: ClusterSettings, member: PostgresMember): void {
  const patroni = runningPid(settings.dir, processName(member));
  if (patroni) process.kill(-patroni, 'SIGKILL');
  const pidFile = join(memberDir(settings, member), 'data', 'postmaster.pid');
  const postmaster = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : NaN;
  if (Number.isInteger(postmaster) && postmaster > 0) {
    try {
      process.kill(postmaster, 'SIGKILL');
    } catch {
      // gone with its Patroni
    }
  }
}

/** Stops each Patroni (which stops its PostgreSQL), then any server left behind, then etcd. */
export async function stopPostgres(settings: ClusterSettings): Promise<void> {
  for (const member of settings.postgresMembers) {
    await stopLaunched(settings.dir, processName(member), 30);
    const data = join(memberDir(settings, member), 'data');
    if (existsSync(join(data, 'postmaster.pid'))) {
      await run('runuser', ['-u', POSTGRES_USER, '--', join(settings.postgresBin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
    }
  }
  await stopLaunched(settings.dir, 'etcd', 10);
}

/** One line per member, as Patroni sees it, or why it cannot say. */
export async function postgresStatus(settings: ClusterSettings): Promise<string[]> {
  const lines = settings.postgresMembers.map(async ({ name, port }) => `postgres ${name}  127.0.0.1:${port}  ${(await listening(port)) ? 'up' : 'down'}`);
  const members = existsSync(patroniConfigFile(settings))
    ? await patroniMembers(settings).catch((error: Error) => `patroni: ${error.message.split('\n')[0]}`)
    : `patroni: not set up (no ${patroniConfigFile(settings)}): pnpm cluster up`;
  const roles = typeof members === 'string' ? [members] : members.map((member) => `patroni ${member.Member}: ${member.Role}, ${member.State}`);
  return [...(await Promise.all(lines)), ...roles];
}
