import type { TrackingLiveView } from '@crm/contracts';
import { greatCircleMeters, type LatLng } from '@crm/geo';

export { greatCircleMeters, type LatLng };

export type Route = NonNullable<TrackingLiveView['route']>;

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
