import type { TrackingLiveView } from '@crm/contracts';

export interface LatLng {
  lat: number;
  lng: number;
}

export type Route = NonNullable<TrackingLiveView['route']>;

const EARTH_RADIUS_M = 6_371_000;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance (haversine, R = 6371 km). */
export function greatCircleMeters(a: LatLng, b: LatLng): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface StraightLineOptions {
  /** Roads are longer than the straight line: ~1.2 in cities. */
  detourFactor: number;
  speedKmh: number;
}

/**
 * The route when no router is configured (or it fails): the great-circle distance times a
 * detour factor, at an assumed speed, drawn as a straight line. Labelled `straight-line`
 * so the pop-up shows it as approximate.
 */
export function straightLineRoute(from: LatLng, to: LatLng, options: StraightLineOptions): Route {
  const distanceMeters = greatCircleMeters(from, to) * options.detourFactor;
  return {
    distanceMeters: Math.round(distanceMeters),
    durationSeconds: Math.round(distanceMeters / ((options.speedKmh * 1000) / 3600)),
    geometry: { type: 'LineString', coordinates: [[from.lng, from.lat], [to.lng, to.lat]] },
    source: 'straight-line',
  };
}
