import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomInt } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A RabbitMQ node of a test's own: its own name, ports and directory, started from the
 * machine's RabbitMQ installation and stopped with the test. A test that needs the broker to
 * go away stops this one, never the machine's.
 */
export interface PrivateBroker {
  /** amqp://guest:guest@127.0.0.1:<its port> (the default vhost). */
  url: string;
  node: string;
  /** Stops the broker's application: clients lose their connections until startApp. */
  stopApp: () => Promise<void>;
  /** Starts the application again (durable queues and persistent messages stay). */
  startApp: () => Promise<void>;
  /** Stops the node and removes its directory. */
  stop: () => Promise<void>;
}

/** Where the RabbitMQ scripts are: RABBITMQ_SBIN, else Debian's layout. */
function sbinDirectory(): string {
  if (process.env.RABBITMQ_SBIN) return process.env.RABBITMQ_SBIN;
  const root = '/usr/lib/rabbitmq/lib';
  const installed = existsSync(root) ? readdirSync(root).filter((name) => name.startsWith('rabbitmq_server-')) : [];
  if (installed.length === 0) throw new Error('no RabbitMQ installation found to start a private broker from (set RABBITMQ_SBIN to the folder of rabbitmq-server)');
  return join(root, installed.sort().pop()!, 'sbin');
}

/** A port nothing listens on now (on loopback), for a server a test starts. */
export async function freePort(): Promise<number> {
  // Below the kernel's ephemeral range: a port it hands out itself (listen on 0) is free only
  // until an outgoing connection takes it as its local end, which happened between this answer
  // and the caller's listen (EADDRINUSE) while a stack started its services.
  const ephemeralLow = ephemeralRangeStart();
  if (ephemeralLow - LOWEST_CHOSEN_PORT >= 1_000) {
    for (let tries = 0; tries < 50; tries += 1) {
      const port = LOWEST_CHOSEN_PORT + randomInt(ephemeralLow - LOWEST_CHOSEN_PORT);
      if (await canListen(port)) return port;
    }
  }
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const LOWEST_CHOSEN_PORT = 10_000;

function ephemeralRangeStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startPrivateBroker(label = 'test'): Promise<PrivateBroker> {
  const sbin = sbinDirectory();
  const dir = mkdtempSync(join(tmpdir(), `crm-rabbit-${label}-`));
  const [port, distPort] = [await freePort(), await freePort()];
  const node = `crm-${label}-${randomBytes(3).toString('hex')}@localhost`;
  writeFileSync(join(dir, 'enabled_plugins'), '[rabbitmq_consistent_hash_exchange].\n');
  // Loopback only; the one plugin (the consistent-hash exchange) opens no port.
  writeFileSync(join(dir, 'rabbitmq.conf'), `listeners.tcp.1 = 127.0.0.1:${port}\n`);
  // HOME holds the Erlang cookie the node and its rabbitmqctl share.
  const env = {
    ...process.env,
    HOME: dir,
    RABBITMQ_NODENAME: node,
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq'),
    RABBITMQ_PID_FILE: join(dir, 'pid'),
  };
  const out = openSync(join(dir, 'server.log'), 'a');
  const server = spawn(join(sbin, 'rabbitmq-server'), [], { cwd: dir, env, detached: true, stdio: ['ignore', out, out] });
  server.unref();
  const ctl = (...args: string[]) => run(join(sbin, 'rabbitmqctl'), ['-n', node, ...args], { env, timeout: 60_000 });
  const up = async (what: string) => {
    const deadline = Date.now() + 60_000;
    while (!(await accepts(port))) {
      if (Date.now() > deadline) throw new Error(`the private broker ${node} did not ${what} within 60 s (see ${join(dir, 'server.log')})`);
      await sleep(200);
    }
  };
  const stop = async () => {
    await ctl('stop').catch(() => undefined);
    try {
      if (server.pid) process.kill(-server.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await up('start');
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `amqp://guest:guest@127.0.0.1:${port}`,
    node,
    stopApp: async () => {
      await ctl('stop_app');
    },
    startApp: async () => {
      // The listening port may take a moment to be free again after stop_app.
      for (let attempt = 1; ; attempt += 1) {
        try {
          await ctl('start_app');
          break;
        } catch (error) {
          if (attempt >= 20) throw error;
          await sleep(250);
        }
      }
      await up('start again');
    },
    stop,
  };
}
