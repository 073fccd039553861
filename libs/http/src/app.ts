import { randomUUID } from 'node:crypto';
import { parse as parseQueryString } from 'node:querystring';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import { cleanJson, exceedsJsonDepth, MAX_JSON_DEPTH } from '@crm/contracts';
import helmet from 'helmet';
import { runWithContext, type Logger } from '@crm/logging';
import { sameSecret } from '@crm/secrets';
import { Refusal } from '@crm/contracts';
import { errorHandler, notFound } from './errors';
import { addHotRoutes, type AnswerBasics, type HotRoute } from './hot-routes';
import { countAnswer, metricsRoute, routeOf } from './metrics';
import { docsAssetRoutes, docsRoutes, openApiErrors, openApiValidator, type OpenApiOptions } from './openapi';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The exact bytes of a JSON body, for signature checks. */
      rawBody?: Buffer;
    }
  }
}

export type ReadinessCheck = () => Promise<boolean> | boolean;

export interface HttpAppOptions {
  logger: Logger;
  /** Named checks for `/health/ready`; all must pass. */
  readiness: Record<string, ReadinessCheck>;
  /** Largest accepted body, e.g. '1mb'. */
  bodyLimit?: string;
  /** Routes that take larger JSON bodies than `bodyLimit` (an image upload): `{ path: '/v1/accounts/:accountId/media', limit: '12mb' }`. */
  largeBodies?: { path: string; limit: string }[];
  /** Parse JSON bodies for every route (raw bytes kept in req.rawBody). Off where routes read raw bytes themselves. */
  parseJson?: boolean;
  /**
   * Replace text no database can store (NUL, lone surrogates) in query strings and JSON
   * bodies; on by default. The platform simulator turns it off: it plays the outside world,
   * which keeps what it is sent.
   */
  cleanText?: boolean;
  /**
   * The service's OpenAPI document: served at /openapi.json with a docs page at /docs, and every
   * request checked against it (every answer too, in tests) before it reaches a route.
   */
  openApi?: OpenApiOptions;
  /** Adds the service's routes. */
  routes: (app: Express) => void;
  /** Routes served by the HTTP server ahead of Express (see HotRoute): the hot path of a service. */
  hotRoutes?: HotRoute[];
}

const ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's request/correlation ids when well-formed, new ones otherwise. */
function requestIds(headers: Request['headers']): { requestId: string; correlationId: string } {
  const given = headers['x-request-id'];
  const requestId = typeof given === 'string' && ID_PATTERN.test(given) ? given : randomUUID();
  const correlation = headers['x-correlation-id'];
  const correlationId = typeof correlation === 'string' && ID_PATTERN.test(correlation) ? correlation : requestId;
  return { requestId, correlationId };
}

