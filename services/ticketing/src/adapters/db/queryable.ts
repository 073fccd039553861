import type { PoolClient } from '@crm/db';

/** What a repository runs its SQL on: the transaction's client, or the pool for reads. */
export type Queryable = Pick<PoolClient, 'query'>;
