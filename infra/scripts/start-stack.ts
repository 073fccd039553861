/**
 * `pnpm start`: runs the four services and the social platform simulator against the local
 * RabbitMQ and PostgreSQL (with both simulators), each in its own process, and prints where each part listens.
 * Every setting can be overridden by its env variable; PORT and DATABASE_URL, which differ
 * per service, by the prefixed form (TICKETING_PORT, AUTH_DATABASE_URL, ...).
 * First it provisions (`pnpm provision`, on the vhost `crm` unless AMQP_ADMIN_URL names another):
 * each service runs with its own broker user and database roles. STACK_PROVISION=0 runs every
 * service as AMQP_URL's user and the database server's superuser instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { LOCAL_DEV } from '@crm/config';
import { buildWebOnce } from '@crm/console/src/web-build';
import { optionsFromEnv, provisionKept } from '../provision/src/cli';
import { consoleCredential } from './src/console-credential';

const root = join(__dirname, '..', '..');
const env = process.env;
const envName = env.SOCIAL_ENV_NAME ?? 'dev';
const amqpUrl = env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const databaseServer = env.DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432';

/** A URL the banner may print, with what it is; printed only when a GET of it answers (2xx or 3xx). */
interface Link {
  path: string;
  note: string;
  /** Sent with the CRM's bearer token. */
  crm?: boolean;
}

interface Part {
  name: string;
  dir: string;
  port: number;
  env: Record<string, string>;
  links: Link[];
}

const portOf = (prefix: string, fallback: number) => Number(env[`${prefix}_PORT`] ?? fallback);
const ports = {
  webhookIngest: portOf('WEBHOOK_INGEST', 3001),
  ticketing: portOf('TICKETING', 3002),
  auth: portOf('AUTH', 3003),
  tracking: portOf('TRACKING', 3004),
  simulator: portOf('SOCIAL_SIMULATOR', 3101),
  trackingSimulator: portOf('TRACKING_SIMULATOR', 3102),
  console: portOf('CONSOLE', 3005),
};
const crmToken = (env.CRM_API_TOKENS ?? LOCAL_DEV.crmToken).split(',')[0];
const databaseUrl = (prefix: string, name: string) => env[`${prefix}_DATABASE_URL`] ?? `${databaseServer}/${name}`;
const webhookUrl = env.PUBLIC_WEBHOOK_URL ?? `http://127.0.0.1:${ports.webhookIngest}/webhooks/${envName}`;
const consumerSecret = env.SOCIAL_CONSUMER_SECRET ?? LOCAL_DEV.consumerSecret;

const parts: Part[] = [
  {
    name: 'auth',
    dir: 'services/auth',
    port: ports.auth,
    env: { DATABASE_URL: databaseUrl('AUTH', 'auth'), PUBLIC_WEBHOOK_URL: webhookUrl, CRM_CONNECTED_URL: env.CRM_CONNECTED_URL ?? `http://127.0.0.1:${ports.console}/accounts`, SOCIAL_API_URL: env.SOCIAL_API_URL ?? `http://127.0.0.1:${ports.simulator}`, SOCIAL_CONSUMER_SECRET: consumerSecret },
    links: [{ path: '/docs', note: 'API reference (accounts, connections, actions)' }, { path: '/health/ready', note: 'OAuth credentials; answers auth.rpc' }],
  },
  {
    name: 'ticketing',
    dir: 'services/ticketing',
    port: ports.ticketing,
    env: { DATABASE_URL: databaseUrl('TICKETING', 'ticketing') },
    links: [{ path: '/v1/tickets', note: `CRM API; Authorization: Bearer ${crmToken}`, crm: true }, { path: '/docs', note: 'API reference' }],
  },
  {
    name: 'webhook-ingest',
    dir: 'services/webhook-ingest',
    port: ports.webhookIngest,
    env: {},
    links: [{ path: '/docs', note: 'API reference' }, { path: '/health/ready', note: `the social platform's webhook: ${webhookUrl}` }],
  },
  {
    name: 'tracking',
    dir: 'services/tracking',
    port: ports.tracking,
    env: {
      DATABASE_URL: databaseUrl('TRACKING', 'tracking'),
      TRACKING_API_URL: env.TRACKING_API_URL ?? `http://127.0.0.1:${ports.trackingSimulator}`,
      ROUTING_URL: env.ROUTING_URL ?? `http://127.0.0.1:${ports.trackingSimulator}`,
    },
    links: [{ path: '/docs', note: 'API reference' }, { path: '/health/ready', note: `CRM API: /v1/clients/<client>/tasks/<task>/live (Authorization: Bearer ${crmToken})` }],
  },
  {
    name: 'console',
    dir: 'services/console',
    port: ports.console,
    env: {
      TICKETING_URL: `http://127.0.0.1:${ports.ticketing}`,
      AUTH_URL: `http://127.0.0.1:${ports.auth}`,
      TRACKING_URL: `http://127.0.0.1:${ports.tracking}`,
    },
    links: [{ path: '/', note: `the agents' screens; sign in with ${crmToken} or a credential of auth's CLI` }],
  },
  {
    name: 'social-platform-simulator',
    dir: 'infra/simulators/social-platform',
    port: ports.simulator,
    // auth registers an Account Activity and an X Activity webhook side by side: one more than pay-per-use's 1.
    env: { WEBHOOK_URL: webhookUrl, SOCIAL_CONSUMER_SECRET: consumerSecret, WEBHOOK_LIMIT: '2', WEBHOOK_HTTP_ALLOWED: 'true' },
    links: [{ path: '/control/deliveries', note: 'what it delivered (send one: pnpm sim dm --from @ana --to 1001 "hello")' }],
  },
  {
    name: 'tracking-provider-simulator',
    dir: 'infra/simulators/tracking-provider',
    port: ports.trackingSimulator,
    env: {},
    links: [{ path: '/control/clients', note: 'tracking provider and OSRM router; client demo, key local-dev-tracking-key' }],
  },
];

