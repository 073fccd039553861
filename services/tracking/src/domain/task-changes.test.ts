import { changeEventId, compareTask, taskStatusOf, UNSEEN, type KnownTask } from './task-changes';
import type { TaskFacts } from './task-record';

const SETTINGS = { etaMovedThresholdSeconds: 300, riderSilentAfterSeconds: 120 };
const T0 = Date.parse('2026-01-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const iso = (seconds: number) => at(seconds).toISOString();

const facts = (over: Partial<TaskFacts> & { riderAt?: number } = {}): TaskFacts => ({
  status: 'STARTED',
  statusAt: iso(0),
  rider: { lat: 1, lng: 1, recordedAt: iso(over.riderAt ?? 0), source: 'live', name: null, phone: null },
  drop: null,
  trackLink: null,
  providerEta: iso(1_200),
  ...over,
});

/** What is known after a first record at t = 0 (the baseline). */
const baseline = (): KnownTask => compareTask(UNSEEN, facts(), at(0), SETTINGS, at(0))!.known;

describe('comparing a followed task', () => {
  it('takes the first record as the baseline, announcing nothing', () => {
    const first = compareTask(UNSEEN, facts(), at(0), SETTINGS, at(0))!;
    expect(first.changes).toEqual([]);
    expect(first.known).toMatchObject({ status: 'out_for_delivery', providerStatus: 'STARTED', eta: iso(1_200) });
  });

  it('announces a new status once, and ends at a terminal one', () => {
    const cancelled = compareTask(baseline(), facts({ status: 'CANCELLED', statusAt: iso(30) }), at(30), SETTINGS, at(30))!;
    expect(cancelled.changes).toEqual([{ kind: 'status_changed', from: 'out_for_delivery', to: 'cancelled', providerStatus: 'CANCELLED', statusAt: iso(30) }]);
    expect(cancelled.ended).toBe(true);
    expect(compareTask(cancelled.known, facts({ status: 'CANCELLED', statusAt: iso(30) }), at(31), SETTINGS, at(31))!.changes).toEqual([]);
  });

  it('ignores a record fetched before the newest compared, and a provider status within the same meaning', () => {
    const known = { ...baseline(), observedAt: iso(60) };
    expect(compareTask(known, facts({ status: 'CANCELLED' }), at(59), SETTINGS, at(61))).toBeNull();
    expect(compareTask(known, facts({ status: 'ARRIVED', statusAt: iso(61) }), at(61), SETTINGS, at(61))!.changes).toEqual([]);
    expect(taskStatusOf('SOMETHING_NEW')).toBeNull();
  });

  it('announces an ETA move at the threshold, measured from the ETA last announced', () => {
    const drift = compareTask(baseline(), facts({ providerEta: iso(1_200 + 240) }), at(10), SETTINGS, at(10))!;
    expect(drift.changes).toEqual([]);
    const moved = compareTask(drift.known, facts({ providerEta: iso(1_200 + 300) }), at(20), SETTINGS, at(20))!;
    expect(moved.changes).toEqual([{ kind: 'eta_moved', previousEta: iso(1_200), eta: iso(1_500), movedBySeconds: 300 }]);
  });

  it('announces a silent rider once per silence while out for delivery', () => {
    const silent = compareTask(baseline(), facts(), at(120), SETTINGS, at(120))!;
    expect(silent.changes).toEqual([{ kind: 'rider_silent', lastPositionAt: iso(0), silentAfterSeconds: 120 }]);
    expect(compareTask(silent.known, facts(), at(200), SETTINGS, at(200))!.changes).toEqual([]);
    const heard = compareTask(silent.known, facts({ riderAt: 210 }), at(210), SETTINGS, at(210))!;
    expect(heard.changes).toEqual([]);
    expect(compareTask(heard.known, facts({ riderAt: 210 }), at(330), SETTINGS, at(330))!.changes).toEqual([{ kind: 'rider_silent', lastPositionAt: iso(210), silentAfterSeconds: 120 }]);
    expect(compareTask({ ...baseline(), status: 'assigned' }, facts({ status: 'ACKNOWLEDGED' }), at(500), SETTINGS, at(500))!.changes).toEqual([]);
  });

  it('gives the same change the same event id, another change another', () => {
    const change = { kind: 'status_changed', from: 'assigned', to: 'cancelled', providerStatus: 'CANCELLED', statusAt: iso(5) } as const;
    expect(changeEventId('acme', 't-1', change)).toBe(changeEventId('acme', 't-1', { ...change, from: 'out_for_delivery' }));
    expect(changeEventId('acme', 't-1', change)).not.toBe(changeEventId('acme', 't-2', change));
  });
});
