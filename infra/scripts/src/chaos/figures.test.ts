import { closingLine, commitLatency, duringAFault, lostByFault, outOfOrder, outOfOrderByFault, outOfOrderPairs, percentile } from './figures';

describe('chaos figures', () => {
  it('counts the lost deliveries by the fault in effect when each was accepted', () => {
    const faults = [
      { name: 'node frozen', startedAt: 1_000, endedAt: 2_000 },
      { name: 'replica killed', startedAt: 5_000, endedAt: 6_000 },
    ];
    expect(lostByFault([1_500, 1_999, 3_000, 5_000], faults)).toEqual(['2 accepted during node frozen', '1 accepted outside the faults', '1 accepted during replica killed']);
    expect(lostByFault([], faults)).toEqual([]);
  });

  it('takes percentiles by rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(values, 50), percentile(values, 99), percentile(values, 100)]).toEqual([50, 99, 100]);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 99)).toBeNaN();
  });

  it('splits webhook-to-commit latency by whether the delivery was accepted while a fault was in effect', () => {
    const faults = [{ name: 'node killed', startedAt: 1_000, endedAt: 2_000 }];
    expect(duringAFault(1_500, faults)).toBe(true);
    expect(duringAFault(2_001, faults)).toBe(false);
    const latency = commitLatency(
      [
        { acceptedAt: 500, committedAt: 510 },
        { acceptedAt: 1_200, committedAt: 3_200 },
        { acceptedAt: 2_500, committedAt: 2_530 },
      ],
      faults,
    );
    expect(latency).toEqual({ during: { count: 1, p50: 2_000, p99: 2_000 }, outside: { count: 2, p50: 10, p99: 30 } });
  });

  it('counts a message committed before the one its sender sent before it', () => {
    const recorded = [
      { conversation: 'a', position: 1, recordedAt: 100 },
      { conversation: 'a', position: 2, recordedAt: 100 }, // the same transaction: in order
      { conversation: 'a', position: 3, recordedAt: 90 }, // begun before message 2's: out of order
      { conversation: 'b', position: 1, recordedAt: 50 }, // another conversation's times do not count
      { conversation: 'b', position: 2, recordedAt: 60 },
    ];
    expect(outOfOrder(recorded)).toBe(1);
    expect(outOfOrder([...recorded].reverse())).toBe(1);
  });

  it('counts the messages out of order by the fault begun last before the earlier one committed', () => {
    const recorded = [
      { conversation: 'a', position: 1, recordedAt: 2_500 },
      { conversation: 'a', position: 2, recordedAt: 2_400 },
      { conversation: 'b', position: 1, recordedAt: 9_000 },
      { conversation: 'b', position: 2, recordedAt: 8_000 },
    ];
    const faults = [
      { name: 'node frozen', startedAt: 1_000, endedAt: 2_000 },
      { name: 'primary killed', startedAt: 5_000, endedAt: 6_000 },
    ];
    expect(outOfOrderByFault(outOfOrderPairs(recorded), faults)).toEqual([
      '1 after node frozen (the earlier one committed 0.5 .. 0.5 s from its end)',
      '1 after primary killed (the earlier one committed 3 .. 3 s from its end)',
    ]);
  });

  it('ends a run with one line of figures', () => {
    expect(closingLine({ accepted: 10, recorded: 10, lost: 0, doubled: 0, outOfOrder: 0, faults: 5 })).toBe('chaos: accepted 10, recorded 10, lost 0, doubled 0, out of order 0, faults 5');
  });
});