function reachable(url: string, fallbackPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || fallbackPort) }, () => {
      socket.end();
      resolve(true);
    });
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(false));
  });
}

/** The stack's vhost when AMQP_URL names none: provisioning never touches the default vhost's permissions. */
function stackAdminUrl(): string {
  const url = new URL(amqpUrl);
  if (url.pathname.length <= 1) url.pathname = '/crm';
  return url.toString();
}

/** Provisions users and roles and gives each service its own (a prefixed DATABASE_URL given by hand still wins). */
async function provisionParts(): Promise<void> {
  const provisioned = await provisionKept({ ...optionsFromEnv(), amqpAdminUrl: env.AMQP_ADMIN_URL ?? stackAdminUrl(), databaseAdminUrl: env.DATABASE_ADMIN_URL ?? `${databaseServer}/postgres` });
  const services = provisioned.services as Record<string, (typeof provisioned.services)['auth'] | undefined>;
  for (const part of parts) {
    const own = services[part.name];
    if (!own) continue;
    const { BROKER_USER: _user, DATABASE_URL, DATABASE_MIGRATION_URL, AMQP_URL } = own;
    const databaseGiven = Boolean(env[`${part.name.toUpperCase()}_DATABASE_URL`]);
    const database: Record<string, string> = DATABASE_URL && DATABASE_MIGRATION_URL && !databaseGiven ? { DATABASE_URL, DATABASE_MIGRATION_URL } : {};
    part.env = { ...part.env, AMQP_URL, BROKER_TOPOLOGY: 'verify', ...database };
    if (part.name === 'auth') part.env.WEBHOOK_KEY_CALLERS = provisioned.services['webhook-ingest'].BROKER_USER;
  }
  console.log(`Provisioned broker users and database roles (credentials in .local/credentials.json).`);
}

const children = new Map<string, ChildProcess>();
let stopping = false;

function prefixLines(name: string, stream: NodeJS.ReadableStream, out: NodeJS.WriteStream): void {
  let buffered = '';
  stream.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) if (line) out.write(`[${name}] ${line}\n`);
  });
}

const partEnv = (part: Part) => ({ NODE_ENV: 'development', ...env, AMQP_URL: amqpUrl, SOCIAL_ENV_NAME: envName, ...part.env, PORT: String(part.port) });

/** Runs auth's CLI with auth's settings; resolves with the JSON it prints. */
function authCli(args: string[]): Promise<Record<string, unknown>> {
  const auth = parts.find((part) => part.name === 'auth')!;
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), ['src/cli.ts', ...args], { cwd: join(root, auth.dir), env: partEnv(auth), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => {
      // The answer is the pretty-printed JSON object (one-line log entries may come before it).
      const lines = out.split('\n');
      const start = lines.indexOf('{');
      try {
        if (code !== 0 || start < 0) throw new Error(err || out);
        resolve(JSON.parse(lines.slice(start).join('\n')) as Record<string, unknown>);
      } catch (error) {
        reject(new Error(`auth cli ${args.slice(0, 2).join(' ')} failed (exit ${code}): ${(error as Error).message}`));
      }
    });
  });
}

const CONSOLE_CREDENTIAL_FILE = join(root, '.local', 'console-credential.json');

/**
 * The console's own credential when none is given: scope sessions:issue only (it asks auth for
 * agents' sessions and nothing else), made with auth's CLI at each start, the previous one revoked.
 */
