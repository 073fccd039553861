import type { Express, RequestHandler } from 'express';
import client from 'prom-client';

/**
 * Prometheus metrics (prom-client's default registry): the process's own (CPU, memory, event
 * loop, GC), HTTP requests by route template and status, and whatever the libs and the service
 * register (broker, database pool, outbox, service gauges). `/metrics` answers them all.
 */
client.collectDefaultMetrics();

const httpRequests = new client.Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route template and status code.',
  labelNames: ['method', 'route', 'status'] as const,
});
const httpDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from a request arriving to its answer being sent, by method, route template and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
});

/** The route template (`/v1/tickets/:id`), never the raw path: ids would make a series per ticket. */
export function routeOf(req: Parameters<RequestHandler>[0]): string {
  const route = req.route as { path?: unknown } | undefined;
  return typeof route?.path === 'string' ? `${req.baseUrl}${route.path}` : 'unmatched';
}

/** Counts and times one answered request. */
export function countAnswer(method: string, route: string, status: number, seconds: number): void {
  const labels = { method, route, status: String(status) };
  httpRequests.inc(labels);
  httpDuration.observe(labels, seconds);
}

/** `GET /metrics` in Prometheus' text format. */
export function metricsRoute(app: Express): void {
  app.get('/metrics', async (_req, res) => {
    res.set('content-type', client.register.contentType).send(await client.register.metrics());
  });
}
