import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True when something accepts connections on 127.0.0.1:<port>. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function waitForPort(port: number, what: string, seconds: number, logFile: string): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await listening(port))) {
    if (Date.now() > deadline) throw new Error(`${what} did not listen on port ${port} within ${seconds} s (see ${logFile})`);
    await sleep(250);
  }
}

export interface Launch {
  /** Names the pid file (<dir>/pids/<name>.pid) and the log (<dir>/logs/<name>.log). */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Runs the command as this system user (PostgreSQL refuses to run as root). */
  user?: string;
}

export const logFile = (dir: string, name: string) => join(dir, 'logs', `${name}.log`);
const pidFile = (dir: string, name: string) => join(dir, 'pids', `${name}.pid`);

/** Starts a process in its own process group, detached from this one, its output in its log; remembers its pid. */
export function launch(dir: string, spec: Launch): number {
  mkdirSync(join(dir, 'logs'), { recursive: true });
  mkdirSync(join(dir, 'pids'), { recursive: true });
  const out = openSync(logFile(dir, spec.name), 'a');
  const [command, args] = spec.user ? ['runuser', ['-u', spec.user, '--', spec.command, ...spec.args]] : [spec.command, spec.args];
  const child = spawn(command, args, { cwd: dir, env: spec.env ?? process.env, detached: true, stdio: ['ignore', out, out] });
  child.unref();
  if (!child.pid) throw new Error(`could not start ${spec.command}`);
  writeFileSync(pidFile(dir, spec.name), `${child.pid}\n`);
  return child.pid;
}

/** The pid remembered for `name`, when its process is still alive. */
export function runningPid(dir: string, name: string): number | undefined {
  const file = pidFile(dir, name);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Sends SIGTERM to the process group started as `name`, then SIGKILL to what is left after `graceSeconds`. */
export async function stopLaunched(dir: string, name: string, graceSeconds = 20): Promise<void> {
  const file = pidFile(dir, name);
  if (!existsSync(file)) return;
  const pid = Number(readFileSync(file, 'utf8').trim());
  const signal = (which: NodeJS.Signals) => {
    try {
      process.kill(-pid, which);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + graceSeconds * 1000;
  while (alive(pid) && Date.now() < deadline) await sleep(200);
  signal('SIGKILL');
  rmSync(file, { force: true });
}