async function madeConsoleToken(): Promise<string> {
  if (existsSync(CONSOLE_CREDENTIAL_FILE)) {
    const previous = (JSON.parse(readFileSync(CONSOLE_CREDENTIAL_FILE, 'utf8')) as { id?: string }).id;
    if (previous) await authCli(['credentials', 'revoke', previous]).catch(() => undefined);
  }
  const created = await authCli(['credentials', 'create', '--name', 'console (pnpm start)', '--scopes', 'sessions:issue']);
  mkdirSync(dirname(CONSOLE_CREDENTIAL_FILE), { recursive: true });
  writeFileSync(CONSOLE_CREDENTIAL_FILE, JSON.stringify({ id: created.id }), { mode: 0o600 });
  return String(created.token);
}

function startPart(part: Part): void {
  const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), ['src/main.ts'], {
    cwd: join(root, part.dir),
    env: partEnv(part),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: Ctrl-C reaches only this script, which then stops each part with one SIGTERM.
    detached: true,
  });
  children.set(part.name, child);
  prefixLines(part.name, child.stdout!, process.stdout);
  prefixLines(part.name, child.stderr!, process.stderr);
  child.on('exit', (code, signal) => {
    children.delete(part.name);
    if (!stopping) {
      console.error(`\n${part.name} exited (${signal ?? `code ${code}`}); stopping the stack.`);
      void stopAll(1);
    }
  });
}

async function waitReady(part: Part, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    const ok = await fetch(`http://127.0.0.1:${part.port}/health/ready`)
      .then((res) => res.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${part.name} did not become ready on port ${part.port} within ${timeoutMs / 1000} s`);
}

async function stopAll(code: number): Promise<void> {
  stopping = true;
  const exits = [...children.values()].map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of children.values()) child.kill('SIGTERM');
  await Promise.race([Promise.all(exits), new Promise((resolve) => setTimeout(resolve, 15_000))]);
  process.exit(code);
}

/** True when a GET of the URL answers 2xx or 3xx: the banner never shows a link that leads nowhere. */
async function answers(url: string, link: Link): Promise<boolean> {
  const headers: Record<string, string> = link.crm ? { authorization: `Bearer ${crmToken}` } : {};
  return fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(3000) })
    .then((res) => res.status < 400)
    .catch(() => false);
}

async function printBanner(): Promise<void> {
  const rows = await Promise.all(
    parts.flatMap((part) =>
      part.links.map(async (link) => {
        const url = `http://127.0.0.1:${part.port}${link.path}`;
        return (await answers(url, link)) ? { name: part.name, line: `${url}  ${link.note}` } : null;
      }),
    ),
  );
  const width = Math.max(...parts.map((p) => p.name.length));
  console.log(`\nThe stack is ready (broker ${new URL(amqpUrl).host}, database ${new URL(databaseServer).host}):`);
  for (const row of rows) if (row) console.log(`  ${row.name.padEnd(width)}  ${row.line}`);
  console.log('\nCtrl-C stops everything.\n');
}

async function main(): Promise<void> {
  const [broker, database] = await Promise.all([reachable(amqpUrl, 5672), reachable(databaseServer, 5432)]);
  if (!broker || !database) {
    const missing = [!broker && `RabbitMQ at ${new URL(amqpUrl).host} (start it: rabbitmq-server -detached)`, !database && `PostgreSQL at ${new URL(databaseServer).host} (start it: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start)`].filter(Boolean);
    console.error(`Cannot start the stack: not reachable: ${missing.join('; ')}. Or run: bash infra/scripts/bootstrap.sh start`);
    process.exit(1);
  }
  // The console serves its web application from dist/web: built here when missing or older than its sources.
  buildWebOnce();
  if (env.STACK_PROVISION !== '0') await provisionParts();
  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));
  const auth = parts[0]!;
  const consolePart = parts.find((part) => part.name === 'console')!;
  const credential = consoleCredential(env);
  if (credential.kind === 'given') {
    auth.env = { ...auth.env, ...credential.authEnv };
    consolePart.env = { ...consolePart.env, ...credential.consoleEnv };
  }
  // auth first: webhook-ingest asks it for the webhook key.
  startPart(auth);
  await waitReady(auth);
  if (credential.kind === 'made-by-auth-cli') consolePart.env.SERVICE_TOKEN = await madeConsoleToken();
  for (const part of parts.slice(1)) startPart(part);
  await Promise.all(parts.slice(1).map((part) => waitReady(part)));
  await printBanner();
}

main().catch((error: Error) => {
  console.error(error.message);
  void stopAll(1);
});
