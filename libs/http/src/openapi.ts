import type { ErrorRequestHandler, Express, Request, RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { parse as parseYaml } from 'yaml';
import type { Logger } from '@crm/logging';
import { Refusal } from '@crm/contracts';
import { errorBody, refusalKindOf } from './errors';
import { shippedFile } from './shipped-files';

/** A parsed OpenAPI 3.1 document. */
export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, unknown> };

export interface OpenApiOptions {
  /** The service's document (readOpenApiDocument): what it answers, and what requests it takes. */
  document: OpenApiDocument;
  /**
   * Requests the validator leaves alone, though documented: a route that checks its request itself
   * and cannot afford (or must not allow) a second reading, e.g. a signed body verified on its raw
   * bytes. Their answers are still checked when responses are.
   */
  skipValidation?: (req: Request) => boolean;
  /** Check every answer against the document (a 500 when it differs); on under NODE_ENV=test by default, off in production. */
  validateResponses?: boolean;
  /** The code of a 400 for a request the document refuses, by where its (first) problem is; `invalid_request` when not given. */
  invalidRequestCode?: (part: RequestPart, req: Request) => string;
}

/** Reads a service's document, by its path from the workspace root, e.g. `services/tracking/openapi.yaml`. */
export function readOpenApiDocument(path: string): OpenApiDocument {
  const document = parseYaml(shippedFile(path)) as OpenApiDocument;
  if (!document || typeof document.openapi !== 'string' || typeof document.paths !== 'object') throw new Error(`${path} is not an OpenAPI document`);
  return document;
}

/** The docs page's renderer (swagger-ui-dist), served from the service's own origin. infra/scripts/bundle.mjs ships the same files. */
const RENDERER_DIR = 'libs/http/node_modules/swagger-ui-dist';
const RENDERER_FILES: Record<string, { file: string; type: string }> = {
  'swagger-ui-bundle.js': { file: `${RENDERER_DIR}/swagger-ui-bundle.js`, type: 'text/javascript' },
  'swagger-ui.css': { file: `${RENDERER_DIR}/swagger-ui.css`, type: 'text/css' },
};

/** Starts the renderer on /openapi.json; a file of its own because the page's policy allows no inline script. */
const DOCS_INIT = `window.addEventListener('load', function () {
  // validatorUrl null: the page sends the document nowhere else.
  window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', validatorUrl: null, deepLinking: true });
});
`;

