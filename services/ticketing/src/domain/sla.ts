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
