import { addBusinessMillis, businessMillisBetween, type BusinessHours } from './business-hours';
import type { TicketPriority, TicketStatus } from '@crm/contracts';

/**
 * A ticket's SLA clocks, as a pure function of its status history, its first response and
 * its priority (no I/O, no clock but the `now` given).
 *
 * - first response: runs while the ticket is open or pending, until its first response;
 * - resolution: runs while the ticket is open (`pending` pauses it);
 * - `resolved`, `closed` and `merged` stop both; reopening resumes each with what it had left.
 *
 * With business hours only business time counts. A clock's due time is when its budget of
 * minutes is used up; its at-risk time when `atRiskPercent` of that budget is.
 */

export const SLA_CLOCKS = ['first_response', 'resolution'] as const;
export type SlaClock = (typeof SLA_CLOCKS)[number];

/** A timer's stage: warn before the breach, then the breach. */
export const SLA_STAGES = ['at_risk', 'breach'] as const;
export type SlaStage = (typeof SLA_STAGES)[number];

export interface SlaMinutes {
  firstResponseMinutes: number;
  resolutionMinutes: number;
}

export interface SlaPolicy extends SlaMinutes {
  businessHours: BusinessHours | null;
  /** Share of a clock's budget after which the ticket is at risk (1-99); null: no at-risk warning. */
  atRiskPercent: number | null;
  byPriority: Partial<Record<TicketPriority, Partial<SlaMinutes>>>;
}

export interface StatusChange {
  status: TicketStatus;
  at: Date;
}

export interface SlaFacts {
  /** Status changes in time order; the first is the ticket's opening. */
  history: StatusChange[];
  firstResponseAt: Date | null;
  priority: string | null;
}

export interface ClockState {
  /** The clock counts now (it may be outside business hours all the same). */
  running: boolean;
  /** When its budget is (or was) used up; null while paused or stopped before that. */
  dueAt: Date | null;
  /** When `atRiskPercent` of the budget is (or was) used up; null without at-risk or like `dueAt`. */
  atRiskAt: Date | null;
}

export interface SlaEvaluation {
  firstResponse: ClockState;
  resolution: ClockState;
  /** The resolution clock is paused (the ticket is pending). */
  paused: boolean;
}

type Segment = { from: Date; to: Date | null };

const runsIn: Record<SlaClock, (status: TicketStatus) => boolean> = {
  first_response: (status) => status === 'open' || status === 'pending',
  resolution: (status) => status === 'open',
};

/** The spans during which a clock ran; the last one is open-ended while it runs now. */
function segmentsOf(clock: SlaClock, facts: SlaFacts): Segment[] {
  const stopAt = clock === 'first_response' ? facts.firstResponseAt : null;
  const segments: Segment[] = [];
  facts.history.forEach((change, index) => {
    if (!runsIn[clock](change.status)) return;
    const next = facts.history[index + 1]?.at ?? null;
    const to = stopAt && (next === null || stopAt < next) ? stopAt : next;
    if (stopAt && change.at >= stopAt) return;
    segments.push({ from: change.at, to });
  });
  return segments;
}

/** When `budgetMs` of clock time runs out over the segments; null when it does not (paused or stopped before). */
function exhaustion(segments: Segment[], budgetMs: number, hours: BusinessHours | null): Date | null {
  let left = budgetMs;
  for (const { from, to } of segments) {
    if (to === null) return addBusinessMillis(from, left, hours);
    const used = businessMillisBetween(from, to, hours);
    if (used >= left) return addBusinessMillis(from, left, hours);
    left -= used;
  }
  return null;
}

/** The minutes of each clock for a priority: its own when the policy sets them, else the general ones. */
export function minutesFor(policy: SlaPolicy, priority: string | null): SlaMinutes {
  const own = priority ? policy.byPriority[priority as TicketPriority] : undefined;
  return {
    firstResponseMinutes: own?.firstResponseMinutes ?? policy.firstResponseMinutes,
    resolutionMinutes: own?.resolutionMinutes ?? policy.resolutionMinutes,
  };
}

function clockState(clock: SlaClock, facts: SlaFacts, minutes: number, policy: SlaPolicy): ClockState {
  const segments = segmentsOf(clock, facts);
  const budget = minutes * 60_000;
  return {
    running: segments.at(-1)?.to === null,
    dueAt: exhaustion(segments, budget, policy.businessHours),
    atRiskAt: policy.atRiskPercent === null ? null : exhaustion(segments, Math.floor((budget * policy.atRiskPercent) / 100), policy.businessHours),
  };
}

