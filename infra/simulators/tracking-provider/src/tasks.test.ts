import { distanceMeters } from './geo';
import { osrmRoute, parseCoordinates } from './osrm';
import { newTask, PING_SECONDS, SCHEDULE, stateAt, taskRecord } from './tasks';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const pickup = { lat: 12.97, lng: 77.59, name: 'Store', address: 'Store, MG Road' };
const drop = { lat: 12.98, lng: 77.6, name: 'Customer', address: 'Flat 4, Indiranagar' };
const task = () => newTask({ clientId: 'acme', taskId: 't-1', nowMs: T0, pickup, drop, speedMps: 10 });
const at = (seconds: number) => T0 + seconds * 1000;

describe('a simulated task', () => {
  it('goes through the status lifecycle over time', () => {
    const t = task();
    const trip = t.pathMeters / t.speedMps;
    expect(stateAt(t, at(0)).status).toBe('ASSIGNED');
    expect(stateAt(t, at(SCHEDULE.notified)).status).toBe('NOTIFIED');
    expect(stateAt(t, at(SCHEDULE.acknowledged)).status).toBe('ACKNOWLEDGED');
    expect(stateAt(t, at(SCHEDULE.started + 1)).status).toBe('STARTED');
    expect(stateAt(t, at(SCHEDULE.started + trip + 1)).status).toBe('ARRIVED');
    const done = stateAt(t, at(SCHEDULE.started + trip + SCHEDULE.completeAfterArrival + 1));
    expect(done.status).toBe('COMPLETED');
    expect(done.history.map((m) => m.status)).toEqual(['ASSIGNED', 'NOTIFIED', 'ACKNOWLEDGED', 'STARTED', 'ARRIVED', 'COMPLETED']);
    expect(done.etaMs).toBeNull();
  });

  it('moves the rider from the pickup towards the drop, reporting pings with their time', () => {
    const t = task();
    const trip = t.pathMeters / t.speedMps;
    const waiting = stateAt(t, at(SCHEDULE.started - 1)).reported!;
    expect(distanceMeters(waiting, pickup)).toBeLessThan(1);
    const halfway = stateAt(t, at(SCHEDULE.started + trip / 2));
    const remaining = (p: { lat: number; lng: number }) => distanceMeters(p, drop);
    expect(remaining(halfway.reported!)).toBeLessThan(remaining(pickup));
    expect(remaining(halfway.reported!)).toBeGreaterThan(0);
    expect((halfway.reported!.atMs - T0) % (PING_SECONDS * 1000)).toBe(0);
    expect(halfway.etaMs).toBe(at(SCHEDULE.started + trip));
    const arrived = stateAt(t, at(SCHEDULE.started + trip + 10)).reported!;
    expect(remaining(arrived)).toBeLessThan(1);
  });

  it('stops reporting once the trip started when the position is frozen, and has no position field when absent', () => {
    const frozen = newTask({ clientId: 'acme', taskId: 't-2', nowMs: T0, pickup, drop, position: 'frozen' });
    expect(stateAt(frozen, at(600)).reported!.atMs).toBe(at(SCHEDULE.started));
    const absent = newTask({ clientId: 'acme', taskId: 't-3', nowMs: T0, pickup, drop, position: 'absent' });
    const record = taskRecord(absent, at(100), new Set(), 'http://sim/track');
    expect(record.riderLocation).toBeUndefined();
    expect((record.taskGraph as { statuses: unknown[] }).statuses).toHaveLength(4);
  });

  it('freezes where it was cancelled', () => {
    const t = task();
    t.endedAtMs = at(SCHEDULE.started + 20);
    t.endedAs = 'CANCELLED';
    const state = stateAt(t, at(SCHEDULE.started + 500));
    expect(state.status).toBe('CANCELLED');
    expect(state.etaMs).toBeNull();
    expect(state.history.at(-1)!.atMs).toBe(at(SCHEDULE.started + 20));
  });

  it('answers records in the provider shape, extra groups only when included', () => {
    const t = newTask({ clientId: 'acme', taskId: 't-4', nowMs: T0, pickup, drop, orderDetail: { lineItems: [{ name: 'Tea' }] } });
    const plain = taskRecord(t, at(60), new Set(), 'http://sim/track');
    expect(plain).toMatchObject({
      taskId: 't-4',
      clientId: 'acme',
      status: { status: 'STARTED' },
      assignedUser: { userId: expect.any(String), name: expect.any(String), phoneNumber: expect.any(String) },
      eta: expect.any(String),
      riderLocation: { latitude: expect.any(Number), longitude: expect.any(Number), time: expect.any(String) },
      taskGraph: {
        visits: [
          { id: 't-4-pickup', visitStatus: 'COMPLETED', trackLink: 'http://sim/track/acme/t-4' },
          { id: 't-4-drop', visitStatus: 'PENDING', locationOptions: [{ location: { latitude: 12.98, longitude: 77.6 }, addressDetails: { formattedAddress: 'Flat 4, Indiranagar' } }] },
        ],
      },
    });
    expect(plain.orderDetail).toBeUndefined();
    const full = taskRecord(t, at(60), new Set(['orderDetail', 'statusUpdates']), 'http://sim/track');
    expect(full.orderDetail).toEqual({ lineItems: [{ name: 'Tea' }] });
    expect(full.statusUpdates).toHaveLength(4);
  });
});

describe('the simulated router', () => {
  it('answers the OSRM route shape along the street network', () => {
    const answer = osrmRoute('77.59,12.97;77.6,12.98');
    expect(answer.status).toBe(200);
    const route = (answer.body.routes as { distance: number; duration: number; geometry: { type: string; coordinates: number[][] } }[])[0]!;
    expect(answer.body.code).toBe('Ok');
    expect(route.geometry.type).toBe('LineString');
    expect(route.geometry.coordinates[0]).toEqual([77.59, 12.97]);
    expect(route.geometry.coordinates.at(-1)).toEqual([77.6, 12.98]);
    expect(route.distance).toBeGreaterThan(distanceMeters(pickup, drop));
    expect(route.duration).toBeGreaterThan(0);
  });

  it('answers NoRoute with 400 when no road joins the points, InvalidQuery when malformed', () => {
    expect(osrmRoute('77.59,12.97;-74.0,40.7')).toMatchObject({ status: 400, body: { code: 'NoRoute' } });
    expect(osrmRoute('77.59,12.97')).toMatchObject({ status: 400, body: { code: 'InvalidQuery' } });
    expect(parseCoordinates('x,1;2,3')).toBeNull();
    expect(parseCoordinates('1,95;2,3')).toBeNull();
  });
});
