import { readConfig } from '../config';
import { budgetAllows, DEFAULT_RATE_CARD, meterAction, parseRateCard, resourcesOf } from './usage';

describe('the rate card', () => {
  it('overrides lines of the default card', () => {
    expect(parseRateCard('{"posts_read": 0.004}')).toEqual({ ...DEFAULT_RATE_CARD, posts_read: 0.004 });
    expect(parseRateCard('{}')).toEqual(DEFAULT_RATE_CARD);
  });

  it.each([
    ['not json', /JSON object of kind -> dollars/],
    ['[1]', /JSON object of kind -> dollars/],
    ['{"post_reads": 0.005}', /unknown kind "post_reads" \(known: posts_read, /],
    ['{"posts_read": "0.005"}', /"posts_read" "0.005": a price must be a number of dollars from 0 to 1000/],
    ['{"posts_read": -1}', /a price must be a number of dollars/],
  ])('refuses %s, saying what is wrong', (text, message) => {
    expect(() => parseRateCard(text)).toThrow(message);
  });

  it('stops auth at start with a line naming PLATFORM_RATE_CARD', () => {
    expect(() => readConfig({ NODE_ENV: 'test', PLATFORM_RATE_CARD: '{"posts_read": "cheap"}' })).toThrow(/PLATFORM_RATE_CARD.*a price must be a number of dollars/s);
  });
});

describe('metering an answer', () => {
  it('counts the resources of a v2 answer, one object or a list', () => {
    expect(resourcesOf({ data: [{ id: '1' }, { id: '2' }], includes: { users: [{ id: '9' }] } })).toEqual(['1', '2']);
    expect(resourcesOf({ data: { id: '7' } })).toEqual(['7']);
    expect(resourcesOf({ meta: { result_count: 0 } })).toEqual([]);
  });

  it('prices a post with a link on its own line, and leaves what the card does not list unpriced', () => {
    expect(meterAction('post', { text: 'see https://example.com' }, {})).toEqual({ kind: 'post_create_with_url', resourceIds: null });
    expect(meterAction('reply', { text: 'thanks!' }, {})).toEqual({ kind: 'post_create', resourceIds: null });
    expect(meterAction('indicate_typing', {}, {})).toBeNull();
  });
});

describe('a spent budget', () => {
  const budget = { accountId: '1', monthlyLimit: 10, warnAt: 0.8, stopEssential: false };
  it('stops optional calls only, unless it says stopEssential', () => {
    expect(budgetAllows(budget, 9.99, 'search_posts')).toBe(true);
    expect(budgetAllows(budget, 10, 'search_posts')).toBe(false);
    expect(budgetAllows(budget, 10, 'read_profile')).toBe(false);
    expect(budgetAllows(budget, 10, 'reply')).toBe(true);
    expect(budgetAllows(budget, 10, 'send_dm')).toBe(true);
    expect(budgetAllows(budget, 10, 'read_dms')).toBe(true);
    expect(budgetAllows({ ...budget, stopEssential: true }, 10, 'reply')).toBe(false);
    expect(budgetAllows(null, 1e9, 'search_posts')).toBe(true);
  });
});
