import { clampToRetention, createdSubscription, isOutage, replayTime, replayWindow, subscriptionFilter, type ReplayRules } from './xaa';

const PLATFORM: ReplayRules = { minStartAgeMs: 31 * 60_000, minEndAgeMs: 10 * 60_000, maxAgeMs: 24 * 3_600_000 };
const at = (iso: string) => Date.parse(iso);

describe('replay windows', () => {
  it('covers the missed time in whole minutes, askable once both ends are old enough', () => {
    const window = replayWindow(at('2026-11-25T06:40:30Z'), at('2026-11-25T07:02:10Z'), PLATFORM);
    expect(replayTime(window.from)).toBe('202611250640');
    expect(replayTime(window.to)).toBe('202611250702');
    // The start must be 31 min old (07:11), the end 10 min (07:12): the later one decides.
    expect(new Date(window.notBefore).toISOString()).toBe('2026-11-25T07:12:00.000Z');
  });

  it('makes a window within one minute a minute long: the platform wants the start before the end', () => {
    const window = replayWindow(at('2026-11-25T06:40:05Z'), at('2026-11-25T06:40:50Z'), { minStartAgeMs: 0, minEndAgeMs: 0, maxAgeMs: PLATFORM.maxAgeMs });
    expect(window.to - window.from).toBe(60_000);
    expect(window.notBefore).toBe(window.to);
  });

  it('moves a start older than 24 h up, and drops a window that is wholly gone', () => {
    const now = at('2026-11-25T12:00:30Z');
    expect(clampToRetention({ from: at('2026-11-24T10:00:00Z'), to: at('2026-11-25T11:00:00Z') }, now, PLATFORM)).toEqual({ from: at('2026-11-24T12:01:00Z'), to: at('2026-11-25T11:00:00Z') });
    expect(clampToRetention({ from: at('2026-11-24T10:00:00Z'), to: at('2026-11-24T11:00:00Z') }, now, PLATFORM)).toBeNull();
  });

  it('calls a gap longer than the threshold an outage; no heartbeat yet is none', () => {
    expect(isOutage(at('2026-11-25T07:00:00Z'), at('2026-11-25T07:02:01Z'), 120_000)).toBe(true);
    expect(isOutage(at('2026-11-25T07:00:00Z'), at('2026-11-25T07:01:59Z'), 120_000)).toBe(false);
    expect(isOutage(null, at('2026-11-25T07:00:00Z'), 120_000)).toBe(false);
  });
});

it('subscribes likes only in the direction of the account', () => {
  expect(subscriptionFilter('42', 'like.create')).toEqual({ user_id: '42', direction: 'inbound' });
  expect(subscriptionFilter('42', 'dm.received')).toEqual({ user_id: '42' });
});

it('reads a created subscription nested in data.subscription, or flat in data', () => {
  expect(createdSubscription({ data: { subscription: { subscription_id: '7', event_type: 'dm.received' } } })).toMatchObject({ subscription_id: '7' });
  expect(createdSubscription({ data: { subscription_id: '8', event_type: 'dm.received' } })).toMatchObject({ subscription_id: '8' });
  expect(createdSubscription({ errors: [] })).toBeNull();
});
