import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:http';
import axios, { type AxiosInstance } from 'axios';
import type { Express, RequestHandler } from 'express';
import { bootstrapPrincipal } from '@crm/access';
import type { CommandError, CommandErrorCode } from '@crm/contracts';
import { closeServer, createHttpApp, listen, portOf, readOpenApiDocument } from '@crm/http';
import { testLogger } from '@crm/testing';
import { ACTION_ROUTES } from './http/action-routes';
import { actionOperations, withActionOperations } from './http/openapi-actions';
import { authRoutes, type AuthRoutesDeps } from './http/routes';
import type { ActionExecutor, ActionCall } from './operations/executor';
import { OPENAPI_DOCUMENT } from './service';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type PathItem = Partial<Record<(typeof METHODS)[number], { parameters?: Parameter[] }>> & { parameters?: Parameter[] };
interface Parameter {
  $ref?: string;
  name?: string;
  in?: string;
  schema?: Record<string, unknown>;
}

const document = readOpenApiDocument(OPENAPI_DOCUMENT);
const paths = document.paths as Record<string, PathItem>;
const documented = (item: PathItem) => METHODS.filter((method) => item[method]);

/** Every method and path an Express app answers, as OpenAPI paths (`:id` as `{id}`), walking routers mounted at the root. */
function mountedRoutes(app: Express): string[] {
  const out: string[] = [];
  type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle: { stack?: Layer[] }; rawPath?: string };
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = layer.route.path.replace(/:([A-Za-z]+)/g, '{$1}');
        for (const method of Object.keys(layer.route.methods)) out.push(`${method.toUpperCase()} ${path}`);
      } else if (layer.handle.stack && (layer.rawPath === undefined || layer.rawPath === '/')) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return out;
}

/** A value a path parameter accepts, by name. */
const EXAMPLES: Record<string, string> = { accountId: '12', user: 'ana', postId: '34', listId: '56', collectionId: 'custom-78', eventId: '90', webhookId: '11' };
const concrete = (path: string) => path.replace(/\{([A-Za-z]+)\}/g, (_match, name: string) => EXAMPLES[name] ?? `<${name}>`);

/** What the stand-in executor answers next: success, or a failure as the executor reports it. */
let nextOutcome: { outcome: 'failed' | 'unknown'; error: CommandError } | null = null;
/** Whether the stand-in answers a success with a platformId the document does not allow (a number). */
let wrongPlatformId = false;

/** auth's routes over an executor that records what it is asked and answers `nextOutcome`; every request comes with the bootstrap token's rights. */
function appWith(executed: ActionCall[]): Express {
  const executor = {
    execute: async (request: ActionCall) => {
      executed.push(request);
      const answer = { commandId: request.commandId, action: request.action, accountId: request.accountId, platformId: wrongPlatformId ? 5 : null, replayed: false };
      return nextOutcome ? { ...answer, ...nextOutcome, data: null } : { ...answer, outcome: 'succeeded', data: { ok: true }, error: null };
    },
  } as unknown as ActionExecutor;
  const admin: RequestHandler = (req, _res, next) => {
    req.principal = bootstrapPrincipal(0);
    next();
  };
  const unused = {} as never;
  const deps: AuthRoutesDeps = {
    accounts: unused,
    webhooks: unused,
    executor,
    meter: unused,
    sessions: unused,
    agents: unused,
    agentChanges: unused,
    checkWebhooks: unused,
    credit: unused,
    logger: testLogger('auth-openapi'),
    access: [admin],
    crmConnectedUrl: null,
    publicUrl: () => 'http://127.0.0.1',
    connectionTtlSeconds: 600,
  };
  return createHttpApp({ logger: deps.logger, readiness: {}, openApi: { document, validateResponses: true }, routes: authRoutes(deps) });
}

