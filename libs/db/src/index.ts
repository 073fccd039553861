export { createPool, ensureDatabase, migrate, withTransaction, PREPARED_PER_CONNECTION, TRANSACTION_ATTEMPTS, isReachable, type SessionTimeouts, type PoolOptions, type Pool, type PoolClient } from './database';
export { runMigrationCommand, migrationSettings, MigrationSettingsError, type MigrationSettings } from './migrate-command';
export { databaseServers, findServer, resolveDatabaseUrl, isMultiHost, type DatabaseServers, type ServerAddress } from './hosts';
