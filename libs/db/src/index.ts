export { createPool, ensureDatabase, migrate, withTransaction, TRANSACTION_ATTEMPTS, isReachable, type Pool, type PoolClient } from './database';
