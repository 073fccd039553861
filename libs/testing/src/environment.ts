import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

const erlangBinary = (text: string) => `<<"${text.replace(/[\\"]/g, '\\$&')}">>`;
const ACTING_USER = erlangBinary('crm-tests');

/**
 * Adds virtual hosts, each with every right for `user`, in one rabbitmqctl start: each start
 * costs the machine about a second of CPU, whatever it does, and a run makes dozens of hosts.
 */
export async function addVirtualHosts(names: readonly string[], user: string): Promise<void> {
  if (names.length === 0) return;
  const all = '<<".*">>';
  await rabbitmqctl(['eval', `[begin rabbit_vhost:add(V, ${ACTING_USER}), rabbit_auth_backend_internal:set_permissions(${erlangBinary(user)}, V, ${all}, ${all}, ${all}, ${ACTING_USER}) end || V <- [${names.map(erlangBinary).join(',')}]], ok.`]);
}

/** Deletes virtual hosts, what they hold with them, in one rabbitmqctl start; one already gone is no error. */
export async function deleteVirtualHosts(names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await rabbitmqctl(['eval', `[catch rabbit_vhost:delete(V, ${ACTING_USER}) || V <- [${names.map(erlangBinary).join(',')}]], ok.`]);
}

const testUser = () => decodeURIComponent(new URL(amqpUrl()).username || 'guest');

/**
 * The run's pool of virtual hosts made ahead (global setup): a directory of one file per host,
 * under `free/` until a test file takes it by moving the file to `taken/` (a rename: two workers
 * never take the same one).
 */
const POOL_ENV = 'TEST_VIRTUAL_HOST_POOL';

/**
 * Makes `size` virtual hosts for the run's test files to take; they take none until all exist.
 * The pool is named in the environment before the first await, so the test workers started
 * after global setup returns see it.
 */
export function fillVirtualHostPool(size: number): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'crm-test-vhosts-'));
  for (const part of ['free', 'taken']) mkdirSync(join(directory, part));
  process.env[POOL_ENV] = directory;
  const names = Array.from({ length: size }, () => testVirtualHostName('pool'));
  return addVirtualHosts(names, testUser()).then(async () => {
    await Promise.all(names.map((name) => writeFile(join(directory, 'free', encodeURIComponent(name)), '')));
  });
}

/** Deletes the pool's hosts (taken ones a test file did not drop included) and the pool. */
export async function emptyVirtualHostPool(): Promise<void> {
  const directory = process.env[POOL_ENV];
  if (!directory) return;
  const names = (await Promise.all(['free', 'taken'].map((part) => readdir(join(directory, part)).catch(() => [])))).flat().map(decodeURIComponent);
  await deleteVirtualHosts(names);
  await rm(directory, { recursive: true, force: true });
}

async function madeVirtualHost(name: string): Promise<string> {
  await addVirtualHosts([name], testUser());
  return name;
}

async function takeFromPool(): Promise<string | null> {
  const directory = process.env[POOL_ENV];
  if (!directory) return null;
  for (const file of await readdir(join(directory, 'free')).catch(() => [])) {
    const taken = await rename(join(directory, 'free', file), join(directory, 'taken', file)).then(() => true, () => false);
    if (taken) return decodeURIComponent(file);
  }
  return null;
}

/**
 * A new virtual host on the test broker: services under test use their real exchange and
 * queue names there, isolated from other tests and from a local stack on the same broker.
 * Taken from the run's pool when it has one left, else made now.
 */
export async function freshVirtualHost(prefix: string): Promise<TestVirtualHost> {
  const name = (await takeFromPool()) ?? (await madeVirtualHost(testVirtualHostName(prefix)));
  const url = new URL(amqpUrl());
  url.pathname = `/${encodeURIComponent(name)}`;
  return { url: url.toString(), drop: () => deleteVirtualHosts([name]) };
}
