import { addBusinessMinutes, businessMillisBetween, checkBusinessHours, type BusinessHours } from './business-hours';

const officeHours: BusinessHours = {
  timeZone: 'Europe/Madrid',
  weekly: { mon: [['09:00', '18:00']], tue: [['09:00', '18:00']], wed: [['09:00', '18:00']], thu: [['09:00', '18:00']], fri: [['09:00', '18:00']] },
};
const at = (iso: string) => new Date(iso);

describe('business hours', () => {
  it('without a calendar, counts every minute', () => {
    expect(addBusinessMinutes(at('2026-03-13T16:00:00Z'), 90, null)).toEqual(at('2026-03-13T17:30:00Z'));
  });

  it('carries what is left on Friday evening over the weekend to Monday morning (CET, UTC+1)', () => {
    // Friday 17:00 in Madrid: one hour left that day, the second one on Monday 09:00-10:00 local.
    expect(addBusinessMinutes(at('2026-03-13T16:00:00Z'), 120, officeHours)).toEqual(at('2026-03-16T09:00:00Z'));
    expect(businessMillisBetween(at('2026-03-13T16:00:00Z'), at('2026-03-16T09:00:00Z'), officeHours)).toBe(120 * 60_000);
  });

  it('starts the count at the next opening when started outside hours', () => {
    // Saturday noon -> Monday 09:00 local + 30 minutes.
    expect(addBusinessMinutes(at('2026-03-14T11:00:00Z'), 30, officeHours)).toEqual(at('2026-03-16T08:30:00Z'));
  });

  it('follows the change to summer time over the weekend: Monday 10:00 local is 08:00 UTC (CEST, UTC+2)', () => {
    // Madrid moves its clocks forward on Sunday 29 March 2026.
    expect(addBusinessMinutes(at('2026-03-27T16:00:00Z'), 120, officeHours)).toEqual(at('2026-03-30T08:00:00Z'));
    expect(businessMillisBetween(at('2026-03-27T16:00:00Z'), at('2026-03-30T08:00:00Z'), officeHours)).toBe(120 * 60_000);
  });

  it('counts the 23 hours of the day the clocks go forward, and the 25 of the day they go back', () => {
    const sundays: BusinessHours = { timeZone: 'Europe/Madrid', weekly: { sun: [['00:00', '24:00']] } };
    // Sunday 29 March 2026 00:00 CET holds 23 hours: the 24th is Sunday 5 April 00:00-01:00 CEST.
    expect(addBusinessMinutes(at('2026-03-28T23:00:00Z'), 24 * 60, sundays)).toEqual(at('2026-04-04T23:00:00Z'));
    // Sunday 25 October 2026 holds 25 hours.
    expect(businessMillisBetween(at('2026-10-24T22:00:00Z'), at('2026-10-26T00:00:00Z'), sundays)).toBe(25 * 3_600_000);
  });

  it('reads several intervals a day and a day open until midnight', () => {
    const split: BusinessHours = { timeZone: 'UTC', weekly: { mon: [['09:00', '13:00'], ['14:00', '24:00']] } };
    // Monday 12:30 + 60 minutes: 30 before lunch, 30 after it.
    expect(addBusinessMinutes(at('2026-03-16T12:30:00Z'), 60, split)).toEqual(at('2026-03-16T14:30:00Z'));
    expect(addBusinessMinutes(at('2026-03-16T23:00:00Z'), 120, split)).toEqual(at('2026-03-23T10:00:00Z'));
  });

  it('names each bad field', () => {
    expect(checkBusinessHours({ timeZone: 'Europe/Madrid', weekly: { mon: [['09:00', '18:00']] } }, '/x')).toEqual([]);
    expect(checkBusinessHours({ timeZone: 'Nowhere', weekly: { mon: [['09:00', '25:00']] }, extra: 1 }, '/x')).toEqual([
      '/x/extra is not a known field',
      '/x/timeZone must be an IANA time zone such as "Europe/Madrid"',
      '/x/weekly/mon/0/1 must be HH:MM (00:00 to 24:00)',
    ]);
  });
});
