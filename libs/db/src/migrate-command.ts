/**
 * Applies a service's migrations, then exits: what a deployment's migration Job runs
 * (`node dist/migrate.js`, bundled from migrate-main.ts), as the role that owns the database,
 * so the service itself can run as a role with row rights only.
 */
import { registerSecret, type Logger } from '@crm/logging';
import { migrate } from './database';
import { databaseServers } from './hosts';

/** The settings problem that stops the command before it connects (exit code 78, as a service's bad config). */
export class MigrationSettingsError extends Error {}

export interface MigrationSettings {
  url: string;
  dir: string;
}

/** DATABASE_MIGRATION_URL (required) and MIGRATIONS_DIR (default: migrations/ beside the bundle's folder). */
export function migrationSettings(env: NodeJS.ProcessEnv, defaultDir: string): MigrationSettings {
  const url = env.DATABASE_MIGRATION_URL;
  if (!url) throw new MigrationSettingsError('DATABASE_MIGRATION_URL is not set: the URL of the role that owns the database');
  try {
    const { servers, urlFor } = databaseServers(url);
    new URL(urlFor(servers[0]!));
  } catch {
    throw new MigrationSettingsError('DATABASE_MIGRATION_URL is not a URL (postgres://user:password@host:5432/database)');
  }
  return { url, dir: env.MIGRATIONS_DIR ?? defaultDir };
}

/** Runs the migrations the settings name; returns the exit code (0 applied or nothing to do, 78 bad settings, 1 failed). */
export async function runMigrationCommand(env: NodeJS.ProcessEnv, defaultDir: string, logger: Logger): Promise<number> {
  let settings: MigrationSettings;
  try {
    settings = migrationSettings(env, defaultDir);
  } catch (error) {
    logger.error((error as Error).message);
    return 78;
  }
  const { servers, urlFor } = databaseServers(settings.url);
  const password = decodeURIComponent(new URL(urlFor(servers[0]!)).password);
  if (password) registerSecret(password);
  try {
    const applied = await migrate(settings.url, settings.dir, logger);
    logger.info('migrations done', { applied: applied.length, dir: settings.dir });
    return 0;
  } catch (error) {
    logger.error('migrations failed', { error: (error as Error).message });
    return 1;
  }
}

