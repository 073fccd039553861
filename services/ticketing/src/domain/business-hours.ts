import { DateTime, IANAZone } from 'luxon';

/**
 * A partner's business-hours calendar: opening intervals per weekday, in local time of an
 * IANA time zone. SLA clocks with a calendar count only the time inside these intervals.
 * Pure: no I/O, no clock.
 */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** `["09:00", "18:00"]`: local start (inclusive) and end (exclusive, `24:00` allowed). */
export type Interval = [string, string];

export interface BusinessHours {
  timeZone: string;
  weekly: Partial<Record<Weekday, Interval[]>>;
}

const TIME = /^([01][0-9]|2[0-3]):([0-5][0-9])$|^24:00$/;
const MINUTE = 60_000;
const DAY = 24 * 60;
/** How far ahead a due time is looked for: beyond this, a calendar is too sparse for the minutes asked. */
const MAX_DAYS = 366 * 20;

const minutesOf = (time: string): number => {
  const [hours, minutes] = time.split(':').map(Number);
  return hours! * 60 + minutes!;
};

/**
 * The problems of a calendar, each naming its field under `at` (e.g.
 * `/sla/businessHours/weekly/mon/0/1 must be HH:MM`); empty when valid. Intervals of a day
 * must be in order and must not overlap; at least one day needs an interval.
 */
export function checkBusinessHours(value: unknown, at: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${at} must be an object`];
  const { timeZone, weekly, ...rest } = value as Record<string, unknown>;
  const problems = Object.keys(rest).map((key) => `${at}/${key} is not a known field`);
  if (typeof timeZone !== 'string' || !IANAZone.isValidZone(timeZone)) problems.push(`${at}/timeZone must be an IANA time zone such as "Europe/Madrid"`);
  if (typeof weekly !== 'object' || weekly === null || Array.isArray(weekly)) return [...problems, `${at}/weekly must be an object of weekdays (mon ... sun)`];
  let intervals = 0;
  for (const [day, list] of Object.entries(weekly)) {
    const dayAt = `${at}/weekly/${day}`;
    if (!(WEEKDAYS as readonly string[]).includes(day)) problems.push(`${dayAt} is not a weekday (mon, tue, wed, thu, fri, sat, sun)`);
    else if (!Array.isArray(list)) problems.push(`${dayAt} must be a list of ["HH:MM", "HH:MM"] intervals`);
    else {
      problems.push(...checkDay(list, dayAt));
      intervals += list.length;
    }
  }
  if (problems.length === 0 && intervals === 0) problems.push(`${at}/weekly must open on at least one day`);
  return problems;
}

function checkDay(list: unknown[], at: string): string[] {
  const problems: string[] = [];
  let previousEnd = -1;
  list.forEach((interval, index) => {
    const itemAt = `${at}/${index}`;
    if (!Array.isArray(interval) || interval.length !== 2) return void problems.push(`${itemAt} must be ["HH:MM", "HH:MM"]`);
    const bad = interval.findIndex((time) => typeof time !== 'string' || !TIME.test(time));
    if (bad >= 0) return void problems.push(`${itemAt}/${bad} must be HH:MM (00:00 to 24:00)`);
    const [start, end] = (interval as Interval).map(minutesOf) as [number, number];
    if (start === DAY) return void problems.push(`${itemAt}/0 must be before 24:00`);
    if (end <= start) return void problems.push(`${itemAt} must end after it starts`);
    if (start < previousEnd) return void problems.push(`${itemAt} overlaps or precedes the interval before it`);
    previousEnd = end;
  });
  return problems;
}

/** The opening intervals (epoch ms) of the local day `day`, in order; DST gaps and folds resolved by luxon. */
function openingsOf(day: DateTime, hours: BusinessHours): [number, number][] {
  const weekday = WEEKDAYS[day.weekday - 1]!;
  const local = (minutes: number) =>
    minutes === DAY ? day.plus({ days: 1 }).startOf('day').toMillis() : day.set({ hour: Math.floor(minutes / 60), minute: minutes % 60 }).toMillis();
  return (hours.weekly[weekday] ?? []).map(([start, end]) => [local(minutesOf(start)), local(minutesOf(end))]);
}

/** Every opening interval from the local day holding `from` on, day by day, for at most MAX_DAYS. */
function* openings(from: number, hours: BusinessHours): Generator<[number, number]> {
  let day = DateTime.fromMillis(from, { zone: hours.timeZone }).startOf('day');
  for (let count = 0; count < MAX_DAYS; count += 1, day = day.plus({ days: 1 })) {
    for (const [start, end] of openingsOf(day, hours)) if (end > from) yield [Math.max(start, from), end];
  }
}

/**
 * The instant `millis` of clock time after `start`: calendar time without a calendar, business
 * time with one (time outside the intervals does not count). Throws when the calendar cannot
 * hold them within 20 years.
 */
export function addBusinessMillis(start: Date, millis: number, hours: BusinessHours | null): Date {
  if (!hours) return new Date(start.getTime() + millis);
  let left = millis;
  if (left <= 0) return start;
  for (const [from, to] of openings(start.getTime(), hours)) {
    if (to - from >= left) return new Date(from + left);
    left -= to - from;
  }
  throw new Error(`the business hours hold no ${Math.ceil(millis / MINUTE)} minutes within ${MAX_DAYS} days`);
}

export const addBusinessMinutes = (start: Date, minutes: number, hours: BusinessHours | null): Date => addBusinessMillis(start, minutes * MINUTE, hours);

/** Clock time between two instants, in ms: all of it without a calendar, only the business part with one. */
export function businessMillisBetween(from: Date, to: Date, hours: BusinessHours | null): number {
  const start = from.getTime();
  const end = to.getTime();
  if (end <= start) return 0;
  if (!hours) return end - start;
  let total = 0;
  for (const [open, close] of openings(start, hours)) {
    if (open >= end) break;
    total += Math.min(close, end) - open;
  }
  return total;
}
