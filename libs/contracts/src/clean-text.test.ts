import { cleanJson, cleanText } from './clean-text';

describe('cleaning text for storage', () => {
  it('replaces NUL and lone surrogates, keeping everything else (pairs included)', () => {
    expect(cleanText('a\u0000b')).toBe('a\uFFFDb');
    expect(cleanText('x\uD800y')).toBe('x\uFFFDy');
    expect(cleanText('x\uDC00')).toBe('x\uFFFD');
    expect(cleanText('ok 😀 ñ')).toBe('ok 😀 ñ');
  });

  it('cleans every string of a JSON value, keys included', () => {
    expect(cleanJson({ 'k\u0000': ['a\u0000', 1, null, { deep: '\uDFFF' }], n: 2, b: true })).toEqual({ 'k\uFFFD': ['a\uFFFD', 1, null, { deep: '\uFFFD' }], n: 2, b: true });
  });
});
