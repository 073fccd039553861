import { exceedsJsonDepth } from './json-depth';

describe('exceedsJsonDepth', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(exceedsJsonDepth('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(exceedsJsonDepth('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(exceedsJsonDepth(`{"text":"${'['.repeat(100)}\\"${'{'.repeat(100)}"}`, 1)).toBe(false);
  });

  it('tells many shallow objects from a deep one, however many brackets there are in all', () => {
    expect(exceedsJsonDepth(`[${'{"a":[1]},'.repeat(200)}{}]`, 3)).toBe(false);
    expect(exceedsJsonDepth(`[${'{"a":[1]},'.repeat(200)}{"a":[[1]]}]`, 3)).toBe(true);
  });

  it('reads 1,000,000 levels without a stack overflow', () => {
    expect(exceedsJsonDepth('['.repeat(1_000_000), 64)).toBe(true);
    expect(exceedsJsonDepth(`${'['.repeat(64)}${']'.repeat(64)}`, 64)).toBe(false);
  });
});