describe("auth's OpenAPI document", () => {
  it('is what generating its action operations from the routes and the contracts gives', () => {
    const committed = readFileSync(join(__dirname, '..', 'openapi.yaml'), 'utf8');
    expect(withActionOperations(committed)).toBe(committed);
  });

  it('documents every route the app mounts, and no route the app does not mount', () => {
    // The docs page's script and style files: libs/http serves them before the validator, and documents describe the page only.
    const mounted = new Set(mountedRoutes(appWith([])).filter((route) => route !== 'GET /docs/assets/{name}'));
    const inDocument = new Set(Object.entries(paths).flatMap(([path, item]) => documented(item).map((method) => `${method.toUpperCase()} ${path}`)));
    expect([...inDocument].filter((route) => !mounted.has(route))).toEqual([]);
    expect([...mounted].filter((route) => !inDocument.has(route))).toEqual([]);
  });

  it('constrains every path parameter, so no literal path segment is taken for an id', () => {
    const components = (document.components as { parameters: Record<string, Parameter> }).parameters;
    const unconstrained: string[] = [];
    for (const [path, item] of Object.entries(paths)) {
      for (const method of documented(item)) {
        const parameters = [...(item.parameters ?? []), ...(item[method]!.parameters ?? [])].map((p) => (p.$ref ? components[p.$ref.split('/').pop()!]! : p));
        for (const parameter of parameters.filter((p) => p.in === 'path')) {
          const schema = parameter.schema ?? {};
          const patterns = schema.anyOf ? (schema.anyOf as Record<string, unknown>[]).map((s) => s.pattern) : [schema.pattern];
          if (!patterns.every((pattern) => typeof pattern === 'string' && pattern.startsWith('^') && pattern.endsWith('$'))) unconstrained.push(`${method} ${path} ${parameter.name}`);
        }
      }
    }
    expect(unconstrained).toEqual([]);
  });

  it('gives every action its route, with the scope its kind needs', () => {
    const { paths: generated } = actionOperations();
    expect(Object.values(generated).flatMap((item) => Object.values(item).map((operation) => operation.operationId)).sort()).toEqual(ACTION_ROUTES.map((route) => route.action).sort());
    expect(paths['/v1/accounts/{accountId}/posts']!.post).toMatchObject({ 'x-required-scope': 'tickets:write', requestBody: { required: true } });
    expect(paths['/v1/accounts/{accountId}/timeline']!.get).toMatchObject({ 'x-required-scope': 'tickets:read' });
  });
});

