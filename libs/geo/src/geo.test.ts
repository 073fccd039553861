import { greatCircleMeters } from './index';

describe('greatCircleMeters', () => {
  it('is zero for one point and symmetric', () => {
    const a = { lat: 12.9716, lng: 77.5946 };
    const b = { lat: 13.0827, lng: 80.2707 };
    expect(greatCircleMeters(a, a)).toBe(0);
    expect(greatCircleMeters(a, b)).toBeCloseTo(greatCircleMeters(b, a), 6);
  });

  it('matches known distances', () => {
    // one degree of latitude along a meridian: 2πR/360
    expect(greatCircleMeters({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(111_194.9, 0);
    // Bengaluru to Chennai, about 290 km as the crow flies
    expect(greatCircleMeters({ lat: 12.9716, lng: 77.5946 }, { lat: 13.0827, lng: 80.2707 }) / 1000).toBeCloseTo(290, -1);
  });
});
