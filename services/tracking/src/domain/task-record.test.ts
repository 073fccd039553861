import { newestStatusPosition, readTask, reportedRiderPosition } from './task-record';

const record = (extra: Record<string, unknown> = {}) => ({
  taskId: 't-1',
  status: { status: 'STARTED', triggerTime: '2026-03-01T10:00:30.000Z' },
  assignedUser: { userId: 'u-1', name: 'Ravi', phoneNumber: '+91 98000 00000' },
  eta: '2026-03-01T10:20:00.000Z',
  taskGraph: {
    visits: [
      { id: 'p', trackLink: 'https://t.example/p', locationOptions: [{ location: { latitude: 12.97, longitude: 77.59 } }] },
      {
        id: 'd',
        trackLink: 'https://t.example/d',
        locationOptions: [{ location: { latitude: 12.98, longitude: 77.6 }, addressDetails: { name: 'Home', formattedAddress: 'Flat 4, Indiranagar' } }],
      },
    ],
    statuses: [
      { status: 'ASSIGNED', time: '2026-03-01T10:00:00.000Z', latlng: { latitude: 12.9, longitude: 77.5 } },
      { status: 'STARTED', time: '2026-03-01T10:00:30.000Z', latlng: { latitude: 12.97, longitude: 77.59 } },
    ],
  },
  ...extra,
});

describe('reading the provider task record', () => {
  it('takes the rider position from its one mapped field, with its time', () => {
    const facts = readTask(record({ riderLocation: { latitude: 12.975, longitude: 77.595, time: '2026-03-01T10:05:00.000Z' } }));
    expect(facts).toEqual({
      status: 'STARTED',
      statusAt: '2026-03-01T10:00:30.000Z',
      rider: { lat: 12.975, lng: 77.595, recordedAt: '2026-03-01T10:05:00.000Z', source: 'live', name: 'Ravi', phone: '+91 98000 00000' },
      drop: { lat: 12.98, lng: 77.6, address: 'Flat 4, Indiranagar' },
      trackLink: 'https://t.example/d',
      providerEta: '2026-03-01T10:20:00.000Z',
    });
  });

  it('falls back to the newest status location when the field is absent, malformed or older', () => {
    const newest = { lat: 12.97, lng: 77.59, recordedAt: '2026-03-01T10:00:30.000Z', source: 'status' };
    expect(readTask(record()).rider).toMatchObject(newest);
    expect(readTask(record({ riderLocation: { latitude: 'x', longitude: 77.5, time: '2026-03-01T10:05:00.000Z' } })).rider).toMatchObject(newest);
    expect(readTask(record({ riderLocation: { latitude: 12.9, longitude: 77.5 } })).rider).toMatchObject(newest);
    expect(readTask(record({ riderLocation: { latitude: 12.9, longitude: 77.5, time: '2026-03-01T09:00:00.000Z' } })).rider).toMatchObject(newest);
    expect(reportedRiderPosition({ riderLocation: { latitude: 0, longitude: 0, time: '2026-03-01T09:00:00.000Z' } })).toBeNull();
    expect(newestStatusPosition({})).toBeNull();
  });

  it('copes with a record that has almost nothing', () => {
    expect(readTask({})).toEqual({ status: null, statusAt: null, rider: null, drop: null, trackLink: null, providerEta: null });
    expect(readTask({ status: 'STARTED', taskGraph: { visits: 'none', statuses: [null, 3] }, eta: 'soon' })).toMatchObject({ status: null, rider: null, providerEta: null });
  });

  it('reads an ETA given as epoch milliseconds', () => {
    expect(readTask(record({ eta: Date.parse('2026-03-01T10:20:00.000Z') })).providerEta).toBe('2026-03-01T10:20:00.000Z');
  });
});
