/**
 * A saved search query's state as ticketing reports it, in an agent's words: its last run, how
 * often it runs now (the interval stretches while runs find nothing) and what a month of runs
 * at that pace would cost. Pure: the time formatter is given.
 */
export interface SearchQueryStateFacts {
  lastRunAt: string | null;
  lastMatches: number;
  lastError: { message: string } | null;
  intervalSeconds: number;
  currentIntervalSeconds: number;
  estimatedMonthlyCost: number | null;
}

/** "every 5 min", "every 2 h", "every 45 s". */
export function everyWords(seconds: number): string {
  if (seconds < 120) return `every ${seconds} s`;
  if (seconds < 2 * 3600) return `every ${Math.round(seconds / 60)} min`;
  return `every ${Math.round(seconds / 360) / 10} h`;
}

/** "about $0.42 a month", "less than $0.01 a month". */
export function monthlyCostWords(amount: number): string {
  return amount > 0 && amount < 0.005 ? 'less than $0.01 a month' : `about $${amount.toFixed(2)} a month`;
}

export function searchQueryStateWords(state: SearchQueryStateFacts, when: (iso: string) => string): string {
  const run = state.lastRunAt ? `last run ${when(state.lastRunAt)}, ${state.lastMatches} new` : 'not run yet';
  const stretched = state.currentIntervalSeconds > state.intervalSeconds ? ' (slowed while it finds nothing)' : '';
  const pace = `; runs ${everyWords(state.currentIntervalSeconds)}${stretched}`;
  const cost = state.estimatedMonthlyCost === null ? '' : `, ${monthlyCostWords(state.estimatedMonthlyCost)} at this pace`;
  const error = state.lastError ? `; last error: ${state.lastError.message}` : '';
  return `${run}${pace}${cost}${error}`;
}