function docsPage(title: string): string {
  const safeTitle = title.replace(/[<>&"]/g, '');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${safeTitle} API</title><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="docs"></div><script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/assets/init.js"></script></body>
</html>
`;
}

/**
 * The docs page's own policy: scripts and styles from this origin only; the renderer sets
 * style attributes and shows icons as data: images. Nothing else is loosened.
 */
const DOCS_CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/**
 * The docs page's renderer files under /docs/assets/: mounted before the validator, as the
 * documents describe the page and not the files behind it. None needs a credential.
 */
export function docsAssetRoutes(app: Express): void {
  const assets = new Map<string, { text: string; type: string }>([['init.js', { text: DOCS_INIT, type: 'text/javascript' }]]);
  for (const [name, { file, type }] of Object.entries(RENDERER_FILES)) assets.set(name, { text: shippedFile(file), type });
  app.get('/docs/assets/:name', (req, res) => {
    const asset = assets.get(String(req.params.name));
    if (!asset) throw new Refusal('not_found', 'not_found', `no docs asset ${String(req.params.name).slice(0, 64)}`);
    res.set('cache-control', 'public, max-age=3600').type(asset.type).send(asset.text);
  });
}

/** `GET /openapi.json` and `GET /docs`, which every document lists; none needs a credential. */
export function docsRoutes(app: Express, document: OpenApiDocument): void {
  const json = JSON.stringify(document);
  const info = (document.info ?? {}) as { title?: string };
  const page = docsPage(info.title ?? 'service');
  app.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  app.get('/docs', (_req, res) => {
    res.set('content-security-policy', DOCS_CSP).type('html').send(page);
  });
}

/** Request validation (and, in tests, response validation) against the document. */
export function openApiValidator(options: OpenApiOptions): RequestHandler[] {
  const validateResponses = options.validateResponses ?? process.env.NODE_ENV === 'test';
  const handlers = OpenApiValidator.middleware({
    apiSpec: options.document as never,
    // Every problem of a request is named at once (a client fixes them in one go); at most MAX_PROBLEMS are listed.
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, allErrors: true },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    // Each route checks its own credentials (a bearer token, a session): the validator does not.
    validateSecurity: false,
    // Every request the app answers must be documented: an undocumented one is a 404 or 405 here.
    ignoreUndocumented: false,
    validateFormats: true,
  }) as RequestHandler[];
  handlers.unshift(documentedMediaTypesOnly(requestMediaTypes(options.document)));
  const skip = options.skipValidation;
  if (!skip) return handlers;
  if (!validateResponses) {
    // In production a skipped request costs one call of `skip` and one middleware, nothing more.
    const checks = inSequence(handlers);
    return [(req, res, next) => (skip(req) ? next() : checks(req, res, next))];
  }
  if (!handlers.some((handler) => handler.name === REQUEST_CHECK)) throw new Error(`express-openapi-validator has no ${REQUEST_CHECK} any more: skipValidation cannot tell its request checks apart`);
  // In tests a skipped request's answer is still checked: only the request check is left out.
  return handlers.map((handler): RequestHandler => (handler.name === REQUEST_CHECK ? (req, res, next) => (skip(req) ? next() : handler(req, res, next)) : handler));
}

/** Middleware run one after the other as one; an error ends the run. */
function inSequence(handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined) return next(error);
      const handler = handlers[index++];
      if (!handler) return next();
      void handler(req, res, step);
    };
    step();
  };
}

/** Every media type a request body may have in the document (lowercase), local `$ref`s followed. */
function requestMediaTypes(document: OpenApiDocument): Set<string> {
  const resolve = (value: unknown): Record<string, unknown> | undefined => {
    const ref = (value as { $ref?: unknown } | undefined)?.$ref;
    if (typeof ref !== 'string') return value as Record<string, unknown> | undefined;
    return ref.replace(/^#\//, '').split('/').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document) as Record<string, unknown> | undefined;
  };
  const types = new Set<string>();
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values((item ?? {}) as Record<string, unknown>)) {
      const content = resolve(resolve(operation)?.requestBody)?.content;
      for (const type of Object.keys(content ?? {})) types.add(type.toLowerCase());
    }
  }
  return types;
}

const UNDOCUMENTED_MEDIA_TYPE = 'application/x-undocumented';

/**
 * The validator keeps a compiled check for each operation and content-type header it meets,
 * forever: with headers as callers write them, one caller could fill the memory. The header
 * is cut to its media type, and one the document never takes becomes a single placeholder
 * (refused with 415 where a body is expected). Bodies were parsed before this.
 */
function documentedMediaTypesOnly(documented: Set<string>): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['content-type'];
    if (given !== undefined) {
      const mediaType = given.split(';')[0]!.trim().toLowerCase();
      if (documented.has(mediaType)) req.headers['content-type'] = mediaType;
      else {
        req.headers['content-type'] = UNDOCUMENTED_MEDIA_TYPE;
        res.locals.sentMediaType = mediaType.slice(0, 100);
      }
    }
    next();
  };
}

/** The name of the validator's middleware that checks requests (the others find the operation and check answers). */
const REQUEST_CHECK = 'requestMiddleware';

const VALIDATION_ERRORS = Object.values(OpenApiValidator.error);

type ValidationError = Error & { status: number; errors?: { path: string; message: string }[]; headers?: Record<string, string> };

function isValidationError(error: unknown): error is ValidationError {
  return VALIDATION_ERRORS.some((type) => error instanceof type);
}

/** Where in the request a problem is, as the document's `in` says it (and `body`). */
export type RequestPart = 'path' | 'query' | 'header' | 'cookie' | 'body';

/** One problem of a request: `{ in: 'body', field: 'items[0].name', message: 'is required' }`. */
export interface FieldProblem {
  in: RequestPart;
  field: string;
  message: string;
}

const PARTS: Record<string, RequestPart> = { params: 'path', query: 'query', headers: 'header', cookies: 'cookie', body: 'body' };

/** The validator's `/body/items/0/name` (or `.params.noteId`) and message as a problem naming its field. */
function fieldProblem(item: { path: string; message: string }): FieldProblem {
  const [part = '', ...rest] = item.path.replace(/^[./]+/, '').split(/[./]/);
  const field = rest.reduce((name, segment) => (/^\d+$/.test(segment) ? `${name}[${segment}]` : name ? `${name}.${segment}` : segment), '');
  // The validator puts a missing property in the path already: "body.title is required".
  const missing = /^must have required property '(.+)'$/.exec(item.message);
  const message = missing && field.endsWith(missing[1]!) ? 'is required' : item.message;
  return { in: PARTS[part] ?? 'body', field, message };
}

/** `body.title is required; query.limit must be <= 100`: a problem a whole sentence ("Parameter 'x' must be url encoded...") is set apart. */
function describe(problems: FieldProblem[]): string {
  return problems.map((p) => `${p.field ? `${p.in}.${p.field}` : p.in}${/^[A-Z]/.test(p.message) ? ':' : ''} ${p.message}`).join('; ');
}

/** The most problems one answer lists: a body with thousands of bad items gets a readable answer. */
const MAX_PROBLEMS = 20;

const CODES: Record<number, string> = { 400: 'invalid_request', 404: 'not_found', 405: 'method_not_allowed', 406: 'not_acceptable', 413: 'payload_too_large', 415: 'unsupported_media_type' };

/**
 * Answers the validator's failures in the service's error format: a 400 names every bad field
 * in `message` and lists them in `fields` (code `invalid_request` unless the service's
 * `invalidRequestCode` says otherwise); 404, 405, 415 as such. An answer that breaks the
 * document (only checked in tests) is a 500, logged.
 */
export function openApiErrors(logger: Logger, options: Pick<OpenApiOptions, 'invalidRequestCode'> = {}): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (!isValidationError(error)) return next(error);
    const problems = (error.errors ?? []).slice(0, MAX_PROBLEMS).map(fieldProblem);
    if (error.status >= 500) {
      const problem = problems.length ? describe(problems) : error.message;
      logger.error('answer does not match the OpenAPI document', { method: req.method, path: req.path, problem });
      res.status(500).json(errorBody('undocumented_response', `the answer does not match the service's OpenAPI document: ${problem}`));
      return;
    }
    if (error.headers?.Allow) res.set('allow', error.headers.Allow);
    if (error.status === 404) return next(new Refusal('not_found', 'not_found', `no route for ${req.method} ${req.path}`));
    if (error.status === 405) return next(new Refusal('method_not_allowed', 'method_not_allowed', `${req.method} is not allowed on ${req.path}`));
    if (error.status === 415) {
      const sent = (res.locals.sentMediaType as string | undefined) ?? req.headers['content-type'];
      const body = sent ? `a body of ${sent}` : 'a body without a content-type';
      return next(new Refusal('unsupported_media_type', 'unsupported_media_type', `${body} is not what ${req.method} ${req.path} takes; see /openapi.json (JSON is sent as application/json)`));
    }
    if (error.status !== 400 || problems.length === 0) return next(new Refusal(refusalKindOf(error.status) ?? 'invalid', CODES[error.status] ?? 'bad_request', error.message));
    const code = options.invalidRequestCode?.(problems[0]!.in, req) ?? 'invalid_request';
    next(new Refusal('invalid', code, describe(problems), { fields: problems }));
  };
}
