import type { Logger } from '@crm/logging';
import type { SlaTicket } from '../adapters/db/sla';
import type { TicketingStore, TicketingTx } from '../adapters/db/store';
import { slaPolicyOf, type PartnerConfig } from '../domain/partner-config';
import { SYSTEM_ACTOR } from '../domain/workflow';
import { planSla, type SlaClock, type SlaEvaluation, type SlaStage } from '../domain/sla';
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
 * Re-evaluates a locked ticket's SLA in the caller's transaction: decides the plan from the
 * ticket's clocks (`planSla`), then applies it here, the one place that does: the history
 * appended, the due timers fired (the breach flag, a timeline entry and `ticket.sla_breached`
 * in the outbox; or `ticket.sla_at_risk`), the others scheduled, the ticket's SLA fields saved.
 */
export async function evaluateTicketSla(tx: TicketingTx, ticket: SlaTicket, now: Date, knownConfig?: PartnerConfig): Promise<SlaOutcome> {
  const config = knownConfig ?? (await tx.partnerConfigs.load(ticket.accountId));
  const plan = planSla(ticket, config ? slaPolicyOf(config) : null, now);
  const fired: SlaOutcome['fired'] = [];
  for (const { silent, ...timer } of plan.due) {
    if (silent) await tx.sla.markFired(ticket.id, timer.clock, timer.stage, timer.dueAt, now);
    else if (await fire(tx, ticket, timer, now)) fired.push(timer);
  }
  await tx.sla.saveEvaluation(ticket.id, { statuses: plan.appended, timers: plan.scheduled, state: plan.state });
  return { fired, evaluation: plan.evaluation };
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
