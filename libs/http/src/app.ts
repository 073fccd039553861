import { randomUUID } from 'node:crypto';
import { parse as parseQueryString } from 'node:querystring';
import express, { type Express, type Request, type RequestHandler } from 'express';
import { cleanJson } from '@crm/contracts';
import { runWithContext, type Logger } from '@crm/logging';
import { sameSecret } from '@crm/secrets';
import { errorHandler, HttpError, notFound } from './errors';

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
  /** Parse JSON bodies for every route (raw bytes kept in req.rawBody). Off where routes read raw bytes themselves. */
  parseJson?: boolean;
  /**
   * Replace text no database can store (NUL, lone surrogates) in query strings and JSON
   * bodies; on by default. The platform simulator turns it off: it plays the outside world,
   * which keeps what it is sent.
   */
  cleanText?: boolean;
  /** Adds the service's routes. */
  routes: (app: Express) => void;
}

const ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes the caller's request/correlation ids when well-formed, makes them otherwise, and runs the request in that context. */
const requestContext: RequestHandler = (req, res, next) => {
  const given = req.get('x-request-id');
  const requestId = given && ID_PATTERN.test(given) ? given : randomUUID();
  const correlation = req.get('x-correlation-id');
  const correlationId = correlation && ID_PATTERN.test(correlation) ? correlation : requestId;
  res.set('x-request-id', requestId);
  runWithContext({ correlationId, requestId }, () => next());
};

/** The parsed JSON body with unstorable characters replaced (rawBody keeps the exact bytes). */
const cleanBody: RequestHandler = (req, _res, next) => {
  if (req.body !== undefined) req.body = cleanJson(req.body as unknown);
  next();
};

function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.log(res.statusCode >= 500 ? 'warn' : 'http', 'request', { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 });
    });
    next();
  };
}

/**
 * The express app every service starts from: request ids, JSON with the raw bytes kept, a
 * body size limit, health routes, 404 and one error format.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  const clean = options.cleanText ?? true;
  if (clean) app.set('query parser', (query: string) => cleanJson(parseQueryString(query)));
  app.use(requestContext);
  app.use(accessLog(options.logger));
  if (options.parseJson ?? true) {
    app.use(
      express.json({
        limit: options.bodyLimit ?? '1mb',
        verify: (req, _res, buffer) => {
          (req as Request).rawBody = buffer;
        },
      }),
    );
    if (clean) app.use(cleanBody);
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
  options.routes(app);
  app.use(notFound);
  app.use(errorHandler(options.logger));
  return app;
}

/** Checks `Authorization: Bearer <token>` against the configured tokens in constant time. */
export function requireBearerToken(tokens: string[]): RequestHandler {
  return (req, _res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer (.+)$/.exec(header);
    if (!match) throw new HttpError(401, 'unauthorized', 'send an API token as `Authorization: Bearer <token>`', { 'www-authenticate': 'Bearer' });
    let valid = false;
    // Every token is compared, so the time taken does not tell which one matched.
    for (const known of tokens) valid = sameSecret(match[1]!, known) || valid;
    if (!valid) throw new HttpError(401, 'unauthorized', 'the API token is not valid', { 'www-authenticate': 'Bearer' });
    next();
  };
}