describe('requests checked against the document', () => {
  const executed: ActionCall[] = [];
  let server: Server;
  let http: AxiosInstance;

  beforeAll(async () => {
    server = await listen(appWith(executed), 0, '127.0.0.1');
    http = axios.create({ baseURL: `http://127.0.0.1:${portOf(server)}`, validateStatus: () => true, maxRedirects: 0 });
  });
  afterAll(() => closeServer(server));
  beforeEach(() => {
    executed.length = 0;
  });

  it('builds the action input from the path, the query and the body, as the commands take it', async () => {
    expect((await http.post('/v1/accounts/12/posts/34/replies', { text: 'hi' })).status).toBe(200);
    expect((await http.get('/v1/accounts/12/users/@ana/timeline', { params: { count: '5', sinceId: '7' } })).status).toBe(200);
    expect((await http.put('/v1/accounts/12/lists/56/members/99')).status).toBe(200);
    expect(executed.map(({ action, input }) => ({ action, input }))).toEqual([
      { action: 'reply', input: { text: 'hi', inReplyToPostId: '34' } },
      { action: 'read_user_timeline', input: { screenName: 'ana', count: 5, sinceId: '7' } },
      { action: 'add_list_member', input: { listId: '56', userId: '99' } },
    ]);
  });

  it('answers 400 naming the field when a body, query or path value does not fit, before the action runs', async () => {
    const cases: [() => Promise<{ status: number; data: { error: { code: string; message: string } } }>, string][] = [
      [() => http.post('/v1/accounts/12/posts', { text: 5 }), 'body.text must be string'],
      [() => http.post('/v1/accounts/12/posts', {}), 'body.text is required'],
      [() => http.post('/v1/accounts/12/posts/34/replies', { text: 'hi', inReplyToPostId: '1' }), 'body.inReplyToPostId must NOT have additional properties'],
      [() => http.patch('/v1/accounts/12/lists/56', {}), 'body must NOT have fewer than 1 properties'],
      [() => http.get('/v1/accounts/12/timeline', { params: { count: '500' } }), 'query.count must be <= 200'],
      [() => http.get('/v1/accounts/12/timeline', { params: { since: '1' } }), 'Unknown query parameter'],
      [() => http.get('/v1/accounts/12/search'), 'query.query is required'],
      [() => http.put('/v1/accounts/12/posts/12ab/like'), 'path.postId must match pattern'],
      [() => http.get('/v1/accounts/not-digits/profile'), 'path.accountId must match pattern'],
      [() => http.post('/v1/accounts/12/posts', { text: 'hi' }, { headers: { 'idempotency-key': 'no spaces' } }), 'header.idempotency-key must match pattern'],
    ];
    for (const [request, message] of cases) {
      const answer = await request();
      expect({ status: answer.status, code: answer.data.error.code }).toEqual({ status: 400, code: 'invalid_request' });
      expect(answer.data.error.message).toContain(message);
    }
    expect(executed).toEqual([]);
    const several = await http.post('/v1/accounts/12/direct-messages', { recipientId: 'ana', text: 'x'.repeat(10_001) });
    expect(several.data.error.fields).toEqual([
      { in: 'body', field: 'recipientId', message: expect.stringContaining('must match pattern') },
      { in: 'body', field: 'text', message: expect.stringContaining('must NOT have more than 10000 characters') },
    ]);
  });

  it('answers every way an action can fail with a status its operation documents (answers are checked against the document here)', async () => {
    const failures: [CommandErrorCode, number | null, 'failed' | 'unknown', number][] = [
      ['invalid_input', null, 'failed', 400],
      ['account_not_connected', null, 'failed', 404],
      ['reconnect_needed', 401, 'failed', 409],
      ['platform_rejected', 400, 'failed', 400],
      ['platform_rejected', 401, 'failed', 403],
      ['platform_rejected', 403, 'failed', 403],
      ['platform_rejected', 404, 'failed', 404],
      ['platform_rejected', 409, 'failed', 409],
      ['platform_rejected', 410, 'failed', 422],
      ['rate_limited', 429, 'failed', 503],
      ['platform_unavailable', 502, 'failed', 503],
      ['configuration_error', 403, 'failed', 503],
      ['outcome_unknown', null, 'unknown', 504],
    ];
    const answered: number[] = [];
    for (const [code, platformStatus, outcome] of failures) {
      nextOutcome = { outcome, error: { code, message: `the platform said no (${code})`, platformCode: null, platformStatus } };
      const [read, write] = await Promise.all([http.get('/v1/accounts/12/timeline'), http.post('/v1/accounts/12/posts', { text: 'hi' })]);
      expect(read.data.error.code).not.toBe('undocumented_response');
      expect(write.status).toBe(read.status);
      answered.push(read.status);
    }
    nextOutcome = null;
    expect(answered).toEqual(failures.map((failure) => failure[3]));
  });

  it('checks answers against the document in tests: one the document does not allow is a 500 naming the difference', async () => {
    wrongPlatformId = true;
    const answer = await http.post('/v1/accounts/12/posts', { text: 'hi' });
    wrongPlatformId = false;
    expect(answer.status).toBe(500);
    expect(answer.data.error).toMatchObject({ code: 'undocumented_response', message: expect.stringContaining('platformId') });
  });

  it('answers 415 for a body that is not JSON', async () => {
    const answer = await http.post('/v1/accounts/12/posts', 'text=hi', { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(answer.status).toBe(415);
    expect(answer.data.error.code).toBe('unsupported_media_type');
  });

  it('answers a documented path with a method it does not have 405 with Allow: a literal path is never taken for an id', async () => {
    const wrong: string[] = [];
    for (const [path, item] of Object.entries(paths)) {
      const allowed = documented(item);
      for (const method of METHODS.filter((m) => !allowed.includes(m))) {
        const answer = await http.request({ method, url: concrete(path) });
        const allow = String(answer.headers.allow ?? '').toLowerCase();
        if (answer.status !== 405 || allowed.some((m) => !allow.includes(m))) wrong.push(`${method} ${path}: ${answer.status} allow=${allow}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(executed).toEqual([]);
  });

  it('serves the document at /openapi.json and a page rendering it at /docs, without a credential', async () => {
    expect((await http.get('/openapi.json')).data).toEqual(document);
    const page = await http.get('/docs');
    expect({ status: page.status, type: page.headers['content-type'] }).toEqual({ status: 200, type: expect.stringContaining('text/html') });
  });

  it('answers an undocumented path 404', async () => {
    const answer = await http.get('/v1/accounts/12/direct-messages/90/extra');
    expect(answer.status).toBe(404);
    expect(answer.data.error.code).toBe('not_found');
  });
});
