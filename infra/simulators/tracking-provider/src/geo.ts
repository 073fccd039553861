/** Paths of the simulated world (WGS84 degrees, metres). */
import { greatCircleMeters as distanceMeters, type LatLng } from '@crm/geo';

export { distanceMeters, type LatLng };

const STEPS_PER_LEG = 8;

function leg(from: LatLng, to: LatLng): LatLng[] {
  return Array.from({ length: STEPS_PER_LEG }, (_, i) => {
    const f = (i + 1) / STEPS_PER_LEG;
    return { lat: from.lat + (to.lat - from.lat) * f, lng: from.lng + (to.lng - from.lng) * f };
  });
}

/**
 * The simulated street network: a road goes east-west first, then north-south (an L), so a
 * route is longer than the straight line, as real ones are. Riders move along the same path
 * the simulated router answers, so the two agree at every point of a trip.
 */
export function streetPath(from: LatLng, to: LatLng): LatLng[] {
  const corner = { lat: from.lat, lng: to.lng };
  return [from, ...leg(from, corner), ...leg(corner, to)];
}

export function pathLength(path: LatLng[]): number {
  let total = 0;
  for (let i = 1; i < path.length; i += 1) total += distanceMeters(path[i - 1]!, path[i]!);
  return total;
}

/** The point `meters` along `path` (its end when the path is shorter). */
export function pointAlong(path: LatLng[], meters: number): LatLng {
  let left = Math.max(0, meters);
  for (let i = 1; i < path.length; i += 1) {
    const a = path[i - 1]!;
    const b = path[i]!;
    const length = distanceMeters(a, b);
    if (left <= length && length > 0) {
      const f = left / length;
      return { lat: a.lat + (b.lat - a.lat) * f, lng: a.lng + (b.lng - a.lng) * f };
    }
    left -= length;
  }
  return path[path.length - 1]!;
}
