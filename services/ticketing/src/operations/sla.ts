import type { Logger } from '@crm/logging';
import type { SlaTicket } from '../adapters/db/sla';
import type { TicketingStore, TicketingTx } from '../adapters/db/store';
import { slaPolicyOf, type PartnerConfig } from '../domain/partner-config';
import { SYSTEM_ACTOR } from '../domain/workflow';
import { evaluateSla, isAtRisk, SLA_CLOCKS, SLA_STAGES, timerDue, type SlaClock, type SlaEvaluation, type SlaStage, type StatusChange } from '../domain/sla';
import { TicketNotFound } from './errors';
import { slaTimersFired } from '../adapters/metrics';

export interface SlaDeps {
  store: TicketingStore;
  logger: Logger;
  /** The time the clocks are read at (tests move it). */
  clock: () => Date;
  /** Publishes what the evaluation put in the outbox. */
  relay: { kick: () => Promise<void> };
}

/** What one evaluation did. */
export interface SlaOutcome {
  /** Timers that fired now (each once, whatever the number of replicas). */
  fired: { clock: SlaClock; stage: SlaStage; dueAt: Date }[];
  evaluation: SlaEvaluation | null;
}

const NOTHING: SlaOutcome = { fired: [], evaluation: null };

/** The status history as the clocks need it: the opening first, the current status last (appended at `now` when it changed); and what it adds to the stored one. */
function syncHistory(ticket: SlaTicket, now: Date): { history: StatusChange[]; appended: StatusChange[] } {
  const history = [...ticket.history];
  const appended: StatusChange[] = [];
  if (history.length === 0) appended.push({ status: 'open', at: ticket.createdAt });
  const last = [...history, ...appended].at(-1)!;
  if (last.status !== ticket.status) appended.push({ status: ticket.status, at: last.at > now ? last.at : now });
  return { history: [...history, ...appended], appended };
}

/** Flags, records and announces one timer that is due; false when it had fired before. */
async function fire(tx: TicketingTx, ticket: SlaTicket, timer: { clock: SlaClock; stage: SlaStage; dueAt: Date }, now: Date): Promise<boolean> {
  if (!(await tx.sla.markFired(ticket.id, timer.clock, timer.stage, timer.dueAt, now))) return false;
  const breach = timer.stage === 'breach';
  if (breach) await tx.sla.addBreachEntry(ticket, timer.clock, timer.dueAt);
  const type = breach ? 'ticket.sla_breached' : 'ticket.sla_at_risk';
  const sla = { clock: timer.clock, dueAt: timer.dueAt.toISOString(), detectedAt: now.toISOString() };
  await tx.crmEvents.emit(type, ticket.id, SYSTEM_ACTOR, { sla }, `${type}:${ticket.id}:${timer.clock}`);
  return true;
}

/**
 * Re-evaluates a locked ticket's SLA in the caller's transaction: brings the status history
 * up to date, computes both clocks, fires the timers that are due (the breach flag, a
 * timeline entry and `ticket.sla_breached` in the outbox; or `ticket.sla_at_risk`), and
 * schedules the others (none while a clock is paused or stopped).
 */
export async function evaluateTicketSla(tx: TicketingTx, ticket: SlaTicket, now: Date, knownConfig?: PartnerConfig): Promise<SlaOutcome> {
  const { history, appended } = syncHistory(ticket, now);
  const config = knownConfig ?? (await tx.partnerConfigs.load(ticket.accountId));
  if (!config) {
    await tx.sla.saveEvaluation(ticket.id, { statuses: appended, timers: [], state: null });
    return NOTHING;
  }
  const evaluation = evaluateSla({ history, firstResponseAt: ticket.firstResponseAt, priority: ticket.priority }, slaPolicyOf(config));
  const fired: SlaOutcome['fired'] = [];
  const scheduled: { clock: SlaClock; stage: SlaStage; dueAt: Date | null }[] = [];
  let breached = false;
  for (const clock of SLA_CLOCKS) {
    const breachDue = timerDue(evaluation, clock, 'breach');
    for (const stage of SLA_STAGES) {
      const dueAt = timerDue(evaluation, clock, stage);
      if (!dueAt || dueAt > now) {
        scheduled.push({ clock, stage, dueAt });
        continue;
      }
      if (stage === 'breach') breached = true;
      // At risk and breached at once (the service was down, or minutes were shortened): the breach says it all.
      const silent = stage === 'at_risk' && breachDue !== null && breachDue <= now;
      if (silent) await tx.sla.markFired(ticket.id, clock, stage, dueAt, now);
      else if (await fire(tx, ticket, { clock, stage, dueAt }, now)) fired.push({ clock, stage, dueAt });
    }
  }
  await tx.sla.saveEvaluation(ticket.id, {
    statuses: appended,
    timers: scheduled,
    state: { firstResponseDueAt: evaluation.firstResponse.dueAt, resolutionDueAt: evaluation.resolution.dueAt, breached, atRisk: isAtRisk(evaluation, now) },
  });
  return { fired, evaluation };
}

/**
 * Locks a ticket and re-evaluates its SLA in the caller's transaction (recording, after opening
 * or reopening one; a first response). `config`: its account's, when the transaction has it.
 */
export async function reevaluateSlaIn(tx: TicketingTx, ticketId: string, now: Date, config?: PartnerConfig): Promise<SlaOutcome> {
  const ticket = await tx.sla.lockSlaTicket(ticketId);
  return ticket ? evaluateTicketSla(tx, ticket, now, config) : NOTHING;
}

/**
 * The SLA clocks of tickets. `reevaluateSla` is what the workflow calls after each change of
 * a ticket (status, priority, first response); `fireDue` is what every replica runs on an
 * interval: due timers are durable rows, each ticket is taken with `FOR UPDATE SKIP LOCKED`
 * (a ticket another replica is evaluating is left to it), and a timer is marked fired in the
 * transaction that flags the ticket and writes the event to the outbox, so it fires once.
 */
export class SlaClocks {
  constructor(private readonly deps: SlaDeps) {}

  /** Throws TicketNotFound for an unknown ticket. */
  async reevaluateSla(ticketId: string): Promise<SlaOutcome> {
    const now = this.deps.clock();
    const outcome = await this.deps.store.transaction(async (tx) => {
      const ticket = await tx.sla.lockSlaTicket(ticketId);
      if (!ticket) throw new TicketNotFound(ticketId);
      return evaluateTicketSla(tx, ticket, now);
    });
    this.announce(ticketId, outcome);
    return outcome;
  }

  /** Fires every timer due now; resolves with the number fired by this replica. */
  async fireDue(limit = 100): Promise<number> {
    const now = this.deps.clock();
    let fired = 0;
    for (const ticketId of await this.deps.store.read.sla.ticketsWithDueTimers(now, limit)) {
      const outcome = await this.deps.store.transaction(async (tx) => {
        const ticket = await tx.sla.tryLockSlaTicket(ticketId);
        return ticket ? evaluateTicketSla(tx, ticket, now) : NOTHING;
      });
      this.announce(ticketId, outcome);
      fired += outcome.fired.length;
    }
    return fired;
  }

  private announce(ticketId: string, outcome: SlaOutcome): void {
    if (outcome.fired.length === 0) return;
    for (const timer of outcome.fired) {
      slaTimersFired.inc({ clock: timer.clock, stage: timer.stage });
      this.deps.logger.info('SLA timer fired', { ticketId, clock: timer.clock, stage: timer.stage, dueAt: timer.dueAt.toISOString() });
    }
    void this.deps.relay.kick();
  }
}
