import { Exchanges, TicketSlaAtRisk, TicketSlaBreached, TicketSlaKeys } from '@crm/contracts';
import { withTransaction, type Pool, type PoolClient } from '@crm/db';
import type { Logger } from '@crm/logging';
import { makeEnvelope } from '@crm/messaging';
import { slaPolicyOf } from '../domain/partner-config';
import { evaluateSla, isAtRisk, SLA_CLOCKS, SLA_STAGES, timerDue, type SlaClock, type SlaEvaluation, type SlaStage, type StatusChange } from '../domain/sla';
import { enqueue } from '../adapters/db/outbox';
import { loadPartnerConfig } from '../adapters/db/partner-configs';
import {
  addBreachEntry,
  appendStatus,
  lockSlaTicket,
  markFired,
  readStatusHistory,
  saveSlaState,
  scheduleTimer,
  ticketsWithDueTimers,
  tryLockSlaTicket,
  type SlaTicket,
} from '../adapters/db/sla';

/** No ticket has this id. */
export class SlaTicketNotFound extends Error {
  override name = 'SlaTicketNotFound';
}

export interface SlaDeps {
  pool: Pool;
  logger: Logger;
  /** The time the clocks are read at (tests move it). */
  clock: () => Date;
  /** Publishes what the evaluation put in the outbox. */
  relay: { kick: () => Promise<void> };
  /** Where SLA events go (`crm.events`). */
  eventsExchange?: string;
}

/** What one evaluation did. */
export interface SlaOutcome {
  /** Timers that fired now (each once, whatever the number of replicas). */
  fired: { clock: SlaClock; stage: SlaStage; dueAt: Date }[];
  evaluation: SlaEvaluation | null;
}

/** The status history as the clocks need it: the opening first, the current status last (appended at `now` when it changed). */
async function syncHistory(client: PoolClient, ticket: SlaTicket, now: Date): Promise<StatusChange[]> {
  const history = await readStatusHistory(client, ticket.id);
  if (history.length === 0) {
    const opening = { status: 'open' as const, at: ticket.createdAt };
    await appendStatus(client, ticket.id, opening);
    history.push(opening);
  }
  const last = history.at(-1)!;
  if (last.status !== ticket.status) {
    const change = { status: ticket.status, at: last.at > now ? last.at : now };
    await appendStatus(client, ticket.id, change);
    history.push(change);
  }
  return history;
}

/** Flags, records and announces one timer that is due; false when it had fired before. */
async function fire(client: PoolClient, ticket: SlaTicket, timer: { clock: SlaClock; stage: SlaStage; dueAt: Date }, now: Date, exchange: string): Promise<boolean> {
  if (!(await markFired(client, ticket.id, timer.clock, timer.stage, timer.dueAt, now))) return false;
  const breach = timer.stage === 'breach';
  if (breach) await addBreachEntry(client, ticket, timer.clock, timer.dueAt);
  const contract = breach ? TicketSlaBreached : TicketSlaAtRisk;
  const key = breach ? TicketSlaKeys.breached : TicketSlaKeys.atRisk;
  const payload = { ticketId: ticket.id, accountId: ticket.accountId, clock: timer.clock, dueAt: timer.dueAt.toISOString(), detectedAt: now.toISOString() };
  await enqueue(client, exchange, key, makeEnvelope(contract, 'ticketing', payload, { id: `${key}:${ticket.id}:${timer.clock}` }));
  return true;
}

/**
 * Re-evaluates a locked ticket's SLA in the caller's transaction: brings the status history
 * up to date, computes both clocks, fires the timers that are due (the breach flag, a
 * timeline entry and `ticket.sla_breached` in the outbox; or `ticket.sla_at_risk`), and
 * schedules the others (none while a clock is paused or stopped).
 */
export async function evaluateTicketSla(client: PoolClient, ticket: SlaTicket, now: Date, exchange: string = Exchanges.crmEvents): Promise<SlaOutcome> {
  const history = await syncHistory(client, ticket, now);
  const config = await loadPartnerConfig(client, ticket.accountId);
  if (!config) return { fired: [], evaluation: null };
  const evaluation = evaluateSla({ history, firstResponseAt: ticket.firstResponseAt, priority: ticket.priority }, slaPolicyOf(config));
  const fired: SlaOutcome['fired'] = [];
  let breached = false;
  for (const clock of SLA_CLOCKS) {
    const breachDue = timerDue(evaluation, clock, 'breach');
    for (const stage of SLA_STAGES) {
      const dueAt = timerDue(evaluation, clock, stage);
      if (!dueAt || dueAt > now) {
        await scheduleTimer(client, ticket.id, clock, stage, dueAt);
        continue;
      }
      if (stage === 'breach') breached = true;
      // At risk and breached at once (the service was down, or minutes were shortened): the breach says it all.
      const silent = stage === 'at_risk' && breachDue !== null && breachDue <= now;
      if (silent) await markFired(client, ticket.id, clock, stage, dueAt, now);
      else if (await fire(client, ticket, { clock, stage, dueAt }, now, exchange)) fired.push({ clock, stage, dueAt });
    }
  }
  await saveSlaState(client, ticket.id, {
    firstResponseDueAt: evaluation.firstResponse.dueAt,
    resolutionDueAt: evaluation.resolution.dueAt,
    breached,
    atRisk: isAtRisk(evaluation, now),
  });
  return { fired, evaluation };
}

/** Locks a ticket and re-evaluates its SLA in the caller's transaction (the activity pipeline, after opening or reopening one). */
export async function reevaluateSlaIn(client: PoolClient, ticketId: string, now: Date): Promise<SlaOutcome> {
  const ticket = await lockSlaTicket(client, ticketId);
  return ticket ? evaluateTicketSla(client, ticket, now) : { fired: [], evaluation: null };
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

  async reevaluateSla(ticketId: string): Promise<SlaOutcome> {
    const now = this.deps.clock();
    const outcome = await withTransaction(this.deps.pool, async (client) => {
      const ticket = await lockSlaTicket(client, ticketId);
      if (!ticket) throw new SlaTicketNotFound(`no ticket with id '${ticketId}'`);
      return evaluateTicketSla(client, ticket, now, this.deps.eventsExchange);
    });
    this.announce(ticketId, outcome);
    return outcome;
  }

  /** Fires every timer due now; resolves with the number fired by this replica. */
  async fireDue(limit = 100): Promise<number> {
    const now = this.deps.clock();
    const client = await this.deps.pool.connect();
    let ticketIds: string[];
    try {
      ticketIds = await ticketsWithDueTimers(client, now, limit);
    } finally {
      client.release();
    }
    let fired = 0;
    for (const ticketId of ticketIds) {
      const outcome = await withTransaction(this.deps.pool, async (tx) => {
        const ticket = await tryLockSlaTicket(tx, ticketId);
        return ticket ? evaluateTicketSla(tx, ticket, now, this.deps.eventsExchange) : { fired: [], evaluation: null };
      });
      this.announce(ticketId, outcome);
      fired += outcome.fired.length;
    }
    return fired;
  }

  private announce(ticketId: string, outcome: SlaOutcome): void {
    if (outcome.fired.length === 0) return;
    for (const timer of outcome.fired) this.deps.logger.info('SLA timer fired', { ticketId, clock: timer.clock, stage: timer.stage, dueAt: timer.dueAt.toISOString() });
    void this.deps.relay.kick();
  }
}
