export { createPool, ensureDatabase, migrate, withTransaction, TRANSACTION_ATTEMPTS, isReachable, type Pool, type PoolClient, type QueryResultRow } from './database';
