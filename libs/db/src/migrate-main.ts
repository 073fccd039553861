/**
 * Entry point of `dist/migrate.js`: infra/scripts/bundle.mjs bundles it beside each service
 * that has a migrations/ folder, and that folder ships beside dist/, where this looks for it.
 */
import path from 'node:path';
import { createLogger } from '@crm/logging';
import { runMigrationCommand } from './migrate-command';

const logger = createLogger(process.env.SERVICE_NAME ?? 'migrate');
void runMigrationCommand(process.env, path.join(__dirname, '..', 'migrations'), logger).then((code) => {
  process.exitCode = code;
});
