import { AccountDelivering, AccountSilent, Exchanges, SilenceEventKeys, type AccountDeliveringPayload, type AccountSilentPayload } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import { makeEnvelope } from '@crm/messaging';
import { accountSilencesRaised } from '../adapters/metrics';
import type { TicketingStore, TicketingTx } from '../adapters/db/store';
import { decideSilences, type SilenceDecision, type SilenceSettings } from '../domain/silence';

export interface SilenceWatchDeps {
  store: TicketingStore;
  logger: Logger;
  /** The time the check runs at (tests move it). */
  clock: () => Date;
  /** Publishes what the check put in the outbox. */
  relay: { kick: () => Promise<void> };
  settings: SilenceSettings;
}

/** What one check did; `skipped` when another replica was checking. */
export interface SilenceCheckOutcome {
  skipped: boolean;
  silent: string[];
  delivering: string[];
}

const minutes = (ms: number) => Math.round(ms / 60_000);
const hours = (ms: number) => Math.round(ms / 3_600_000);

/**
 * The silence alarm: reads each connected account's deliveries from the raw log (never the
 * recording path), decides which accounts went silent or deliver again, and records it with
 * its announcements in one transaction: the state in `account_silences`, `account.silent` /
 * `account.delivering` on `account.events` and the CRM's event in the outbox, each exactly
 * once per silence. One check at a time across replicas (an advisory lock, tried without waiting).
 */
export class SilenceWatch {
  constructor(private readonly deps: SilenceWatchDeps) {}

  async check(): Promise<SilenceCheckOutcome> {
    const now = this.deps.clock();
    const { settings } = this.deps;
    const outcome = await this.deps.store.transaction(async (tx): Promise<SilenceCheckOutcome> => {
      if (!(await tx.silences.tryLockCheck())) return { skipped: true, silent: [], delivering: [] };
      const traffic = await tx.silences.traffic(settings.minDeliveries, new Date(now.getTime() - settings.silentAfterMs));
      const done: SilenceCheckOutcome = { skipped: false, silent: [], delivering: [] };
      for (const decision of decideSilences(traffic, now, settings)) {
        if (await this.record(tx, decision, now)) done[decision.kind].push(decision.accountId);
      }
      return done;
    });
    accountSilencesRaised.inc(outcome.silent.length);
    if (outcome.silent.length + outcome.delivering.length > 0) {
      this.deps.logger.warn('account silences changed', { silent: outcome.silent, delivering: outcome.delivering });
      void this.deps.relay.kick();
    }
    return outcome;
  }

  /** The state and its announcements; false when the state had changed already. */
  private async record(tx: TicketingTx, decision: SilenceDecision, now: Date): Promise<boolean> {
    const { settings } = this.deps;
    const detectedAt = now.toISOString();
    if (decision.kind === 'silent') {
      if (!(await tx.silences.open({ accountId: decision.accountId, silentSince: decision.silentSince, lastSeq: decision.lastSeq, detectedAt: now }))) return false;
      const silentSince = decision.silentSince.toISOString();
      const payload: AccountSilentPayload = {
        accountId: decision.accountId,
        silentSince,
        detectedAt,
        silentAfterMinutes: minutes(settings.silentAfterMs),
        usualDeliveries: { atLeast: settings.minDeliveries, lookbackHours: hours(settings.lookbackMs) },
      };
      // One id per silence: the same silence announced again is recognisable.
      const id = `account.silent:${decision.accountId}:${silentSince}`;
      await tx.outbox.enqueue(Exchanges.accountEvents, SilenceEventKeys.silent, makeEnvelope(AccountSilent, 'ticketing', payload, { id }));
      await tx.crmEvents.emitAccountEvents([{ type: 'account.silent', accountId: decision.accountId, silence: { silentSince, detectedAt, resumedAt: null }, messageId: `crm.${id}` }]);
      return true;
    }
    if (!(await tx.silences.end(decision.silence, decision.resumedAt, now))) return false;
    const silentSince = decision.silence.silentSince.toISOString();
    const resumedAt = decision.resumedAt.toISOString();
    const payload: AccountDeliveringPayload = { accountId: decision.accountId, silentSince, resumedAt, detectedAt };
    const id = `account.delivering:${decision.accountId}:${silentSince}`;
    await tx.outbox.enqueue(Exchanges.accountEvents, SilenceEventKeys.delivering, makeEnvelope(AccountDelivering, 'ticketing', payload, { id }));
    await tx.crmEvents.emitAccountEvents([{ type: 'account.delivering', accountId: decision.accountId, silence: { silentSince, detectedAt, resumedAt }, messageId: `crm.${id}` }]);
    return true;
  }
}
