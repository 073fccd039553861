import type { TrackingFreshness } from '@crm/contracts';
import { greatCircleMeters, straightLineRoute, type Route } from './geo';
import { buildLiveView, routeEnds } from './live-view';
import type { TaskFacts } from './task-record';

const now = new Date('2026-03-01T10:10:00.000Z');
const freshness: TrackingFreshness = { fetchedAt: '2026-03-01T10:09:59.000Z', ageSeconds: 1, stale: false, staleReason: null };
const facts = (over: Partial<TaskFacts> = {}): TaskFacts => ({
  status: 'STARTED',
  statusAt: '2026-03-01T10:00:30.000Z',
  rider: { lat: 12.97, lng: 77.59, recordedAt: '2026-03-01T10:09:30.000Z', source: 'live', name: 'Ravi', phone: '+91 1' },
  drop: { lat: 12.98, lng: 77.6, address: 'Flat 4' },
  trackLink: 'https://t.example/d',
  providerEta: null,
  ...over,
});
const routerRoute: Route = { distanceMeters: 2300, durationSeconds: 400, geometry: { type: 'LineString', coordinates: [[77.59, 12.97], [77.6, 12.97], [77.6, 12.98]] }, source: 'router' };
const view = (f: TaskFacts, route: Route | null = routerRoute, riderStaleAfterSeconds = 120) =>
  buildLiveView({ clientId: 'acme', taskId: 't-1', facts: f, route, now, freshness, riderStaleAfterSeconds });

describe('great-circle estimate', () => {
  it('measures known distances with R = 6371 km', () => {
    // One degree of latitude is 111.19 km on a sphere of radius 6371 km.
    expect(greatCircleMeters({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(111_194.9, 0);
    expect(greatCircleMeters({ lat: 12.97, lng: 77.59 }, { lat: 12.97, lng: 77.59 })).toBe(0);
  });

  it('multiplies by the detour factor and divides by the assumed speed, as a straight line', () => {
    const route = straightLineRoute({ lat: 0, lng: 0 }, { lat: 1, lng: 0 }, { detourFactor: 1.2, speedKmh: 18 });
    expect(route.distanceMeters).toBe(Math.round(111_194.93 * 1.2));
    expect(route.durationSeconds).toBe(Math.round((111_194.93 * 1.2) / 5));
    expect(route).toMatchObject({ source: 'straight-line', geometry: { type: 'LineString', coordinates: [[0, 0], [0, 1]] } });
  });
});

describe('live view', () => {
  it('shows the rider with the age of the position, the drop, the route and an ETA from the route', () => {
    expect(view(facts())).toEqual({
      clientId: 'acme',
      taskId: 't-1',
      status: 'STARTED',
      active: true,
      rider: { lat: 12.97, lng: 77.59, recordedAt: '2026-03-01T10:09:30.000Z', ageSeconds: 30, stale: false, source: 'live', name: 'Ravi', phone: '+91 1' },
      drop: { lat: 12.98, lng: 77.6, address: 'Flat 4' },
      route: routerRoute,
      eta: { at: '2026-03-01T10:16:40.000Z', approximate: false, source: 'route' },
      trackLink: 'https://t.example/d',
      notice: null,
      freshness,
    });
  });

  it('prefers the provider ETA, and labels a straight-line or stale-position ETA approximate', () => {
    expect(view(facts({ providerEta: '2026-03-01T10:30:00.000Z' })).eta).toEqual({ at: '2026-03-01T10:30:00.000Z', approximate: false, source: 'provider' });
    const straight = straightLineRoute({ lat: 12.97, lng: 77.59 }, { lat: 12.98, lng: 77.6 }, { detourFactor: 1.2, speedKmh: 18 });
    expect(view(facts(), straight).eta).toMatchObject({ approximate: true, source: 'route' });
    const stale = view(facts({ rider: { ...facts().rider!, recordedAt: '2026-03-01T10:00:00.000Z' } }));
    expect(stale.rider).toMatchObject({ ageSeconds: 600, stale: true });
    expect(stale.eta).toMatchObject({ approximate: true });
  });

  it.each([
    ['COMPLETED', 'completed', 'delivered'],
    ['PARTIAL_COMPLETED', 'partially_completed', 'partly delivered'],
    ['CANCELLED', 'cancelled', 'cancelled'],
  ])('a %s task says so instead of a route, without the rider', (status, code, words) => {
    const v = view(facts({ status, statusAt: '2026-03-01T10:08:00.000Z' }));
    expect(v).toMatchObject({ status, active: false, rider: null, route: null, eta: null, drop: { address: 'Flat 4' } });
    expect(v.notice).toEqual({ code, message: expect.stringContaining(words) });
    expect(v.notice!.message).toContain('2026-03-01T10:08:00.000Z');
    expect(routeEnds(facts({ status }))).toBeNull();
  });

  it('has no route for a task that is not under way, or lacks the rider or the drop', () => {
    expect(view(facts({ status: 'UNASSIGNED' }))).toMatchObject({ active: false, route: null, notice: { code: 'not_active' } });
    expect(routeEnds(facts({ rider: null }))).toBeNull();
    expect(view(facts({ rider: null }), null)).toMatchObject({ active: true, rider: null, route: null, eta: null, notice: { code: 'no_rider_position' } });
    expect(view(facts({ drop: null }), null)).toMatchObject({ active: true, route: null, notice: { code: 'no_drop_location' } });
    expect(view(facts({ rider: null, providerEta: '2026-03-01T10:30:00.000Z' }), null).eta).toMatchObject({ source: 'provider' });
  });

  it('never reports a negative age for a position stamped a little in the future', () => {
    expect(view(facts({ rider: { ...facts().rider!, recordedAt: '2026-03-01T10:10:05.000Z' } })).rider!.ageSeconds).toBe(0);
  });
});
