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
 * A new virtual host on the test broker: services under test use their real exchange and
 * queue names there, isolated from other tests and from a local stack on the same broker.
 */
export async function freshVirtualHost(prefix: string): Promise<TestVirtualHost> {
  const name = testVirtualHostName(prefix);
  await rabbitmqctl(['add_vhost', name]);
  const url = new URL(amqpUrl());
  await rabbitmqctl(['set_permissions', '-p', name, decodeURIComponent(url.username || 'guest'), '.*', '.*', '.*']);
  url.pathname = `/${encodeURIComponent(name)}`;
  return { url: url.toString(), drop: async () => void (await rabbitmqctl(['delete_vhost', name])) };
}

