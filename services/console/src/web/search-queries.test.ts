import { everyWords, monthlyCostWords, searchQueryStateWords } from '../../web/src/searchQueries';

const at = (iso: string) => iso.slice(11, 16);
const state = { lastRunAt: '2026-11-27T10:05:00Z', lastMatches: 0, lastError: null, intervalSeconds: 300, currentIntervalSeconds: 300, estimatedMonthlyCost: 0.42 };

describe("a search query's state in words", () => {
  it('says its last run, its pace and a month of runs at that pace', () => {
    expect(searchQueryStateWords(state, at)).toBe('last run 10:05, 0 new; runs every 5 min, about $0.42 a month at this pace');
  });

  it('says when the pace has stretched because runs found nothing', () => {
    expect(searchQueryStateWords({ ...state, currentIntervalSeconds: 2400, estimatedMonthlyCost: 0.004 }, at)).toBe(
      'last run 10:05, 0 new; runs every 40 min (slowed while it finds nothing), less than $0.01 a month at this pace',
    );
  });

  it('says nothing of cost before a run, and names the last error', () => {
    expect(searchQueryStateWords({ ...state, lastRunAt: null, estimatedMonthlyCost: null }, at)).toBe('not run yet; runs every 5 min');
    expect(searchQueryStateWords({ ...state, lastError: { message: 'the budget is spent' } }, at)).toContain('; last error: the budget is spent');
  });

  it('words intervals and amounts', () => {
    expect([everyWords(45), everyWords(600), everyWords(3 * 3600)]).toEqual(['every 45 s', 'every 10 min', 'every 3 h']);
    expect([monthlyCostWords(0), monthlyCostWords(0.004), monthlyCostWords(12.5)]).toEqual(['about $0.00 a month', 'less than $0.01 a month', 'about $12.50 a month']);
  });
});
