import { ContractViolation } from '@crm/contracts';
import { withTransaction, type Pool, type PoolClient } from '@crm/db';
import type { Logger } from '@crm/logging';
import type { Publisher } from '@crm/messaging';
import { claimOutbox, deleteOutbox, noteOutboxFailure, type OutboxRow } from '../db/outbox';

const BATCH = 20;

export interface OutboxRelayDeps {
  pool: Pool;
  publisher: Pick<Publisher, 'publish'>;
  logger: Logger;
  /** A stored message the broker contract refuses can never go out: settle what it was for (in the same transaction). */
  onUnpublishable: (client: PoolClient, row: OutboxRow, reason: string) => Promise<void>;
}

/**
 * Publishes the outbox: each message with a broker confirm, deleted only after the confirm, in
 * a transaction that holds the row (FOR UPDATE SKIP LOCKED), so replicas never relay one row
 * at the same time. A publish that fails leaves the row for the next round (at once after a
 * new write, and every interval). A crash between confirm and delete publishes the message
 * again, with the same message id and command id: auth executes a command id at most once.
 */
export class OutboxRelay {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: OutboxRelayDeps) {}

  /** Relays now, and every `intervalMs` (what a failed publish or a crash left behind). */
  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.kick(), intervalMs);
    this.timer.unref();
    void this.kick();
  }

  /** Relays what waits; a call during a run makes the run go round once more. Never rejects. */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = this.drain()
      .catch((error: unknown) => {
        this.deps.logger.warn('outbox relay failed; it tries again', { reason: (error as Error).message });
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          void this.kick();
        }
      });
    this.running = run;
    return run;
  }

  /** Stops the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private async drain(): Promise<void> {
    for (;;) {
      const { more } = await withTransaction(this.deps.pool, async (client) => {
        const rows = await claimOutbox(client, BATCH);
        for (const row of rows) {
          try {
            await this.deps.publisher.publish(row.exchange, row.routing_key, row.envelope);
          } catch (error) {
            const reason = (error as Error).message;
            if (error instanceof ContractViolation) {
              this.deps.logger.error('an outbox message breaks its contract and is not sent', { envelopeId: row.envelope.id, reason });
              await this.deps.onUnpublishable(client, row, reason);
              await deleteOutbox(client, row.id);
              continue;
            }
            this.deps.logger.warn('outbox message not confirmed by the broker; it stays for the next round', { envelopeId: row.envelope.id, reason });
            await noteOutboxFailure(client, row.id, reason);
            return { more: false };
          }
          await deleteOutbox(client, row.id);
          this.deps.logger.info('outbox message published', { envelopeId: row.envelope.id, type: row.envelope.type, routingKey: row.routing_key });
        }
        return { more: rows.length === BATCH };
      });
      if (!more || this.stopped) return;
    }
  }
}
