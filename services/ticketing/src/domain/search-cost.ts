/**
 * What a search query costs, and how often it runs: a query that finds nothing waits twice as
 * long before its next run (up to a cap), one that finds posts runs on its configured interval
 * again; each run's cost is the posts it read at the platform's price, and the estimate of a
 * month is the recent cost per run at the current interval. Pure: no I/O, no clock.
 */

const MONTH_SECONDS = 30 * 86_400;
/** How much the latest run weighs in the recent cost per run (an exponential moving average). */
const RECENT_WEIGHT = 0.25;

/**
 * The interval until the next run: the configured one after a run that found posts; after one
 * that found none, twice the current one, never above `capSeconds` (nor below the configured one).
 */
export function nextInterval(configuredSeconds: number, currentSeconds: number | null, found: boolean, capSeconds: number): number {
  if (found) return configuredSeconds;
  const cap = Math.max(configuredSeconds, capSeconds);
  return Math.min((currentSeconds ?? configuredSeconds) * 2, cap);
}

/** Dollars, to the micro-dollar. */
const dollars = (value: number): number => Math.round(value * 1_000_000) / 1_000_000;

/** The recent cost per run, with a run that read `posts` posts at `pricePerPost` dollars. */
export function recentCostPerRun(previous: number | null, posts: number, pricePerPost: number): number {
  const cost = posts * pricePerPost;
  return dollars(previous === null ? cost : previous * (1 - RECENT_WEIGHT) + cost * RECENT_WEIGHT);
}

/** A month (30 days) of runs at the current interval, at the recent cost per run; null before the first successful run. */
export function estimatedMonthlyCost(costPerRun: number | null, intervalSeconds: number): number | null {
  if (costPerRun === null) return null;
  return dollars((costPerRun * MONTH_SECONDS) / intervalSeconds);
}
