import pg from 'pg';
import { runner } from 'node-pg-migrate';
import type { Logger } from '@crm/logging';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type QueryResultRow = pg.QueryResultRow;

// bigint counts come back as strings by default; ours fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function createPool(url: string, options: { max?: number; applicationName?: string } = {}): pg.Pool {
  return new pg.Pool({ connectionString: url, max: options.max ?? 10, application_name: options.applicationName });
}

/** Creates the database named in `url` when it does not exist yet (for local stacks and tests). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`refusing to create database with unusual name '${name}'`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
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
    databaseUrl: url,
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

/** Runs `work` in one transaction: committed if it resolves, rolled back if it throws. */
export async function withTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
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
