/** The routes of an express 5 app, read from its router (so new routes are fuzzed without a list to keep). */

export interface RouteInfo {
  method: string;
  path: string;
}

interface LayerLike {
  route?: { path: unknown; methods?: Record<string, boolean> };
  handle?: { stack?: LayerLike[] };
}

function walk(stack: LayerLike[] | undefined, found: RouteInfo[]): void {
  for (const layer of stack ?? []) {
    if (layer.route && typeof layer.route.path === 'string') {
      for (const [method, on] of Object.entries(layer.route.methods ?? {})) {
        if (on && method !== '_all') found.push({ method: method.toUpperCase(), path: layer.route.path });
      }
    } else if (layer.handle?.stack) {
      walk(layer.handle.stack, found); // a router mounted without a path (auth's)
    }
  }
}

/** A stream answers 200 and stays open by design (`GET /v1/events`): its tests cover it, not the fuzzer, which waits for answers to end. */
const isStream = (route: RouteInfo) => route.method === 'GET' && route.path === '/v1/events';

export function routesOf(app: { router?: unknown }): RouteInfo[] {
  const found: RouteInfo[] = [];
  walk((app.router as { stack?: LayerLike[] } | undefined)?.stack, found);
  return found.filter((route) => !isStream(route));
}

/**
 * Routes anyone may call: health checks and metrics (for the platform's probes and scrapers;
 * they hold no secrets and no personal data), a service's OpenAPI document and its docs page,
 * the pages a browser visits on its way back from the platform, and the CRC challenge (its
 * answer proves the key without revealing it). A POST to the webhook is not: it needs a valid
 * signature.
 */
export function isPublic(route: RouteInfo): boolean {
  if (route.path.startsWith('/webhooks/')) return route.method === 'GET';
  if (route.path === '/openapi.json' || route.path === '/docs' || route.path.startsWith('/docs/assets/')) return route.method === 'GET';
  return route.path.startsWith('/health/') || route.path === '/metrics' || route.path === '/v1/oauth/callback' || route.path === '/v1/oauth/connected';
}
