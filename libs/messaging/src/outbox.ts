import prometheus from 'prom-client';
import { ContractViolation, type Envelope } from '@crm/contracts';
import { withTransaction, type Pool, type PoolClient } from '@crm/db';
import type { Logger } from '@crm/logging';
import { PeriodicJob } from '@crm/periodic';
import { contextOf, traceCarrier, type TraceCarrier } from '@crm/telemetry';
import { context } from '@opentelemetry/api';
import type { Publisher } from './publisher';

/**
 * A transactional outbox: messages to publish are stored in the transaction that records what
 * they announce, so the two commit together (store, then announce). The relay publishes them.
 * Each service that uses it has this table in its own migrations:
 *
 *   CREATE TABLE outbox (
 *     id          bigserial PRIMARY KEY,
 *     exchange    text NOT NULL,
 *     routing_key text NOT NULL,
 *     envelope    jsonb NOT NULL,
 *     created_at  timestamptz NOT NULL DEFAULT now(),
 *     attempts    integer NOT NULL DEFAULT 0,
 *     last_error  text,
 *     trace_context jsonb
 *   );
 *
 * `trace_context` keeps the W3C trace context of the work that stored the message, so the
 * relay publishes it in that trace (a reply's command carries the trace of the request that made it).
 */

export interface OutboxRow {
  id: string;
  exchange: string;
  routing_key: string;
  envelope: Envelope<Record<string, unknown>>;
  trace_context: TraceCarrier | null;
}

/** Stores a message to publish, in the caller's transaction (`client` is inside BEGIN). */
export async function enqueueOutbox(client: PoolClient, exchange: string, routingKey: string, envelope: Envelope): Promise<void> {
  await client.query('INSERT INTO outbox (exchange, routing_key, envelope, trace_context) VALUES ($1, $2, $3::jsonb, $4::jsonb)', [
    exchange,
    routingKey,
    JSON.stringify(envelope),
    outboxTraceContext(),
  ]);
}

/** The trace context stored with outbox rows (the current trace's), as a JSON parameter; null outside any trace. */
export function outboxTraceContext(): string | null {
  const trace = traceCarrier();
  return Object.keys(trace).length > 0 ? JSON.stringify(trace) : null;
}

/**
 * The INSERT of outbox rows selected from `source`, a relation with the columns exchange,
 * routing_key, envelope (jsonb) and n (their order, which the relay keeps); `traceParameter`
 * holds outboxTraceContext(). For a statement that stores its messages with other work in one
 * round trip (a CTE).
 */
export const insertOutboxFrom = (source: string, traceParameter: string): string =>
  `INSERT INTO outbox (exchange, routing_key, envelope, trace_context) SELECT exchange, routing_key, envelope, ${traceParameter}::jsonb FROM ${source} ORDER BY n`;

/**
 * The oldest waiting messages, locked for this transaction; rows another relay holds right now
 * are skipped, so each is in one relay's hands at a time.
 */
async function claimOutbox(client: PoolClient, limit: number): Promise<OutboxRow[]> {
  const { rows } = await client.query<OutboxRow>('SELECT id, exchange, routing_key, envelope, trace_context FROM outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED', [limit]);
  return rows;
}

async function deleteOutbox(client: PoolClient, ids: string[]): Promise<void> {
  if (ids.length > 0) await client.query('DELETE FROM outbox WHERE id = ANY ($1::bigint[])', [ids]);
}

async function noteOutboxFailure(client: PoolClient, id: string, reason: string): Promise<void> {
  await client.query('UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1', [id, reason]);
}

const BATCH = 100;

export interface OutboxRelayDeps {
  pool: Pool;
  publisher: Pick<Publisher, 'publish'>;
  logger: Logger;
  /**
   * A stored message the broker contract refuses can never go out: settle what it was for (in
   * the same transaction, which then deletes the row). Without it, the refusal is only logged.
   */
  onUnpublishable?: (client: PoolClient, row: OutboxRow, reason: string) => Promise<void>;
}

/**
 * Publishes the outbox: each message with a broker confirm, deleted only after the confirm, in
 * a transaction that holds the row (FOR UPDATE SKIP LOCKED), so replicas never relay one row
 * at the same time. A publish that fails leaves the row for the next round (at once after a
 * `kick`, and every interval). A crash between confirm and delete publishes the message again,
 * with the same message id: consumers must recognise a repeat.
 */
