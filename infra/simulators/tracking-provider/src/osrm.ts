import { DEFAULT_SPEED_MPS } from './tasks';
import { distanceMeters, pathLength, streetPath, type LatLng } from './geo';

/** Beyond this straight-line distance the simulated world has no road between two points. */
export const NO_ROUTE_BEYOND_METERS = 1_000_000;

export type OsrmAnswer = { status: number; body: Record<string, unknown> };

/** Parses `{lon},{lat};{lon},{lat}` as OSRM takes it; null when malformed. */
export function parseCoordinates(text: string): LatLng[] | null {
  const points = text.split(';').map((pair) => {
    const [lng, lat, ...rest] = pair.split(',').map((part) => (part.trim() === '' ? Number.NaN : Number(part)));
    if (rest.length > 0 || lng === undefined || lat === undefined || !Number.isFinite(lng) || !Number.isFinite(lat)) return null;
    if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
    return { lat, lng };
  });
  return points.length >= 2 && points.every(Boolean) ? (points as LatLng[]) : null;
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/**
 * Answers the OSRM route API (`/route/v1/driving/...?overview=full&geometries=geojson`) over
 * the simulated street network, as an OSRM server would: legs per waypoint pair, GeoJSON
 * [lon, lat] coordinates, `NoRoute` (HTTP 400) when no road joins the points.
 */
export function osrmRoute(coordinates: string): OsrmAnswer {
  const points = parseCoordinates(coordinates);
  if (!points) return { status: 400, body: { code: 'InvalidQuery', message: 'Query string malformed close to position 0' } };
  const legs = [];
  const path: LatLng[] = [points[0]!];
  for (let i = 1; i < points.length; i += 1) {
    const from = points[i - 1]!;
    const to = points[i]!;
    if (distanceMeters(from, to) > NO_ROUTE_BEYOND_METERS) return { status: 400, body: { code: 'NoRoute', message: 'Impossible route between points' } };
    const leg = streetPath(from, to);
    const meters = pathLength(leg);
    legs.push({ distance: round(meters, 1), duration: round(meters / DEFAULT_SPEED_MPS, 1), steps: [], summary: '', weight: round(meters / DEFAULT_SPEED_MPS, 1) });
    path.push(...leg.slice(1));
  }
  const distance = legs.reduce((sum, leg) => sum + leg.distance, 0);
  const duration = legs.reduce((sum, leg) => sum + leg.duration, 0);
  return {
    status: 200,
    body: {
      code: 'Ok',
      routes: [
        {
          distance: round(distance, 1),
          duration: round(duration, 1),
          weight: round(duration, 1),
          weight_name: 'duration',
          geometry: { type: 'LineString', coordinates: path.map((p) => [round(p.lng, 6), round(p.lat, 6)]) },
          legs,
        },
      ],
      waypoints: points.map((p) => ({ location: [p.lng, p.lat], name: '', distance: 0 })),
    },
  };
}
