/** The usage page's arithmetic: the month's days, spend per day and to date, kinds, shares and budget alerts. */
import { accountShares, budgetAlertOf, budgetEpisode, creditEpisode, dailySpend, daysOf, dollars, kindWords, rangeOf, recentMonths, topKinds, type UsageItem } from '../../web/src/usage/model';

const item = (accountId: string, date: string, kind: string, units: number, amount: number): UsageItem => ({ accountId, date, kind, units, amount });

const ITEMS = [
  item('101', '2026-11-02', 'dm_interaction_create', 3, 0.03),
  item('101', '2026-11-02', 'users_read', 10, 0.1),
  item('202', '2026-11-02', 'posts_read', 40, 0.2),
  item('202', '2026-11-05', 'dm_interaction_create', 7, 0.07),
];

describe('the month', () => {
  it('has every day, February of a leap year too', () => {
    expect(daysOf('2026-11')).toHaveLength(30);
    expect(daysOf('2028-02')).toHaveLength(29);
    expect(rangeOf('2026-12')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(daysOf('2026-13')).toEqual([]);
  });

  it('offers this month and the eleven before it, across the new year', () => {
    const months = recentMonths(new Date('2026-02-10T00:00:00Z'));
    expect(months).toHaveLength(12);
    expect(months[0]).toEqual({ value: '2026-02', label: 'February 2026' });
    expect(months[2]!.value).toBe('2025-12');
  });
});

describe('spend', () => {
  it('adds each day, with zero for the days without calls, and the month to date', () => {
    const days = dailySpend(ITEMS, '2026-11', '2026-11-30');
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ day: '1', date: '2026-11-01', spent: 0, toDate: 0 });
    expect(days[1]).toMatchObject({ spent: 0.33, toDate: 0.33 });
    expect(days[4]).toMatchObject({ spent: 0.07, toDate: 0.4 });
    expect(days[29]!.toDate).toBe(0.4);
  });

  it('has no spend to date for the days still to come', () => {
    const days = dailySpend(ITEMS, '2026-11', '2026-11-05');
    expect(days[4]!.toDate).toBe(0.4);
    expect(days[5]).toMatchObject({ spent: 0, toDate: null });
  });

  it('lists the kinds of call in words, dearest first (then most calls, then by name)', () => {
    expect(topKinds(ITEMS).map((kind) => [kind.words, kind.units, kind.amount])).toEqual([
      ['Posts read', 40, 0.2],
      ['Direct messages sent', 10, 0.1],
      ['Profiles read', 10, 0.1],
    ]);
    expect(kindWords('list_members_read')).toBe('List members read');
  });

  it("gives each account's share of the month", () => {
    expect(accountShares(ITEMS)).toEqual([
      { accountId: '202', amount: 0.27, percent: 68 },
      { accountId: '101', amount: 0.13, percent: 33 },
    ]);
    expect(dollars(1234.5)).toBe('$1,234.50');
  });
});

describe('budget alerts', () => {
  const budget = { accountId: '101', monthlyLimit: 10, warnAt: 0.8, stopEssential: false, month: '2026-11', spent: 0, exhausted: false };

  it('warns from the threshold, is exhausted at the limit, and says nothing below', () => {
    expect(budgetAlertOf({ ...budget, spent: 7.99 })).toBeNull();
    expect(budgetAlertOf({ ...budget, spent: 8 })).toMatchObject({ level: 'warning', spent: 8, monthlyLimit: 10 });
    expect(budgetAlertOf({ ...budget, spent: 10, exhausted: true })).toMatchObject({ level: 'exhausted' });
  });

  it('makes a new episode of another month or level, and of credit spent again', () => {
    const warning = budgetAlertOf({ ...budget, spent: 9 })!;
    expect(budgetEpisode(warning)).not.toBe(budgetEpisode({ ...warning, level: 'exhausted' }));
    expect(budgetEpisode(warning)).not.toBe(budgetEpisode({ ...warning, month: '2026-12' }));
    expect(creditEpisode('2026-11-27T04:00:00Z')).not.toBe(creditEpisode('2026-11-27T05:00:00Z'));
  });
});
