import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { match, type MatchFunction } from 'path-to-regexp';
import { nameServerSpan } from '@crm/telemetry';
import { runWithContext, type Logger } from '@crm/logging';
import { errorAnswer } from './errors';
import { countAnswer } from './metrics';

/** What a hot route answers: a status and a JSON body. */
export interface HotAnswer {
  status: number;
  json: unknown;
}

/**
 * A route served by Node's HTTP server directly, ahead of Express: for the one path where
 * Express's per-request work (its request and response objects, the middleware chain) is
 * most of the cost, webhook-ingest's deliveries. It gets what every answer gets (security
 * headers, request and correlation ids, the access log line, metrics, the error format) and
 * nothing else: no body parsing, no query cleaning, no middleware added to the app later.
 * The handler reads the request (its body too) and answers, or throws.
 */
export interface HotRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** An Express path, e.g. `/webhooks/:envName`; also the route label of the metrics. */
  path: string;
  handle: (req: IncomingMessage, params: Record<string, string>) => Promise<HotAnswer>;
  /** Turns the route's own errors into Refusals (others go on: 4xx from the body reader, 500). */
  translateError?: (error: unknown, params: Record<string, string>) => unknown;
  /**
   * Level of the access log line of a 2xx answer (others: as every route). `debug` where
   * successes come by the thousand a second and the metrics count them.
   */
  successLogLevel?: 'info' | 'debug';
}

/** What every answer carries besides its own headers, from app.ts (helmet's, asked once). */
export interface AnswerBasics {
  securityHeaders: ReadonlyArray<readonly [string, string]>;
  requestIds: (headers: IncomingMessage['headers']) => { requestId: string; correlationId: string };
  accessLogLevel: (path: string, status: number, successLevel: string) => string;
}

const HOT_ROUTES = Symbol('hot routes');
type WithHotRoutes = Express & { [HOT_ROUTES]?: RequestListenerFilter };
/** Serves the request when a hot route matches it (true), or leaves it (false). */
type RequestListenerFilter = (req: IncomingMessage, res: ServerResponse) => boolean;

function answer(res: ServerResponse, basics: AnswerBasics, requestId: string, status: number, json: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(json);
  const headers: string[] = [];
  for (const [name, value] of basics.securityHeaders) headers.push(name, value);
  for (const [name, value] of Object.entries(extra)) headers.push(name, value);
  headers.push('x-request-id', requestId, 'content-type', 'application/json; charset=utf-8', 'content-length', String(Buffer.byteLength(text)));
  res.writeHead(status, headers).end(text);
}

function serve(route: HotRoute, params: Record<string, string>, req: IncomingMessage, res: ServerResponse, basics: AnswerBasics, logger: Logger): void {
  const started = process.hrtime.bigint();
  nameServerSpan(route.method, route.path);
  const path = req.url!.split('?', 1)[0]!;
  const ids = basics.requestIds(req.headers);
  res.once('finish', () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const level = basics.accessLogLevel(path, res.statusCode, route.successLogLevel ?? 'info');
    if (logger.isLevelEnabled(level)) logger.log(level, 'request', { method: req.method, path, status: res.statusCode, ms: Math.round(seconds * 10_000) / 10 });
    countAnswer(route.method, route.path, res.statusCode, seconds);
  });
  runWithContext(ids, () =>
    route.handle(req, params).then(
      (result) => answer(res, basics, ids.requestId, result.status, result.json),
      (error: unknown) => {
        const failed = errorAnswer(route.translateError ? route.translateError(error, params) : error, logger);
        answer(res, basics, ids.requestId, failed.status, failed.body, failed.headers);
      },
    ),
  );
}

/**
 * Makes `app` serve `routes` ahead of itself on the servers listen() starts, and registers them
 * as its first routes too, so that a server made otherwise (app.listen, supertest) serves them
 * the same way, only through Express.
 */
export function addHotRoutes(app: Express, routes: HotRoute[], basics: AnswerBasics, logger: Logger): void {
  if (routes.length === 0) return;
  for (const route of routes) {
    const method = route.method.toLowerCase() as Lowercase<HotRoute['method']>;
    app[method](route.path, (req, res) => serve(route, req.params as Record<string, string>, req, res, basics, logger));
  }
  const matchers: Array<{ route: HotRoute; match: MatchFunction<Record<string, string>> }> = routes.map((route) => ({ route, match: match(route.path) }));
  (app as WithHotRoutes)[HOT_ROUTES] = (req, res) => {
    for (const { route, match: matches } of matchers) {
      if (req.method !== route.method) continue;
      let found: ReturnType<typeof matches> = false;
      try {
        found = matches(req.url!.split('?', 1)[0]!);
      } catch {
        return false; // a malformed escape in the path: Express answers it (400)
      }
      if (found) {
        serve(route, found.params, req, res, basics, logger);
        return true;
      }
    }
    return false;
  };
}

/** A server's request listener: the Express app, or a function serving hot routes ahead of the app it names (tools that read the routes, such as the fuzzer, look there). */
export type ServerListener = RequestListener & { expressApp?: Express };

/** The request listener of a server for `app`: its hot routes first, then Express. */
export function requestListener(app: Express): ServerListener {
  const hot = (app as WithHotRoutes)[HOT_ROUTES];
  if (!hot) return app;
  return Object.assign((req: IncomingMessage, res: ServerResponse) => hot(req, res) || app(req, res), { expressApp: app });
}
