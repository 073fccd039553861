import { ACCOUNT_REVOKED_KEY, AccountRevoked, Exchanges, type Envelope, type RawActivityPayload } from '@crm/contracts';
import { withTransaction, type Pool } from '@crm/db';
import { runWithContext, type Logger } from '@crm/logging';
import { makeEnvelope, PermanentFailure, type MessageContext, type MessageHandler, type Publisher } from '@crm/messaging';
import { interpretActivity } from '../domain/activity';
import { InvalidActivity } from '../domain/errors';
import type { Interpretation } from '../domain/events';
import type { PartnerConfig } from '../domain/partner-config';
import { accountsReadyForRelease, claimOldestHeld, deleteHeld, holdDelivery } from '../adapters/db/held-deliveries';
import { lockAccountShared } from '../adapters/db/locks';
import { loadPartnerConfig } from '../adapters/db/partner-configs';
import { emptyCounts, recordEvents, type Counts, type Recorded } from './record-events';

export interface ActivityPipelineDeps {
  pool: Pool;
  logger: Logger;
  /** Publishes on `account.events` (confirmed); used for `account.revoked`. */
  publisher: Pick<Publisher, 'publish'>;
  /** Where the exchange of account events is (tests rename it). */
  accountEventsExchange?: string;
}

function interpret(payload: RawActivityPayload): Interpretation {
  try {
    return interpretActivity(payload);
  } catch (error) {
    if (error instanceof InvalidActivity) throw new PermanentFailure(`invalid ${payload.kind} delivery: ${error.message}`);
    throw error;
  }
}

/** A revoke needs no configuration; everything else is recorded per the account's partner configuration. */
const needsConfiguration = (interpretation: Interpretation) => interpretation.events.some((event) => event.kind !== 'subscription_revoked');

/**
 * Raw activity -> domain events -> tickets, activities, contacts, in one transaction per
 * delivery. Deliveries for an account without a partner configuration are held (stored, then
 * acked) and released, in arrival order, once it has one. Nothing is dropped.
 */
export class ActivityPipeline {
  private readonly releasing = new Map<string, Promise<number>>();
  /** The periodic look for releasable accounts, while one runs. */
  private sweeping: Promise<void> | null = null;
  /** Set by stop(): no release starts, and releases in progress end after their current delivery. */
  private stopping = false;

  constructor(private readonly deps: ActivityPipelineDeps) {}

  /** The consumer of `ticketing.activity`. */
  handler(): MessageHandler<RawActivityPayload> {
    return async (envelope: Envelope<RawActivityPayload>, context: MessageContext) => {
      const interpretation = interpret(envelope.payload);
      const { accountId, events, ignored } = interpretation;
      let counts: Counts = emptyCounts();
      let held = false;
      if (events.length > 0) {
        const result = await withTransaction(this.deps.pool, async (client) => {
          if (!needsConfiguration(interpretation)) return recordEvents(client, events, null, envelope.id);
          await lockAccountShared(client, accountId);
          const config = await loadPartnerConfig(client, accountId);
          if (!config) {
            await holdDelivery(client, envelope, accountId, events.length);
            return null;
          }
          return recordEvents(client, events, config, envelope.id);
        });
        held = result === null;
        if (result) {
          counts = result.counts;
          await this.publishRevocations(result);
        }
      }
      counts.ignored += ignored.length;
      for (const reason of ignored) this.deps.logger.debug('activity ignored', { envelopeId: envelope.id, reason: reason.reason });
      this.deps.logger.info('activity handled', { envelopeId: envelope.id, kind: envelope.payload.kind, accountId, attempt: context.attempt, held, ...counts });
    };
  }

  /**
   * Publishes `account.revoked` after the commit, with a message id derived from the revoke:
   * a redelivery (the publish failed, or the process died before the ack) publishes the same
   * message again, which consumers recognise.
   */
  private async publishRevocations(recorded: Recorded): Promise<void> {
    for (const revoke of recorded.revocations) {
      const envelope = makeEnvelope(
        AccountRevoked,
        'ticketing',
        { accountId: revoke.accountId, appId: revoke.appId, revokedAt: revoke.occurredAt, detectedBy: 'webhook' },
        { id: `account.revoked:${revoke.platformEventId}` },
      );
      await this.deps.publisher.publish(this.deps.accountEventsExchange ?? Exchanges.accountEvents, ACCOUNT_REVOKED_KEY, envelope);
    }
  }

  /**
   * Processes the held deliveries of an account that now has a configuration, oldest first,
   * each in its own transaction that also deletes it. Safe with several replicas: a delivery
   * being released elsewhere is skipped, and recording is idempotent. Calls for an account
   * already being released in this process join that run. Resolves with the number released
   * (none once the pipeline is stopping: the next start releases them).
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
      const result = await withTransaction(this.deps.pool, async (client) => {
        await lockAccountShared(client, accountId);
        const config: PartnerConfig | null = await loadPartnerConfig(client, accountId);
        const row = config ? await claimOldestHeld(client, accountId, unusable) : null;
        if (!config || !row) return null;
        return runWithContext({ correlationId: row.correlation_id }, async () => {
          let interpretation: Interpretation;
          try {
            interpretation = interpret(row.payload);
          } catch (error) {
            if (!(error instanceof PermanentFailure)) throw error;
            unusable.push(row.id);
            this.deps.logger.error('a held delivery cannot be recorded; it stays held', { envelopeId: row.envelope_id, accountId, reason: error.message });
            return { recorded: null, envelopeId: row.envelope_id, kind: row.kind };
          }
          const recorded = await recordEvents(client, interpretation.events, config, row.envelope_id);
          await deleteHeld(client, row.id);
          return { recorded, envelopeId: row.envelope_id, kind: row.kind };
        });
      });
      if (!result) break;
      if (!result.recorded) continue;
      released += 1;
      // A revoke is never held (it needs no configuration), so a release has nothing to publish.
      this.deps.logger.info('held activity released', { envelopeId: result.envelopeId, kind: result.kind, accountId, ...result.recorded.counts });
    }
    return released;
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
      for (const accountId of await accountsReadyForRelease(this.deps.pool)) {
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
