import { dropMigratedTemplates, TEMPLATE_PREFIX, testClient } from './helpers';
import { databaseServerUrl, deleteVirtualHosts, rabbitmqctl, virtualHostCreatedAt } from './environment';

/**
 * How old a test's database or virtual host must be before a later run may remove it. Runs on
 * one machine overlap, and a database of a running test can be without connections for a while
 * (its pools' idle connections close): nothing younger than this is touched, used or not.
 */
const LEFTOVER_AGE_MS = 30 * 60_000;
/** A run's migrated templates take no connections (nothing shows one in use): only those older than any run are removed. */
const LEFTOVER_TEMPLATE_AGE_MS = 6 * 60 * 60_000;

async function lines(args: string[]): Promise<string[]> {
  const { stdout } = await rabbitmqctl(['-q', ...args, '--no-table-headers']);
  return stdout.split('\n').map((line) => line.trim()).filter(Boolean);
}

/** Deletes the test virtual hosts (those `only` accepts) made before the cut-off that no connection uses; the number deleted. */
export async function sweepVirtualHosts(cutoff: number, only: (name: string) => boolean = () => true): Promise<number> {
  const old = (await lines(['list_vhosts', 'name'])).filter((name) => only(name) && (virtualHostCreatedAt(name) ?? cutoff) < cutoff);
  if (old.length === 0) return 0;
  const used = new Set(await lines(['list_connections', 'vhost']));
  const unused = old.filter((candidate) => !used.has(candidate));
  await deleteVirtualHosts(unused);
  return unused.length;
}

/**
 * Drops the test databases (`test_…`, those `only` matches too) made before the cut-off (the age of their directory's
 * PG_VERSION: reading it needs a superuser, as the tests' server gives; without, nothing is
 * dropped) that no session uses. DROP without FORCE: one connected meanwhile keeps it.
 */
export async function sweepDatabases(cutoff: number, only = '^test_'): Promise<number> {
  const admin = new URL(databaseServerUrl());
  admin.pathname = '/postgres';
  const client = testClient(admin.toString());
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT d.datname AS name FROM pg_database d
        WHERE d.datname ~ '^test_[a-z0-9_]+$' AND d.datname ~ $2 AND NOT d.datistemplate
          AND (pg_stat_file('base/' || d.oid || '/PG_VERSION', true)).modification < to_timestamp($1 / 1000.0)
          AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datid = d.oid)`,
      [cutoff, only],
    );
    let dropped = 0;
    for (const { name } of rows) {
      const done = await client.query(`DROP DATABASE "${name}"`).then(() => true, () => false);
      if (done) dropped += 1;
    }
    return dropped;
  } finally {
    await client.end();
  }
}

/**
 * A run cut off (Ctrl-C, a crash, a timeout) leaves its virtual hosts and databases behind; the
 * next run removes those older than LEFTOVER_AGE_MS that nothing uses. Never `/`, `crm` or a
 * database not named as tests name theirs. A failure is told and the run goes on.
 */
export async function sweepLeftovers(now = Date.now()): Promise<void> {
  const cutoff = now - LEFTOVER_AGE_MS;
  const sweep = async (what: string, work: () => Promise<number>) => {
    try {
      const removed = await work();
      if (removed > 0) process.stderr.write(`removed ${removed} test ${what} left behind by earlier runs\n`);
    } catch (error) {
      process.stderr.write(`could not look for test ${what} left behind: ${(error as Error).message.split('\n')[0]}\n`);
    }
  };
  await Promise.all([
    sweep('virtual hosts', () => sweepVirtualHosts(cutoff)),
    sweep('databases', () => sweepDatabases(cutoff)),
    sweep('template databases', () => sweepTemplates(now - LEFTOVER_TEMPLATE_AGE_MS)),
  ]);
}

/** Drops the migrated templates (each run's own) made before the cut-off; the number dropped. */
export async function sweepTemplates(cutoff: number): Promise<number> {
  const admin = new URL(databaseServerUrl());
  admin.pathname = '/postgres';
  const client = testClient(admin.toString());
  await client.connect();
  let names: string[];
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT datname AS name FROM pg_database
        WHERE starts_with(datname, $1) AND datistemplate AND (pg_stat_file('base/' || oid || '/PG_VERSION', true)).modification < to_timestamp($2 / 1000.0)`,
      [TEMPLATE_PREFIX, cutoff],
    );
    names = rows.map((row) => row.name);
  } finally {
    await client.end();
  }
  return names.length > 0 ? dropMigratedTemplates(names) : 0;
}
