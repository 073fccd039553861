import pg from 'pg';
import { runner } from 'node-pg-migrate';
import prometheus from 'prom-client';
import type { Logger } from '@crm/logging';
import { databaseServers, findServer, isMultiHost, resolveDatabaseUrl } from './hosts';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

// bigint counts come back as strings by default; ours fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Server-side limits set on every connection of a pool (milliseconds; unset or 0: the server's default). */
export interface SessionTimeouts {
  /** How long one statement may wait for a lock (row, advisory) before it fails with 55P03. */
  lockTimeoutMs?: number;
  /** How long one statement may run before it is cancelled (57014). */
  statementTimeoutMs?: number;
  /** How long a transaction may sit idle between statements before the server ends the session (25P03). */
  idleInTransactionTimeoutMs?: number;
}

/** The pools of this process, read at each scrape of /metrics. */
const pools = new Map<pg.Pool, string>();
new prometheus.Gauge({
  name: 'db_pool_connections',
  help: 'Connections of a database pool, by pool (its application name) and state: total, idle, or requests waiting for one.',
  labelNames: ['pool', 'state'] as const,
  collect() {
    this.reset();
    for (const [pool, name] of pools) {
      // An ended pool is forgotten (pg-pool marks it `ending`).
      if ((pool as pg.Pool & { ending?: boolean }).ending) {
        pools.delete(pool);
        continue;
      }
      this.set({ pool: name, state: 'total' }, pool.totalCount);
      this.set({ pool: name, state: 'idle' }, pool.idleCount);
      this.set({ pool: name, state: 'waiting' }, pool.waitingCount);
    }
  },
});

/** Distinct statements one connection keeps prepared; past them, statements are parsed each time as before. */
export const PREPARED_PER_CONNECTION = 200;

/**
 * A connection that prepares each parameterised statement once (a named statement per text),
 * so PostgreSQL parses and plans it at its first use on the connection rather than at every
 * execution, as pgJDBC does by default; with several-line CTEs that is a third of the server's
 * CPU per recorded delivery. A statement without parameters, or given as a config, goes as it
 * would. Hand-written because node-postgres prepares only statements given a name; a few
 * lines around its `query`. The count is bounded, so SQL built from varying text cannot make a
 * session hold ever more statements.
 */
class PreparingClient extends pg.Client {
  private readonly names = new Map<string, string>();

  override query(...args: unknown[]): never {
    const [text, values, callback] = args;
    const name = typeof text === 'string' && Array.isArray(values) && callback === undefined ? this.nameOf(text) : undefined;
    const query = super.query as (...given: unknown[]) => never;
    return name ? query.call(this, { name, text, values }) : query.apply(this, args);
  }

  private nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known || this.names.size >= PREPARED_PER_CONNECTION) return known;
    const name = `s${this.names.size + 1}`;
    this.names.set(text, name);
    return name;
  }
}

type ConnectCallback = (error: Error | null, client?: pg.Client) => void;

/**
 * The pool's client class for a URL naming several servers: each new connection first finds
 * the server to use (the primary, with target_session_attrs=read-write; hosts.ts), so after a
 * failover new connections go to the promoted standby. It costs one short probe connection
 * per pooled connection opened, none per query.
 */
function serverFindingClient(url: string): typeof PreparingClient {
  return class ServerFindingClient extends PreparingClient {
    override connect(): Promise<pg.Client>;
    override connect(callback: ConnectCallback): void;
    override connect(callback?: ConnectCallback): Promise<pg.Client> | void {
      const connecting = findServer(url).then(async (server) => {
        this.host = server.host;
        this.port = server.port;
        await super.connect();
        return this as pg.Client;
      });
      if (!callback) return connecting;
      connecting.then((client) => callback(null, client), (error: Error) => callback(error));
    }
  };
}

export interface PoolOptions extends SessionTimeouts {
  max?: number;
  applicationName?: string;
  /** Told when the server ends an idle connection (a restart, a failover, an administrator); the pool opens another. */
  onIdleError?: (error: Error) => void;
}

