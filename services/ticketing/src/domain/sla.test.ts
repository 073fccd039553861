import type { BusinessHours } from './business-hours';
import { evaluateSla, isAtRisk, planSla, type SlaFacts, type SlaPolicy, type SlaTicketClocks, type StatusChange } from './sla';

const t0 = new Date('2026-03-16T10:00:00Z');
const after = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const policy: SlaPolicy = { firstResponseMinutes: 60, resolutionMinutes: 240, businessHours: null, atRiskPercent: null, byPriority: {} };
const history = (...changes: [StatusChange['status'], number][]): StatusChange[] => changes.map(([status, minutes]) => ({ status, at: after(minutes) }));
const facts = (changes: StatusChange[], more: Partial<SlaFacts> = {}): SlaFacts => ({ history: changes, firstResponseAt: null, priority: null, ...more });

describe('SLA clocks', () => {
  it('an open ticket: both clocks run from its opening', () => {
    const sla = evaluateSla(facts(history(['open', 0])), policy);
    expect(sla.firstResponse).toEqual({ running: true, dueAt: after(60), atRiskAt: null });
    expect(sla.resolution).toEqual({ running: true, dueAt: after(240), atRiskAt: null });
    expect(sla.paused).toBe(false);
  });

  it('pending pauses the resolution clock (not the first response one); reopening resumes with what was left', () => {
    const paused = evaluateSla(facts(history(['open', 0], ['pending', 30])), policy);
    expect(paused.resolution).toEqual({ running: false, dueAt: null, atRiskAt: null });
    expect(paused.firstResponse.dueAt).toEqual(after(60));
    expect(paused.paused).toBe(true);
    // 30 minutes used, 210 left from the reopening at +100.
    const resumed = evaluateSla(facts(history(['open', 0], ['pending', 30], ['open', 100])), policy);
    expect(resumed.resolution).toEqual({ running: true, dueAt: after(310), atRiskAt: null });
  });

  it('resolved and closed stop both clocks; a first response stops its own', () => {
    const resolved = evaluateSla(facts(history(['open', 0], ['resolved', 20])), policy);
    expect(resolved.firstResponse).toEqual({ running: false, dueAt: null, atRiskAt: null });
    expect(resolved.resolution).toEqual({ running: false, dueAt: null, atRiskAt: null });
    const answered = evaluateSla(facts(history(['open', 0]), { firstResponseAt: after(10) }), policy);
    expect(answered.firstResponse).toEqual({ running: false, dueAt: null, atRiskAt: null });
    expect(answered.resolution.running).toBe(true);
  });

  it('keeps the due time of a clock that ran out before it stopped: the breach happened', () => {
    const late = evaluateSla(facts(history(['open', 0]), { firstResponseAt: after(90) }), policy);
    expect(late.firstResponse).toEqual({ running: false, dueAt: after(60), atRiskAt: null });
    const closedLate = evaluateSla(facts(history(['open', 0], ['closed', 300])), policy);
    expect(closedLate.resolution.dueAt).toEqual(after(240));
  });

  it('takes the minutes of the ticket priority when the policy has them', () => {
    const urgent = { ...policy, byPriority: { urgent: { firstResponseMinutes: 5 } } };
    const sla = evaluateSla(facts(history(['open', 0]), { priority: 'urgent' }), urgent);
    expect(sla.firstResponse.dueAt).toEqual(after(5));
    expect(sla.resolution.dueAt).toEqual(after(240));
  });

  it('warns at the configured share of the budget, while the clock runs and has not run out', () => {
    const sla = evaluateSla(facts(history(['open', 0])), { ...policy, atRiskPercent: 75 });
    expect(sla.firstResponse.atRiskAt).toEqual(after(45));
    expect(sla.resolution.atRiskAt).toEqual(after(180));
    expect(isAtRisk(sla, after(44))).toBe(false);
    expect(isAtRisk(sla, after(50))).toBe(true);
    expect(isAtRisk(sla, after(70))).toBe(false);
    expect(isAtRisk(sla, after(200))).toBe(true);
  });

  it('counts business time only, across a pause', () => {
    const utcOffice: BusinessHours = { timeZone: 'UTC', weekly: { mon: [['09:00', '18:00']], tue: [['09:00', '18:00']] } };
    // Monday 10:00 open, pending 12:00-Tuesday 09:30: 2 h used, 2 h left from Tuesday 09:30.
    const sla = evaluateSla(facts(history(['open', 0], ['pending', 120], ['open', 23 * 60 + 30])), { ...policy, businessHours: utcOffice });
    expect(sla.resolution.dueAt).toEqual(new Date('2026-03-17T11:30:00Z'));
  });
});

describe('the SLA plan of a ticket', () => {
  const ticket = (more: Partial<SlaTicketClocks> = {}): SlaTicketClocks => ({ status: 'open', createdAt: t0, firstResponseAt: null, priority: null, history: history(['open', 0]), ...more });
  const warned: SlaPolicy = { ...policy, atRiskPercent: 50 };

  it('appends the opening to an empty history and the current status when it changed', () => {
    expect(planSla(ticket({ history: [] }), policy, after(1)).appended).toEqual(history(['open', 0]));
    expect(planSla(ticket({ status: 'pending' }), policy, after(5)).appended).toEqual(history(['pending', 5]));
    expect(planSla(ticket(), policy, after(5)).appended).toEqual([]);
  });

  it('without a policy decides nothing but the history', () => {
    expect(planSla(ticket({ history: [] }), null, after(1))).toEqual({ appended: history(['open', 0]), evaluation: null, due: [], scheduled: [], state: null });
  });

  it('schedules every timer not due yet, with its due time', () => {
    const plan = planSla(ticket(), warned, after(10));
    expect(plan.due).toEqual([]);
    expect(plan.scheduled).toEqual([
      { clock: 'first_response', stage: 'at_risk', dueAt: after(30) },
      { clock: 'first_response', stage: 'breach', dueAt: after(60) },
      { clock: 'resolution', stage: 'at_risk', dueAt: after(120) },
      { clock: 'resolution', stage: 'breach', dueAt: after(240) },
    ]);
    expect(plan.state).toEqual({ firstResponseDueAt: after(60), resolutionDueAt: after(240), breached: false, atRisk: false });
  });

  it('fires a due at-risk timer and marks the ticket at risk', () => {
    const plan = planSla(ticket(), warned, after(40));
    expect(plan.due).toEqual([{ clock: 'first_response', stage: 'at_risk', dueAt: after(30), silent: false }]);
    expect(plan.state).toMatchObject({ breached: false, atRisk: true });
  });

  it('keeps an at-risk timer silent when the breach is due as well: the breach says it all', () => {
    const plan = planSla(ticket(), warned, after(70));
    expect(plan.due).toEqual([
      { clock: 'first_response', stage: 'at_risk', dueAt: after(30), silent: true },
      { clock: 'first_response', stage: 'breach', dueAt: after(60), silent: false },
    ]);
    expect(plan.state).toMatchObject({ breached: true, atRisk: false });
  });

  it('schedules no due time for a paused clock', () => {
    const plan = planSla(ticket({ status: 'pending', history: history(['open', 0], ['pending', 5]) }), policy, after(10));
    expect(plan.scheduled).toContainEqual({ clock: 'resolution', stage: 'breach', dueAt: null });
  });
});
