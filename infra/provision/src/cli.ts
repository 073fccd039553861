/**
 * `pnpm provision`: the broker users and database roles of every service, with the least
 * rights each needs (docs/architecture.md, "Credentials"). Idempotent. Settings (env):
 *   AMQP_ADMIN_URL      an admin on the vhost to provision (default: guest on the local broker, vhost `crm`)
 *   DATABASE_ADMIN_URL  a PostgreSQL superuser (default: postgres on the local server)
 *   BROKER_USER_PREFIX, DATABASE_ROLE_PREFIX  name prefixes (default `crm_`)
 *   DATABASE_NAME_PREFIX  prefix of the services' database names (default none: auth, ticketing, tracking)
 *   CREDENTIALS_FILE    where every service's URLs and the passwords are kept (default .local/credentials.json,
 *                       git-ignored; the local stack reads it). Passwords in it are reused; missing ones generated.
 * Runs rabbitmqctl (RABBITMQCTL overrides the command, e.g. `docker compose exec -T rabbitmq rabbitmqctl`).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DATABASE_SERVICES, provision, type ProvisionOptions, type Provisioned } from './provision';

export const DEFAULT_CREDENTIALS_FILE = join(__dirname, '..', '..', '..', '.local', 'credentials.json');

async function readKept(file: string): Promise<Provisioned | undefined> {
  return existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as Provisioned) : undefined;
}

/** The settings of a provisioning run, from the env (see above). */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): ProvisionOptions {
  return {
    amqpAdminUrl: env.AMQP_ADMIN_URL ?? 'amqp://guest:guest@127.0.0.1:5672/crm',
    databaseAdminUrl: env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    brokerUserPrefix: env.BROKER_USER_PREFIX ?? 'crm_',
    rolePrefix: env.DATABASE_ROLE_PREFIX ?? 'crm_',
    databases: env.DATABASE_NAME_PREFIX ? Object.fromEntries(DATABASE_SERVICES.map((service) => [service, `${env.DATABASE_NAME_PREFIX}${service}`])) : undefined,
  };
}

/** Provisions with the passwords kept in `file` (missing ones generated), and keeps the result there (mode 0600). */
export async function provisionKept(options: ProvisionOptions, file = process.env.CREDENTIALS_FILE ?? DEFAULT_CREDENTIALS_FILE): Promise<Provisioned> {
  const kept = await readKept(file);
  const provisioned = await provision({ ...options, passwords: { ...kept?.passwords, ...options.passwords } });
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(provisioned, null, 2)}\n`, { mode: 0o600 });
  return provisioned;
}

async function main(): Promise<void> {
  const provisioned = await provisionKept({ ...optionsFromEnv(), onStep: (done) => process.stderr.write(`provision: ${done}\n`) });
  for (const [service, credentials] of Object.entries(provisioned.services)) {
    const roles = credentials.DATABASE_URL ? `, database roles ${new URL(credentials.DATABASE_URL).username} and ${new URL(credentials.DATABASE_MIGRATION_URL ?? '').username}` : '';
    process.stdout.write(`${service}: broker user ${credentials.BROKER_USER}${roles}\n`);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`provisioning failed: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