export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const multiHost = isMultiHost(url);
  const { servers, urlFor } = multiHost ? databaseServers(url) : { servers: [], urlFor: () => url };
  const pool = new pg.Pool({
    Client: multiHost ? serverFindingClient(url) : PreparingClient,
    // One of the servers, for the user, database and options: the host is chosen at each connect.
    connectionString: servers[0] ? urlFor(servers[0]) : url,
    max: options.max ?? 10,
    application_name: options.applicationName,
    // Sent as start-up parameters: they hold for every statement of every connection, with no extra round trip.
    ...(options.lockTimeoutMs ? { lock_timeout: options.lockTimeoutMs } : {}),
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    ...(options.idleInTransactionTimeoutMs ? { idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs } : {}),
  });
  // node-postgres emits an idle connection's error on the pool, and an 'error' event nobody hears
  // throws: without this listener a connection the server ends would end the process.
  pool.on('error', (error) => options.onIdleError?.(error));
  pools.set(pool, options.applicationName ?? 'pool');
  return pool;
}

/** Creates the database named in `url` when it does not exist yet (for local stacks and tests). */
export async function ensureDatabase(url: string): Promise<void> {
  const { servers, urlFor } = databaseServers(url);
  const name = decodeURIComponent(new URL(urlFor(servers[0]!)).pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`refusing to create database with unusual name '${name}'`);
  // The server is found through the database `postgres`: the one named may not exist yet.
  const admin = new URL(urlFor(servers[0]!));
  admin.pathname = '/postgres';
  const server = isMultiHost(url) ? await findServer(url.replace(/^(postgres(?:ql)?:\/\/[^/?#]*)\/[^?#]*/, '$1/postgres')) : servers[0]!;
  admin.host = `${server.host}:${server.port}`;
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE "${name}"`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created meanwhile by another process
      });
    }
  } finally {
    await client.end();
  }
}

/**
 * Applies the service's versioned migrations (SQL files in `dir`, in name order) under an
 * advisory lock, so replicas starting together migrate once.
 */
export async function migrate(url: string, dir: string, logger?: Logger): Promise<string[]> {
  const applied = await runner({
    databaseUrl: await resolveDatabaseUrl(url),
    dir,
    direction: 'up',
    migrationsTable: 'schema_migrations',
    count: Infinity,
    checkOrder: true,
    singleTransaction: true,
    log: (message) => logger?.debug(message),
    verbose: false,
  });
  if (applied.length) logger?.info('database migrated', { applied: applied.map((m) => m.name) });
  return applied.map((m) => m.name);
}

/** PostgreSQL broke a deadlock (40P01) or a serialization conflict (40001): the transaction may simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);

/** Attempts in all of a transaction PostgreSQL keeps breaking (the first one included). */
export const TRANSACTION_ATTEMPTS = 3;

const isRetryable = (error: unknown) => RETRYABLE.has((error as { code?: string } | null)?.code ?? '');

/** A short random pause, growing per attempt, so the transactions that collided do not collide again in step. */
const backoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * 2 ** (attempt - 1)));

/**
 * Heard while a connection is checked out: the pool stops listening for its errors then, and a
 * connection the server ends between two statements (57P01: a failover, an administrator) would
 * otherwise throw out of the process. The next statement fails with it instead.
 */
const endedWhileCheckedOut = () => undefined;

async function runOnce<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  client.on('error', endedWhileCheckedOut);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.removeListener('error', endedWhileCheckedOut);
    client.release();
  }
}

/**
 * Runs `work` in one transaction: committed if it resolves, rolled back if it throws. When
 * PostgreSQL aborts it for a deadlock or a serialization failure, it runs again from the
 * start (up to TRANSACTION_ATTEMPTS in all), so `work` must do nothing outside the
 * transaction that cannot be repeated: everything it did inside was rolled back.
 */
export async function withTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await runOnce(pool, work);
    } catch (error) {
      if (attempt >= TRANSACTION_ATTEMPTS || !isRetryable(error)) throw error;
      await backoff(attempt);
    }
  }
}

/** True when the database answers. */
export async function isReachable(pool: pg.Pool): Promise<boolean> {
  try {
    await pool.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
