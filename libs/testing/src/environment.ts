import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';

const run = promisify(execFile);

const DEFAULT_AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The broker tests talk to: AMQP_URL, else what global setup started, else the local one. */
export function amqpUrl(): string {
  return process.env.AMQP_URL ?? DEFAULT_AMQP_URL;
}

/** Any database on the server tests use; tests make their own databases beside it. */
export function databaseServerUrl(): string {
  return process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
}

export function rabbitmqctl(args: string[]) {
  const container = process.env.TEST_RABBITMQ_CONTAINER;
  return container ? run('docker', ['exec', container, 'rabbitmqctl', ...args]) : run('rabbitmqctl', args);
}

/** A test virtual host's name, `test-<prefix>-t<creation ms>-<hex>`: a later run can tell its age. */
export const testVirtualHostName = (prefix: string, now = Date.now()): string => `test-${prefix}-t${now}-${randomBytes(4).toString('hex')}`;

/** When a test virtual host was made, from its name; null for a name that does not say (never swept). */
export function virtualHostCreatedAt(name: string): number | null {
  const match = /^test-.+-t(\d{13})-[0-9a-f]{8}$/.exec(name);
  return match ? Number(match[1]) : null;
}

export interface TestVirtualHost {
  url: string;
  drop: () => Promise<void>;
}

/**
 * The test broker's management API (RABBITMQ_MANAGEMENT_URL, else port 15672 on the AMQP host)
 * with the AMQP user's credentials, once it has answered; null without the plugin (or with a
 * broker in a container). A virtual host made there costs one request, where each rabbitmqctl
 * starts an Erlang VM (1-2 s of CPU): a run makes about a hundred.
 */
let management: Promise<{ base: string; authorization: string } | null> | undefined;
function managementApi(): Promise<{ base: string; authorization: string } | null> {
  management ??= (async () => {
    if (process.env.TEST_RABBITMQ_CONTAINER) return null;
    const amqp = new URL(amqpUrl());
    const base = (process.env.RABBITMQ_MANAGEMENT_URL ?? `http://${amqp.hostname}:15672`).replace(/\/$/, '');
    const credentials = `${decodeURIComponent(amqp.username || 'guest')}:${decodeURIComponent(amqp.password || 'guest')}`;
    const authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    try {
      const answer = await fetch(`${base}/api/whoami`, { headers: { authorization }, signal: AbortSignal.timeout(2_000) });
      return answer.ok ? { base, authorization } : null;
    } catch {
      return null;
    }
  })();
  return management;
}

/** One call of the management API; anything but a 2xx throws with the broker's answer. */
async function manage(method: 'PUT' | 'DELETE', path: string, body?: unknown): Promise<void> {
  const api = (await managementApi())!;
  const answer = await fetch(`${api.base}/api${path}`, {
    method,
    headers: { authorization: api.authorization, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  if (!answer.ok) throw new Error(`RabbitMQ management ${method} ${path}: ${answer.status} ${await answer.text()}`);
}

/**
 * A new virtual host on the test broker: services under test use their real exchange and
 * queue names there, isolated from other tests and from a local stack on the same broker.
 */
export async function freshVirtualHost(prefix: string): Promise<TestVirtualHost> {
  const name = testVirtualHostName(prefix);
  const url = new URL(amqpUrl());
  const user = decodeURIComponent(url.username || 'guest');
  url.pathname = `/${encodeURIComponent(name)}`;
  if (await managementApi()) {
    const vhost = encodeURIComponent(name);
    await manage('PUT', `/vhosts/${vhost}`);
    await manage('PUT', `/permissions/${vhost}/${encodeURIComponent(user)}`, { configure: '.*', write: '.*', read: '.*' });
    return { url: url.toString(), drop: () => manage('DELETE', `/vhosts/${vhost}`) };
  }
  await rabbitmqctl(['add_vhost', name]);
  await rabbitmqctl(['set_permissions', '-p', name, user, '.*', '.*', '.*']);
  return { url: url.toString(), drop: async () => void (await rabbitmqctl(['delete_vhost', name])) };
}

