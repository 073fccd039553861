import { runWithContext, type Logger } from '@crm/logging';
import type { TicketingStore } from '../adapters/db/store';
import { interpretActivity } from '../domain/activity';
import { InvalidActivity } from '../domain/errors';
import type { Interpretation } from '../domain/events';
import { recordEvents } from './recording/record-events';
import type { Counts } from './recording/recorder';

/** One round of a release: a delivery released, one that stays held for good, or nothing left. */
type Released = { envelopeId: string; kind: string; counts: Counts | null } | null;

/**
 * Processes the held deliveries of accounts that now have a configuration, oldest first,
 * each in its own transaction that also deletes it. Safe with several replicas: a delivery
 * being released elsewhere is skipped (FOR UPDATE SKIP LOCKED), and recording is idempotent.
 */
export class HeldRelease {
  private readonly releasing = new Map<string, Promise<number>>();
  /** The periodic look for releasable accounts, while one runs. */
  private sweeping: Promise<void> | null = null;
  /** Set by stop(): no release starts, and releases in progress end after their current delivery. */
  private stopping = false;

  constructor(private readonly deps: { store: TicketingStore; logger: Logger }) {}

  /**
   * Releases an account's held deliveries. Calls for an account already being released in this
   * process join that run. Resolves with the number released (none once stopping: the next
   * start releases them).
   */
  release(accountId: string): Promise<number> {
    const running = this.releasing.get(accountId);
    if (running) return running;
    if (this.stopping) return Promise.resolve(0);
    const run = this.releaseAll(accountId).finally(() => this.releasing.delete(accountId));
    this.releasing.set(accountId, run);
    return run;
  }

  private async releaseAll(accountId: string): Promise<number> {
    let released = 0;
    // Deliveries that can never be recorded (only possible after a change of the code) stay held, logged, and do not block the rest.
    const unusable: number[] = [];
    while (!this.stopping) {
      const result = await this.releaseOldest(accountId, unusable);
      if (!result) break;
      if (!result.counts) continue;
      released += 1;
      this.deps.logger.info('held activity released', { envelopeId: result.envelopeId, kind: result.kind, accountId, ...result.counts });
    }
    return released;
  }

  /** Records and deletes the account's oldest held delivery not in `unusable`, in one transaction. */
  private releaseOldest(accountId: string, unusable: number[]): Promise<Released> {
    return this.deps.store.transaction(async (tx) => {
      await tx.locks.accountShared(accountId);
      const config = await tx.partnerConfigs.load(accountId);
      const row = config ? await tx.held.claimOldest(accountId, unusable) : null;
      if (!config || !row) return null;
      return runWithContext({ correlationId: row.correlation_id }, async () => {
        let interpretation: Interpretation;
        try {
          interpretation = interpretActivity(row.payload);
        } catch (error) {
          if (!(error instanceof InvalidActivity)) throw error;
          unusable.push(row.id);
          this.deps.logger.error('a held delivery cannot be recorded; it stays held', { envelopeId: row.envelope_id, accountId, reason: `invalid ${row.payload.kind} delivery: ${error.message}` });
          return { envelopeId: row.envelope_id, kind: row.kind, counts: null };
        }
        const counts = await recordEvents(tx, interpretation.events, config, { envelopeId: row.envelope_id, receivedAt: new Date(row.payload.receivedAt) });
        await tx.held.delete(row.id);
        return { envelopeId: row.envelope_id, kind: row.kind, counts };
      });
    });
  }

  /**
   * Releases every account whose held deliveries can go now (at start, and periodically as a
   * safety net). Never rejects: a failure is logged and the next round tries again. A call
   * while a round runs joins it.
   */
  releaseReady(): Promise<void> {
    this.sweeping ??= this.sweep().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async sweep(): Promise<void> {
    try {
      for (const accountId of await this.deps.store.read.held.accountsReadyForRelease()) {
        if (this.stopping) return;
        await this.release(accountId).catch((error: unknown) =>
          this.deps.logger.error('releasing held deliveries failed; will try again', { accountId, reason: (error as Error).message }),
        );
      }
    } catch (error) {
      this.deps.logger.error('looking for held deliveries to release failed; will try again', { reason: (error as Error).message });
    }
  }

  /** Resolves once releases in progress in this process are done. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.releasing.values(), this.sweeping]);
  }

  /** Starts no more releases and resolves once those in progress have stopped (before the pool closes). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.idle();
  }
}
