import safeRegex from 'safe-regex2';
import { checkReferences, DEFAULT_REFERENCES, findReferences, MAX_SCANNED_CHARS, ordersWithDefaults } from './order-references';

const found = (text: string) => findReferences(text, DEFAULT_REFERENCES).map((match) => [match.reference, match.taskId]);

describe('order references in a text', () => {
  it.each([
    ['where is my order 4711?', [['order 4711', '4711']]],
    ['Order #4711 has not come', [['Order #4711', '4711']]],
    ['my order no. 4711 please', [['order no. 4711', '4711']]],
    ['about #4711, still nothing', [['#4711', '4711']]],
    ['see http://sim.test/track/demo/4711 it stopped', [['http://sim.test/track/demo/4711', '4711']]],
    ['order 4711 and order 4712, order 4711 again', [['order 4711', '4711'], ['order 4712', '4712']]],
  ])('finds the defaults in %j', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it.each(['my order is late', 'call me at 555', 'colour &#4711; entity', 'ordering 4711 things'])('finds nothing in %j', (text) => {
    expect(found(text)).toEqual([]);
  });

  it('applies a configured template and reads only the start of a long text', () => {
    const references = [{ pattern: 'ref[ -]?([0-9]{4,10})', taskId: 'ORD-$1' }];
    expect(findReferences('Ref-123456 please', references)).toEqual([{ reference: 'Ref-123456', taskId: 'ORD-123456' }]);
    expect(findReferences(`${'x'.repeat(MAX_SCANNED_CHARS)} ref 123456`, references)).toEqual([]);
  });

  it('keeps the default patterns safe', () => {
    expect(DEFAULT_REFERENCES.every((reference) => safeRegex(reference.pattern))).toBe(true);
    expect(checkReferences(DEFAULT_REFERENCES)).toEqual([]);
  });
});

describe('checking configured references', () => {
  it('names a pattern that is not a regular expression, is catastrophic or has the wrong groups, and a template without $1', () => {
    const problems = checkReferences([
      { pattern: 'order (', taskId: '$1' },
      { pattern: '(a+)+$', taskId: '$1' },
      { pattern: 'order ([0-9]+)-([0-9]+)', taskId: '$1' },
      { pattern: 'order ([0-9]+)', taskId: 'fixed' },
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/^\/orders\/references\/0\/pattern is not a valid regular expression/),
      expect.stringMatching(/^\/orders\/references\/1\/pattern could take very long/),
      expect.stringMatching(/^\/orders\/references\/2\/pattern must have exactly one capture group \(it has 2\)/),
      expect.stringMatching(/^\/orders\/references\/3\/taskId must contain \$1/),
    ]);
  });

  it('fills in the rules', () => {
    expect(ordersWithDefaults({ trackingClientId: 'demo', rules: { slipMinutes: 10 } })).toEqual({
      trackingClientId: 'demo',
      references: [],
      rules: { slipMinutes: 10, raisePriorityOnSlip: true, reopenOnFailure: true, suggestResolveOnDelivery: true },
    });
    expect(ordersWithDefaults(null)).toBeNull();
  });
});
