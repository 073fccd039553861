/**
 * The split the manifests make: the migration Job runs `dist/migrate.js` as the migrator role,
 * the Deployment runs the service as the app role, which still migrates at start. Checked on
 * real roles as `pnpm provision` makes them, with ticketing's migrations.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { migrate, runMigrationCommand } from '@crm/db';
import { dropDatabaseRoles, type DatabaseRoles } from '@crm/provision';
import { provisionDatabase, roleUrl } from '@crm/provision/src/database';
import { databaseServerUrl, testLogger } from '@crm/testing';

const MIGRATIONS = path.join(__dirname, '..', '..', '..', 'services', 'ticketing', 'migrations');

function rolesFor(label: string): DatabaseRoles {
  const suffix = `${label}_${randomBytes(4).toString('hex')}`;
  return {
    database: `test_k8s_${suffix}`,
    migrator: { name: `test_k8s_${suffix}_migrator`, password: randomBytes(12).toString('hex') },
    app: { name: `test_k8s_${suffix}_app`, password: randomBytes(12).toString('hex') },
  };
}

const provisioned: DatabaseRoles[] = [];
async function provisionFresh(label: string) {
  const roles = rolesFor(label);
  provisioned.push(roles);
  await provisionDatabase(databaseServerUrl(), roles);
  return { migratorUrl: roleUrl(databaseServerUrl(), roles.migrator, roles.database), appUrl: roleUrl(databaseServerUrl(), roles.app, roles.database) };
}

afterAll(async () => {
  for (const roles of provisioned) await dropDatabaseRoles(databaseServerUrl(), roles);
});

it("after the Job migrated as the migrator, the service's start-up migration as the app role finds nothing to do", async () => {
  const { migratorUrl, appUrl } = await provisionFresh('job');
  expect(await runMigrationCommand({ DATABASE_MIGRATION_URL: migratorUrl, MIGRATIONS_DIR: MIGRATIONS }, MIGRATIONS, testLogger())).toBe(0);
  await expect(migrate(appUrl, MIGRATIONS)).resolves.toEqual([]);
});

it('before the Job has run, the app role cannot migrate: the service stops and its pod restarts until the Job is done', async () => {
  const { appUrl } = await provisionFresh('nojob');
  await expect(migrate(appUrl, MIGRATIONS)).rejects.toThrow(/permission denied/);
});