/** The parsed JSON body with unstorable characters replaced (rawBody keeps the exact bytes). */
const cleanBody: RequestHandler = (req, _res, next) => {
  // Nesting is checked on the bytes, before anything walks the parsed body recursively.
  if (req.rawBody && exceedsJsonDepth(req.rawBody.toString('utf8'), MAX_JSON_DEPTH)) {
    throw new Refusal('invalid', 'too_deep', `the JSON body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  if (req.body !== undefined) req.body = cleanJson(req.body as unknown);
  next();
};

/** Probes and scrapes come every few seconds: logged only at debug, whatever they answer. */
const POLLED = /^\/(health\/|metrics$)/;

/**
 * Security headers of every answer (helmet): a strict content security policy that also
 * forbids framing (`frame-ancestors 'none'`, and X-Frame-Options DENY for older browsers),
 * nosniff, no referrer, HSTS. The pages auth shows a person use neither scripts nor outside
 * resources, so `default-src 'self'` costs them nothing.
 */
const helmetHeaders = helmet({
  contentSecurityPolicy: { directives: { 'default-src': ["'self'"], 'frame-ancestors': ["'none'"], 'form-action': ["'self'"] } },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
});

/** The headers helmet sets, asked of it once: with this configuration they are the same on every answer. */
function headersSetBy(middleware: RequestHandler): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = { setHeader: (name: string, value: unknown) => headers.push([name, String(value)]), removeHeader: () => undefined };
  void middleware({} as Request, recorder as unknown as Response, () => undefined);
  return headers;
}

const SECURITY_HEADERS = headersSetBy(helmetHeaders);

const basics: AnswerBasics = { securityHeaders: SECURITY_HEADERS, requestIds, accessLogLevel };

/** The access log level of an answer: a 5xx at warn, probes and scrapes at debug, the rest at info (or `success` for a 2xx). */
function accessLogLevel(path: string, status: number, success: string): string {
  if (POLLED.test(path)) return 'debug';
  if (status >= 500) return 'warn';
  return status >= 200 && status < 300 ? success : 'info';
}

/**
 * What every request gets, in one middleware: the security headers, request ids (the
 * caller's when well-formed; `x-request-id` answered) and the correlation context it runs
 * in, and once answered one access log line and its metrics.
 */
function essentials(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
    const ids = requestIds(req.headers);
    res.setHeader('x-request-id', ids.requestId);
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const level = accessLogLevel(req.path, res.statusCode, 'info');
      if (logger.isLevelEnabled(level)) logger.log(level, 'request', { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(seconds * 10_000) / 10 });
      countAnswer(req.method, routeOf(req), res.statusCode, seconds);
    });
    runWithContext(ids, () => next());
  };
}

/** API answers under /v1 hold personal data (tickets, accounts, deliveries): never stored by a cache. */
const noStore: RequestHandler = (_req, res, next) => {
  res.set('cache-control', 'no-store');
  next();
};

/**
 * The express app every service starts from: security headers, request ids, JSON with the
 * raw bytes kept, a body size limit, its OpenAPI document and docs, health routes, 404 and one
 * error format.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  const clean = options.cleanText ?? true;
  if (clean) app.set('query parser', (query: string) => cleanJson(parseQueryString(query)));
  addHotRoutes(app, options.hotRoutes ?? [], basics, options.logger);
  app.use(essentials(options.logger));
  app.use('/v1', noStore);
  if (options.parseJson ?? true) {
    const json = (limit: string) =>
      express.json({
        limit,
        verify: (req, _res, buffer) => {
          (req as Request).rawBody = buffer;
        },
      });
    // A body parsed on a larger route is not parsed again by the general parser.
    for (const { path, limit } of options.largeBodies ?? []) app.use(path, json(limit));
    app.use(json(options.bodyLimit ?? '1mb'));
    if (clean) app.use(cleanBody);
  }
  if (options.openApi) {
    docsAssetRoutes(app);
    app.use(openApiValidator(options.openApi));
  }
  app.get('/health/live', (_req, res) => {
    res.json({ status: 'live' });
  });
  app.get('/health/ready', async (_req, res) => {
    const checks: Record<string, boolean> = {};
    for (const [name, check] of Object.entries(options.readiness)) {
      checks[name] = await Promise.resolve()
        .then(check)
        .catch(() => false);
    }
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks });
  });
  metricsRoute(app);
  if (options.openApi) docsRoutes(app, options.openApi.document);
  options.routes(app);
  app.use(notFound);
  app.use(openApiErrors(options.logger, options.openApi));
  app.use(errorHandler(options.logger));
  return app;
}

/** Checks `Authorization: Bearer <token>` against the configured tokens in constant time. */
export function requireBearerToken(tokens: string[]): RequestHandler {
  return (req, _res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer (.+)$/.exec(header);
    if (!match) throw new Refusal('unauthorized', 'unauthorized', 'send an API token as `Authorization: Bearer <token>`', { headers: { 'www-authenticate': 'Bearer' } });
    let valid = false;
    // Every token is compared, so the time taken does not tell which one matched.
    for (const known of tokens) valid = sameSecret(match[1]!, known) || valid;
    if (!valid) throw new Refusal('unauthorized', 'unauthorized', 'the API token is not valid', { headers: { 'www-authenticate': 'Bearer' } });
    next();
  };
}
