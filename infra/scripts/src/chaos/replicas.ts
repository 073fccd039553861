/** The services of a chaos run, each a process of its own that can be killed as a crash kills it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { sleep } from './traffic';

const root = join(__dirname, '..', '..', '..', '..');

export interface Replica {
  /** ticketing-a, ... */
  name: string;
  dir: string;
  port: number;
  env: Record<string, string>;
  /** Where this process's HTTP answers (127.0.0.1 but for one in a network namespace). */
  host: string;
  /** Runs the process inside this network namespace (`ip netns exec`). */
  namespace?: string;
  child?: ChildProcess;
}

export const urlOf = (replica: Replica) => `http://${replica.host}:${replica.port}`;

/**
 * Starts the service in one Node process (tsx as a loader, not its CLI, which would run the
 * service in a child of its own): SIGKILL must reach the process that holds the connections.
 * `ip netns exec` execs the command, so its pid is the service's.
 */
export function start(replica: Replica): void {
  // CHAOS_LOG_DIR keeps each process's warnings and errors (or CHAOS_LOG_LEVEL), appended to <dir>/<replica>.log, for a look at what a fault did.
  const logDir = process.env.CHAOS_LOG_DIR;
  if (logDir) mkdirSync(logDir, { recursive: true });
  const out = logDir ? openSync(join(logDir, `${replica.name}.log`), 'a') : 'ignore';
  const node = [process.execPath, '--import', 'tsx', 'src/main.ts'];
  const [command, ...args] = replica.namespace ? ['ip', 'netns', 'exec', replica.namespace, ...node] : node;
  replica.child = spawn(command!, args, {
    cwd: join(root, replica.dir),
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: logDir ? (process.env.CHAOS_LOG_LEVEL ?? 'warn') : 'error', ...replica.env, PORT: String(replica.port) },
    stdio: ['ignore', out, out],
  });
}

export const running = (replica: Replica) => replica.child !== undefined && replica.child.exitCode === null && replica.child.signalCode === null;

export async function kill(replica: Replica): Promise<void> {
  const child = replica.child;
  if (!child || !running(replica)) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

export async function waitReady(replica: Replica, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fetch(`${urlOf(replica)}/health/ready`, { signal: AbortSignal.timeout(2_000) }).then((res) => res.ok, () => false)) return;
    await sleep(250);
  }
  throw new Error(`${replica.name} did not become ready on ${urlOf(replica)}`);
}
