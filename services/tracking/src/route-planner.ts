import { LRUCache } from 'lru-cache';
import type { Logger } from '@crm/logging';
import type { OsrmRouter } from './adapters/osrm-router';
import { straightLineRoute, type LatLng, type Route, type StraightLineOptions } from './domain/geo';

export interface RoutePlannerOptions {
  /** The OSRM-compatible router, when ROUTING_URL is set. */
  router: OsrmRouter | null;
  estimate: StraightLineOptions;
  logger: Logger;
}

/** A route between the same two points is the same route for this long. */
const ROUTE_TTL_MS = 60_000;
/** After a router failure, the estimate stands in for this long before the router is asked again. */
const FALLBACK_TTL_MS = 5_000;

/** Points closer than ~1 m share a cached route. */
const key = (from: LatLng, to: LatLng) => [from.lat, from.lng, to.lat, to.lng].map((n) => n.toFixed(5)).join(',');

/**
 * The route from the rider to the drop: from the router when there is one (cached by the
 * two points, concurrent asks coalesced), else, or when it fails, the straight-line estimate.
 */
export class RoutePlanner {
  private readonly cache: LRUCache<string, Route, { from: LatLng; to: LatLng }>;

  constructor(private readonly options: RoutePlannerOptions) {
    this.cache = new LRUCache<string, Route, { from: LatLng; to: LatLng }>({
      max: 10_000,
      ttl: ROUTE_TTL_MS,
      fetchMethod: async (_key, _stale, { context, options: entry }) => {
        try {
          return await options.router!.route(context.from, context.to);
        } catch (error) {
          options.logger.warn('router gave no route; using the straight-line estimate', { reason: (error as Error).message });
          entry.ttl = FALLBACK_TTL_MS;
          return straightLineRoute(context.from, context.to, options.estimate);
        }
      },
    });
  }

  async plan(from: LatLng, to: LatLng): Promise<Route> {
    if (!this.options.router) return straightLineRoute(from, to, this.options.estimate);
    return (await this.cache.fetch(key(from, to), { context: { from, to } }))!;
  }
}
