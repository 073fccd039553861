/**
 * pnpm cluster up | down | status: a local RabbitMQ cluster of three nodes and a PostgreSQL
 * primary with a Patroni-managed streaming standby, beside (never touching) the machine's own
 * RabbitMQ and PostgreSQL. docs/cluster.md says what it is for.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { formRabbitCluster, rabbitStatus, startRabbitNodes, stopRabbitNodes } from './rabbitmq';
import { patroniConfigFile, postgresStatus, startEtcd, startPatroni, stopPostgres } from './postgres';
import { clientUrls, clusterSettings, type ClusterSettings } from './settings';

const PACKAGES: Record<string, string> = { patroni: 'patroni', etcd: 'etcd-server', 'rabbitmq-server': 'rabbitmq-server' };

const installed = (program: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${program} || test -x /usr/sbin/${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** Installs with apt what the cluster runs and the machine lacks, as infra/scripts/bootstrap.sh does for its packages. */
function ensurePackages(): void {
  const missing = Object.entries(PACKAGES)
    .filter(([program]) => !installed(program))
    .map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  console.log(`installing ${missing.join(', ')} (apt)`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

function printUrls(settings: ClusterSettings): void {
  const urls = clientUrls(settings, 'ticketing');
  console.log('\nGive a service these (its own database name in place of ticketing):');
  console.log(`  AMQP_URL=${urls.amqp}`);
  console.log(`  DATABASE_URL=${urls.database}`);
  console.log(`Failover: patronictl -c ${patroniConfigFile(settings)} failover --force`);
}

async function up(settings: ClusterSettings): Promise<void> {
  const started = Date.now();
  ensurePackages();
  mkdirSync(settings.dir, { recursive: true });
  // The broker nodes and the database servers start side by side: each takes a while alone.
  const rabbit = startRabbitNodes(settings).then(() => formRabbitCluster(settings));
  const postgres = startEtcd(settings).then(() => startPatroni(settings));
  await Promise.all([rabbit, postgres]);
  await status(settings);
  console.log(`\ncluster up in ${((Date.now() - started) / 1000).toFixed(1)} s (${settings.dir})`);
  printUrls(settings);
}

async function down(settings: ClusterSettings): Promise<void> {
  await Promise.all([stopRabbitNodes(settings), stopPostgres(settings)]);
  rmSync(settings.dir, { recursive: true, force: true });
  console.log(`cluster down; ${settings.dir} removed`);
}

async function status(settings: ClusterSettings): Promise<void> {
  const [rabbit, postgres] = await Promise.all([rabbitStatus(settings), postgresStatus(settings)]);
  console.log([...rabbit, ...postgres].join('\n'));
}

const COMMANDS: Record<string, (settings: ClusterSettings) => Promise<void>> = { up, down, status };

async function main(): Promise<void> {
  const command = COMMANDS[process.argv[2] ?? ''];
  if (!command) {
    console.error('usage: pnpm cluster up | down | status');
    process.exit(2);
  }
  await command(clusterSettings());
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