export function evaluateSla(facts: SlaFacts, policy: SlaPolicy): SlaEvaluation {
  const minutes = minutesFor(policy, facts.priority);
  return {
    firstResponse: clockState('first_response', facts, minutes.firstResponseMinutes, policy),
    resolution: clockState('resolution', facts, minutes.resolutionMinutes, policy),
    paused: facts.history.at(-1)?.status === 'pending',
  };
}

/** The due time of one timer (a clock and a stage) in an evaluation. */
export function timerDue(evaluation: SlaEvaluation, clock: SlaClock, stage: SlaStage): Date | null {
  const state = clock === 'first_response' ? evaluation.firstResponse : evaluation.resolution;
  return stage === 'breach' ? state.dueAt : state.atRiskAt;
}

/**
 * Whether a ticket is at risk now: an at-risk time has passed on a clock that still runs and
 * whose due time has not.
 */
export function isAtRisk(evaluation: SlaEvaluation, now: Date): boolean {
  return [evaluation.firstResponse, evaluation.resolution].some(
    (state) => state.running && state.atRiskAt !== null && state.atRiskAt <= now && (state.dueAt === null || state.dueAt > now),
  );
}

/** What the clocks of one ticket are read from: its current status, opening, status history, first response and priority. */
export interface SlaTicketClocks {
  status: TicketStatus;
  createdAt: Date;
  firstResponseAt: Date | null;
  priority: string | null;
  /** The stored status history, in order. */
  history: StatusChange[];
}

export interface SlaTimer {
  clock: SlaClock;
  stage: SlaStage;
}

/** What an evaluation of a ticket's SLA decides, before anything is written. */
export interface SlaPlan {
  /** Status changes the stored history lacks (the opening, the current status). */
  appended: StatusChange[];
  /** Null when the account has no SLA policy (no partner configuration). */
  evaluation: SlaEvaluation | null;
  /**
   * Timers due now, in clock then stage order. A silent one is only marked fired: at risk and
   * breached at once (the service was down, or minutes were shortened), the breach says it all.
   */
  due: (SlaTimer & { dueAt: Date; silent: boolean })[];
  /** Timers not due yet, with their due time (null while a clock is paused or stopped). */
  scheduled: (SlaTimer & { dueAt: Date | null })[];
  /** The ticket's SLA fields; null without a policy. */
  state: { firstResponseDueAt: Date | null; resolutionDueAt: Date | null; breached: boolean; atRisk: boolean } | null;
}

/** The status history as the clocks need it: the opening first, the current status last (appended at `now` when it changed); and what it adds to the stored one. */
function syncHistory(ticket: SlaTicketClocks, now: Date): { history: StatusChange[]; appended: StatusChange[] } {
  const appended: StatusChange[] = [];
  if (ticket.history.length === 0) appended.push({ status: 'open', at: ticket.createdAt });
  const last = [...ticket.history, ...appended].at(-1)!;
  if (last.status !== ticket.status) appended.push({ status: ticket.status, at: last.at > now ? last.at : now });
  return { history: [...ticket.history, ...appended], appended };
}

/**
 * Decides a ticket's SLA at `now` from its clocks and its account's policy: the history to
 * append, both clocks, the timers due (to fire) and the others (to schedule), and the ticket's
 * SLA fields. No I/O: the operation applies the plan in its transaction.
 */
export function planSla(ticket: SlaTicketClocks, policy: SlaPolicy | null, now: Date): SlaPlan {
  const { history, appended } = syncHistory(ticket, now);
  if (!policy) return { appended, evaluation: null, due: [], scheduled: [], state: null };
  const evaluation = evaluateSla({ history, firstResponseAt: ticket.firstResponseAt, priority: ticket.priority }, policy);
  const due: SlaPlan['due'] = [];
  const scheduled: SlaPlan['scheduled'] = [];
  for (const clock of SLA_CLOCKS) {
    const breachDue = timerDue(evaluation, clock, 'breach');
    for (const stage of SLA_STAGES) {
      const dueAt = timerDue(evaluation, clock, stage);
      if (!dueAt || dueAt > now) scheduled.push({ clock, stage, dueAt });
      else due.push({ clock, stage, dueAt, silent: stage === 'at_risk' && breachDue !== null && breachDue <= now });
    }
  }
  const breached = due.some((timer) => timer.stage === 'breach');
  return {
    appended,
    evaluation,
    due,
    scheduled,
    state: { firstResponseDueAt: evaluation.firstResponse.dueAt, resolutionDueAt: evaluation.resolution.dueAt, breached, atRisk: isAtRisk(evaluation, now) },
  };
}