/** The relays of this process that have not stopped, for the outbox backlog gauge. */
const relays = new Set<OutboxRelay>();
new prometheus.Gauge({
  name: 'outbox_backlog_messages',
  help: 'Messages stored in the outbox and not yet confirmed by the broker.',
  async collect() {
    let waiting = 0;
    for (const relay of relays) waiting += await relay.backlog().catch(() => 0);
    this.set(waiting);
  },
});

export class OutboxRelay {
  /** Relays on a timer and on each `kick`, one run at a time; a kick during a run makes it go round once more. */
  private readonly runs: PeriodicJob;

  constructor(private readonly deps: OutboxRelayDeps) {
    this.runs = new PeriodicJob('outbox relay', () => this.drain(), deps.logger);
    relays.add(this);
  }

  /** Messages waiting in the outbox (read at each scrape of /metrics). */
  async backlog(): Promise<number> {
    const { rows } = await this.deps.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox');
    return rows[0]!.n;
  }

  /** Relays now, and every `intervalMs` (what a failed publish or a crash left behind). */
  start(intervalMs: number): void {
    this.runs.start(intervalMs);
  }

  /** Relays what waits (call it after a commit that enqueued); resolves when a run that began after the call ends. Never rejects. */
  kick(): Promise<void> {
    return this.runs.runNow();
  }

  /** Stops the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    relays.delete(this);
    await this.runs.stop();
  }

  private async drain(): Promise<void> {
    for (;;) {
      const more = await withTransaction(this.deps.pool, (client) => this.relayBatch(client));
      if (!more || this.runs.stopped) return;
    }
  }

  /**
   * Publishes one batch, in order: every row is sent at once on the channel (which keeps their
   * order) and their confirms awaited together, instead of a round trip each. The rows up to the
   * first one the broker did not confirm are deleted together; that one and those after it stay
   * for the next round, so a later one the broker did take goes out again after it (consumers
   * dedupe on the message id and, as across replicas, order by the event's own times). True
   * when a full batch went out (more may wait).
   */
  private async relayBatch(client: PoolClient): Promise<boolean> {
    const rows = await claimOutbox(client, BATCH);
    const sent = await Promise.allSettled(rows.map((row) => context.with(contextOf(row.trace_context), () => this.deps.publisher.publish(row.exchange, row.routing_key, row.envelope))));
    const done: string[] = [];
    try {
      for (const [i, row] of rows.entries()) {
        const outcome = sent[i]!;
        if (!(await this.settle(client, row, outcome.status === 'rejected' ? outcome.reason : null))) return false;
        done.push(row.id);
      }
      return rows.length === BATCH;
    } finally {
      await deleteOutbox(client, done);
    }
  }

  /** What one row's publish came to: true when it is settled (confirmed, or unpublishable and handed over), false when it stays for the next round. */
  private async settle(client: PoolClient, row: OutboxRow, error: unknown): Promise<boolean> {
    if (error) {
      const reason = (error as Error).message;
      if (!(error instanceof ContractViolation)) {
        this.deps.logger.warn('outbox message not confirmed by the broker; it stays for the next round', { envelopeId: row.envelope.id, reason });
        await noteOutboxFailure(client, row.id, reason);
        return false;
      }
      this.deps.logger.error('an outbox message breaks its contract and is not sent', { envelopeId: row.envelope.id, reason });
      await this.deps.onUnpublishable?.(client, row, reason);
    }
    if (this.deps.logger.isLevelEnabled('info')) this.deps.logger.info('outbox message published', { envelopeId: row.envelope.id, type: row.envelope.type, routingKey: row.routing_key });
    return true;
  }
}

/**
 * The base of a service's announcer: each announcement is enqueued in the outbox inside the
 * transaction that stores the change it announces, and the relay is kicked after the commit
 * (its own round would publish it too, later).
 */
export class OutboxAnnouncer {
  constructor(
    protected readonly pool: Pool,
    private readonly relay: Pick<OutboxRelay, 'kick'>,
  ) {}

  /** Runs `work` in one transaction; what it announced goes out after the commit. */
  async storeAndAnnounce<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const result = await withTransaction(this.pool, work);
    void this.relay.kick();
    return result;
  }
}
