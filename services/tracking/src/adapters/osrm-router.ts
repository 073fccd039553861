import axios, { type AxiosInstance } from 'axios';
import type { LatLng, Route } from '../domain/geo';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const isCoordinate = (value: unknown): value is [number, number] =>
  Array.isArray(value) && value.length >= 2 && typeof value[0] === 'number' && typeof value[1] === 'number';

/**
 * An OSRM-compatible router (`ROUTING_URL`): the road route between two points, with its
 * full geometry as GeoJSON. Throws with the reason when there is none (NoRoute, NoSegment,
 * a failure or a timeout); the caller falls back to the straight-line estimate.
 */
export class OsrmRouter {
  private readonly http: AxiosInstance;

  constructor(baseUrl: string, timeoutMs: number) {
    this.http = axios.create({ baseURL: baseUrl.replace(/\/$/, ''), timeout: timeoutMs, maxRedirects: 0, validateStatus: () => true });
  }

  async route(from: LatLng, to: LatLng): Promise<Route> {
    const url = `/route/v1/driving/${from.lng},${from.lat};${to.lng},${to.lat}`;
    const response = await this.http.get<unknown>(url, { params: { overview: 'full', geometries: 'geojson' } });
    const body = isObject(response.data) ? response.data : {};
    if (response.status !== 200 || body.code !== 'Ok') {
      throw new Error(`router answered HTTP ${response.status}${typeof body.code === 'string' ? ` ${body.code}` : ''}`);
    }
    const route = Array.isArray(body.routes) && isObject(body.routes[0]) ? body.routes[0] : null;
    const geometry = route && isObject(route.geometry) ? route.geometry : null;
    const coordinates = geometry && Array.isArray(geometry.coordinates) ? geometry.coordinates : [];
    if (!route || typeof route.distance !== 'number' || typeof route.duration !== 'number' || geometry?.type !== 'LineString' || !coordinates.every(isCoordinate)) {
      throw new Error('router answered a route without distance, duration or LineString geometry');
    }
    return {
      distanceMeters: Math.round(route.distance),
      durationSeconds: Math.round(route.duration),
      geometry: { type: 'LineString', coordinates: coordinates.map(([lng, lat]) => [lng, lat]) },
      source: 'router',
    };
  }
}
