import { createHash, randomInt } from 'node:crypto';

/** The platform's snowflake epoch (2010-11-04); ids built on it have 19 digits today, like real ones. */
const SNOWFLAKE_EPOCH = 1288834974657n;

// A random worker number keeps two simulator processes from handing out the same ids.
const worker = BigInt(randomInt(1024));
let sequence = 0n;
let lastId = 0n;

/**
 * A snowflake-like event id (timestamp, worker, sequence) for the given time. Ids for the
 * present are strictly increasing, so two calls never return the same one; an id dated in
 * the past keeps its time and relies on the 12-bit sequence to stay apart.
 */
export function nextEventId(atMs: number = Date.now()): string {
  sequence = (sequence + 1n) & 0xfffn;
  const sinceEpoch = BigInt(Math.floor(atMs)) - SNOWFLAKE_EPOCH;
  const candidate = ((sinceEpoch > 0n ? sinceEpoch : 0n) << 22n) | (worker << 12n) | sequence;
  if (candidate >> 22n < lastId >> 22n) return candidate.toString();
  lastId = candidate > lastId ? candidate : lastId + 1n;
  return lastId.toString();
}

/**
 * A stable 10-digit user id for a screen name (case-insensitive, as screen names are), so a
 * customer named only as '@ana' is the same platform user in every delivery.
 */
export function stableUserId(screenName: string): string {
  const hex = createHash('sha256').update(`screen_name:${screenName.toLowerCase()}`).digest('hex');
  return (1_000_000_000n + (BigInt(`0x${hex.slice(0, 15)}`) % 9_000_000_000n)).toString();
}

/** A small number derived from an id, so made-up profile counters stay the same between deliveries. */
export function stableNumber(id: string, modulo: number): number {
  const hex = createHash('sha256').update(`n:${id}`).digest('hex');
  return Number(BigInt(`0x${hex.slice(0, 12)}`) % BigInt(modulo));
}
