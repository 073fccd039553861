import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import amqplib from 'amqplib';
import pg from 'pg';
import winston from 'winston';
import { createPool, migrate, type Pool } from '@crm/db';
import { createLogger, type Logger } from '@crm/logging';
import { amqpUrl, databaseServerUrl } from './environment';

/** A logger that writes nothing unless TEST_LOG_LEVEL is set. */
export function testLogger(service = 'test'): Logger {
  const level = process.env.TEST_LOG_LEVEL;
  const logger = createLogger(service, level ?? 'info');
  if (!level) logger.silent = true;
  return logger;
}

/** A logger that keeps its lines in memory (to assert on what was, or was not, logged). */
export function capturingLogger(service = 'test'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger(service, 'debug');
  logger.add(
    new winston.transports.Stream({
      stream: new Writable({
        write(chunk: Buffer, _encoding: string, done: () => void) {
          lines.push(String(chunk));
          done();
        },
      }),
    }),
  );
  logger.transports.filter((t) => t instanceof winston.transports.Console).forEach((t) => logger.remove(t));
  return { logger, lines };
}

/** Logged at debug: a test that ends a database (DROP ... WITH (FORCE), a restart) ends its connections on purpose. */
function endedByServer(what: string): (error: Error) => void {
  return (error) => testLogger('test-database').debug(`${what} ended by the server`, { reason: error.message });
}

/**
 * A pool for a test, made as the services make theirs (`createPool`), hearing the error of a
 * connection the server ends (57P01 and the like): an 'error' event nobody listens to would
 * throw out of the test process. The pool opens another connection at the next query.
 */
export function testPool(url: string, options: { max?: number; applicationName?: string } = {}): Pool {
  return createPool(url, { ...options, onIdleError: endedByServer('a test pool connection') });
}

/** A single connection for a test (not yet connected) whose end by the server is heard rather than thrown. */
export function testClient(url: string): pg.Client {
  const client = new pg.Client({ connectionString: url });
  client.on('error', endedByServer('a test client connection'));
  return client;
}

export interface TestDatabase {
  url: string;
  drop: () => Promise<void>;
}

/** Runs one statement on the test server's maintenance database, on a connection of its own. */
async function onServer(sql: string): Promise<void> {
  const admin = new URL(databaseServerUrl());
  admin.pathname = '/postgres';
  const client = testClient(admin.toString());
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(databaseServerUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** A new, empty database on the test server; `drop` removes it. */
export async function freshDatabase(prefix: string): Promise<TestDatabase> {
  return newDatabase(prefix, '');
}

async function newDatabase(prefix: string, template: string): Promise<TestDatabase> {
  const name = `test_${prefix.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  await onServer(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  return { url: databaseUrl(name), drop: () => onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/**
 * A new database holding what the migrations in `migrationsDir` make, copied from a template
 * database migrated once per set of migrations (its name carries their hash): copying is a
 * fraction of migrating each test's database. The service's own start still runs `migrate`,
 * which finds every migration applied. Tests of migrating itself take freshDatabase.
 */
export async function migratedDatabase(prefix: string, migrationsDir: string): Promise<TestDatabase> {
  return newDatabase(prefix, await migratedTemplate(migrationsDir));
}

/**
 * The template database of a set of migrations in this test run: its name carries their hash and
 * the run's id (TEST_RUN_ID, set by global setup), so runs on one server at once never drop or
 * remake each other's.
 */
export function migratedTemplateName(migrationsDir: string): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsDir).sort()) hash.update(file).update('\0').update(readFileSync(join(migrationsDir, file))).update('\0');
  return `${TEMPLATE_PREFIX}${hash.digest('hex').slice(0, 16)}_${testRunId()}`;
}

export const TEMPLATE_PREFIX = 'test_template_';

/** This test run's id (lower-case letters and digits); 'solo' for a file run without global setup. */
export const testRunId = (): string => process.env.TEST_RUN_ID ?? 'solo';

/**
 * Drops the templates of migratedDatabase (those named, or every one of this run): the run's
 * teardown leaves the server as it found it. A template must be unmarked before it can be dropped.
 */
export async function dropMigratedTemplates(names?: string[]): Promise<number> {
  const admin = testClient(databaseUrl('postgres'));
  await admin.connect();
  try {
    const { rows } = await admin.query<{ name: string }>(
      `SELECT datname AS name FROM pg_database
        WHERE starts_with(datname, $1) AND (datname = ANY($2) OR ($2 IS NULL AND right(datname, length($3) + 1) = '_' || $3))`,
      [TEMPLATE_PREFIX, names ?? null, testRunId()],
    );
    for (const { name } of rows) {
      await admin.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE false`);
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
    return rows.length;
  } finally {
    await admin.end();
  }
}

async function migratedTemplate(migrationsDir: string): Promise<string> {
  // Not swept as a leftover (sweepDatabases leaves templates alone): the files of a run share it; its teardown drops it.
  const name = migratedTemplateName(migrationsDir);
  const admin = testClient(databaseUrl('postgres'));
  await admin.connect();
  const ready = async () => (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate', [name])).rowCount === 1;
  try {
    if (await ready()) return name;
    // Workers starting together: one migrates, the others wait for it.
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    if (await ready()) return name;
    // One a cut-off run began and did not mark as a template.
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
    await migrate(databaseUrl(name), migrationsDir);
    // No connections to it from now on: CREATE DATABASE … TEMPLATE refuses a template in use.
    await admin.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    return name;
  } finally {
    await admin.end();
  }
}

/** Deletes queues (with their DLQs) and exchanges so a test starts clean. */
export async function deleteBrokerObjects(queues: string[], exchanges: string[] = []): Promise<void> {
  const connection = await amqplib.connect(amqpUrl());
  try {
    const channel = await connection.createChannel();
    for (const queue of queues) {
      for (const name of [queue, `${queue}.dlq`]) await channel.deleteQueue(name);
    }
    for (const exchange of exchanges) await channel.deleteExchange(exchange);
    await channel.close();
  } finally {
    await connection.close();
  }
}

/** Number of messages ready in a queue (0 when it does not exist). */
export async function queueDepth(queue: string, url = amqpUrl()): Promise<number> {
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    const result = await channel.checkQueue(queue).catch(() => ({ messageCount: 0 }));
    return result.messageCount;
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** Polls `check` until it returns a truthy value, or fails with the last value after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T> | T, { timeoutMs = 15_000, intervalMs = 50, what = 'condition' } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      last = await check();
      if (last) return last;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(last)}${lastError ? `; last error: ${(lastError as Error).message}` : ''}`);
}

/**
 * The messages waiting in `queues`, taken with a consumer (a queue with a single active
 * consumer refuses basic.get). `remove: false` leaves them unacked: back in their queue once the
 * connection closes. Meant for queues no one else consumes.
 */
export async function readQueues(url: string, queues: readonly string[], options: { remove: boolean }): Promise<Buffer[]> {
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createChannel();
    const contents: Buffer[] = [];
    for (const queue of queues) {
      const { messageCount } = await channel.checkQueue(queue);
      if (messageCount === 0) continue;
      let taken = 0;
      let allTaken: () => void = () => undefined;
      const done = new Promise<void>((resolve) => (allTaken = resolve));
      const { consumerTag } = await channel.consume(queue, (message) => {
        if (!message) return;
        contents.push(message.content);
        if (options.remove) channel.ack(message);
        taken += 1;
        if (taken === messageCount) allTaken();
      });
      await done;
      await channel.cancel(consumerTag);
    }
    return contents;
  } finally {
    await connection.close().catch(() => undefined);
  }
}
