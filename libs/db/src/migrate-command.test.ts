import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { capturingLogger, freshDatabase, type TestDatabase, testClient } from '@crm/testing';
import { migrationSettings, runMigrationCommand } from './migrate-command';

let db: TestDatabase;
let dir: string;

beforeAll(async () => {
  db = await freshDatabase('db_migrate_command');
  dir = mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  writeFileSync(path.join(dir, '1700000000000_notes.sql'), 'CREATE TABLE notes (id int PRIMARY KEY);\n');
});

afterAll(async () => {
  await db.drop();
});

it('applies the migrations once and exits 0, then finds nothing to do', async () => {
  const { logger } = capturingLogger();
  expect(await runMigrationCommand({ DATABASE_MIGRATION_URL: db.url, MIGRATIONS_DIR: dir }, '/nowhere', logger)).toBe(0);
  expect(await runMigrationCommand({ DATABASE_MIGRATION_URL: db.url, MIGRATIONS_DIR: dir }, '/nowhere', logger)).toBe(0);

  const client = testClient(db.url);
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>('SELECT name FROM schema_migrations');
    expect(rows.map((row) => row.name)).toEqual(['1700000000000_notes']);
    expect((await client.query("SELECT to_regclass('notes') AS found")).rows[0].found).toBe('notes');
  } finally {
    await client.end();
  }
});

it('stops with exit code 78 and the variable named when DATABASE_MIGRATION_URL is missing or not a URL', async () => {
  const { logger, lines } = capturingLogger();
  expect(await runMigrationCommand({}, dir, logger)).toBe(78);
  expect(await runMigrationCommand({ DATABASE_MIGRATION_URL: 'not a url' }, dir, logger)).toBe(78);
  expect(lines.map((line) => (JSON.parse(line) as { message: string }).message)).toEqual([expect.stringContaining('DATABASE_MIGRATION_URL is not set'), expect.stringContaining('DATABASE_MIGRATION_URL is not a URL')]);
});

it('exits 1 when the database refuses the migrations, without logging the password', async () => {
  const url = new URL(db.url);
  url.username = 'no_such_role';
  url.password = 'secret-password-123';
  const { logger, lines } = capturingLogger();
  expect(await runMigrationCommand({ DATABASE_MIGRATION_URL: url.toString(), MIGRATIONS_DIR: dir }, dir, logger)).toBe(1);
  expect(JSON.stringify(lines)).not.toContain('secret-password-123');
});

it('reads the migrations beside the bundle unless MIGRATIONS_DIR says otherwise', () => {
  expect(migrationSettings({ DATABASE_MIGRATION_URL: db.url }, '/app/migrations').dir).toBe('/app/migrations');
  expect(migrationSettings({ DATABASE_MIGRATION_URL: db.url, MIGRATIONS_DIR: dir }, '/app/migrations').dir).toBe(dir);
});
