import type { Envelope } from '@crm/contracts';
import type { PoolClient } from '@crm/db';

/**
 * Messages to publish, stored in the transaction that records what they announce, so the
 * two commit together (a transactional outbox). The relay publishes and deletes them.
 */

export interface OutboxRow {
  id: string;
  exchange: string;
  routing_key: string;
  envelope: Envelope<Record<string, unknown>>;
}

export async function enqueue(client: PoolClient, exchange: string, routingKey: string, envelope: Envelope): Promise<void> {
  await client.query('INSERT INTO outbox (exchange, routing_key, envelope) VALUES ($1, $2, $3::jsonb)', [exchange, routingKey, JSON.stringify(envelope)]);
}

/**
 * The oldest waiting messages, locked for this transaction; rows another replica is relaying
 * right now are skipped, so each is in one relay's hands at a time.
 */
export async function claimOutbox(client: PoolClient, limit: number): Promise<OutboxRow[]> {
  const { rows } = await client.query<OutboxRow>(
    `SELECT id, exchange, routing_key, envelope FROM outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  return rows;
}

export async function deleteOutbox(client: PoolClient, id: string): Promise<void> {
  await client.query('DELETE FROM outbox WHERE id = $1', [id]);
}

export async function noteOutboxFailure(client: PoolClient, id: string, reason: string): Promise<void> {
  await client.query('UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1', [id, reason]);
}
