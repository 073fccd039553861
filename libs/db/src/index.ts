export { createPool, ensureDatabase, migrate, withTransaction, isReachable, type Pool, type PoolClient, type QueryResultRow } from './database';
