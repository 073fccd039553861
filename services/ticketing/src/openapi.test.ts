/**
 * ticketing's OpenAPI document against the running service: every route the app mounts is
 * documented and every documented route is mounted; every operation documents the answers
 * the shared mechanisms can give; ids in paths are constrained, so a literal word in an id's
 * place is refused rather than taken for an id.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Express } from 'express';
import { parse as parseYaml } from 'yaml';
import { apiClient, TEST_TOKEN, ticketingUnderTest, type TicketingUnderTest } from './testing/harness';

interface Operation {
  parameters?: { $ref?: string; in?: string }[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
}
type PathItem = Record<string, Operation> & { parameters?: { $ref?: string; in?: string }[] };
interface Document {
  paths: Record<string, PathItem>;
  components: { parameters: Record<string, { in: string }> };
}

const DOCUMENT = parseYaml(readFileSync(path.resolve(__dirname, '..', 'openapi.yaml'), 'utf8')) as Document;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** `METHOD /path/{param}` of every documented operation. */
function documentedRoutes(): string[] {
  return Object.entries(DOCUMENT.paths).flatMap(([route, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.includes(key))
      .map((method) => `${method.toUpperCase()} ${route}`),
  );
}

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** `METHOD /path/{param}` of every route the express app mounts (middleware mounted with `use` is not a route). */
function mountedRoutes(app: Express): string[] {
  const stack = (app.router as unknown as { stack: RouterLayer[] }).stack;
  const routes = stack.flatMap(({ route }) =>
    route
      ? Object.keys(route.methods)
          .filter((method) => method !== '_all')
          .map((method) => `${method.toUpperCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`)
      : [],
  );
  return [...new Set(routes)];
}

const operations = () =>
  Object.entries(DOCUMENT.paths).flatMap(([route, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${route}`, route, item, operation: operation as Operation })),
  );

const hasPathParameter = (item: PathItem, operation: Operation) =>
  [...(item.parameters ?? []), ...(operation.parameters ?? [])].some((parameter) => (parameter.$ref ? DOCUMENT.components.parameters[parameter.$ref.split('/').pop()!]!.in : parameter.in) === 'path');

const DOCS_ROUTES = ['GET /docs/assets/{name}'];

let ticketing: TicketingUnderTest;
const api = apiClient(() => `http://127.0.0.1:${ticketing.service.port}`);

interface ErrorAnswer {
  error: { code: string; message: string; fields?: { in: string; field: string; message: string }[] };
}

function call(method: string, url: string, body?: unknown) {
  const send = { GET: () => api.get<ErrorAnswer>(url), POST: () => api.post<ErrorAnswer>(url, body), PUT: () => api.put<ErrorAnswer>(url, body), PATCH: () => api.patch<ErrorAnswer>(url, body) }[method];
  if (!send) throw new Error(`no ${method} here`);
  return send();
}

beforeAll(async () => {
  ticketing = await ticketingUnderTest('ticketing_openapi');
});

afterAll(async () => {
  await ticketing?.stop();
});

describe("ticketing's OpenAPI document", () => {
  it('documents every route the service mounts, and only those', () => {
    const app = ticketing.service.server.listeners('request')[0] as Express;
    // The docs page's script and style files (libs/http) are served beside the document, not described in it.
    const mounted = mountedRoutes(app)
      .filter((route) => !DOCS_ROUTES.includes(route))
      .sort();
    expect(mounted.length).toBeGreaterThan(20);
    expect(documentedRoutes().sort()).toEqual(mounted);
  });

  it.each(operations().filter(({ route }) => route.startsWith('/v1/')))('$name documents the answers of the shared mechanisms', ({ route, item, operation }) => {
    const statuses = Object.keys(operation.responses);
    // Invalid input, credentials, the rate limit, auth unreachable, a body too large, a failure of ours.
    const expected = ['400', '401', '413', '429', '500', '503'];
    // Every route but /v1/me needs a scope.
    if (route !== '/v1/me') expected.push('403');
    if (hasPathParameter(item, operation)) expected.push('404');
    if (operation.requestBody) expected.push('415');
    expect(statuses).toEqual(expect.arrayContaining(expected));
  });

  it.each([
    ['GET', '/v1/tickets/search', 'path.id'],
    ['DELETE', '/v1/tickets/search/order', 'path.id'],
    ['GET', '/v1/contacts/search', 'path.id'],
    ['GET', '/v1/webhook-endpoints/failures', 'path.id'],
    ['GET', '/v1/partner-configs/search-queries', 'path.pageId'],
    ['GET', '/v1/accounts/me', 'path.accountId'],
  ])('%s %s: a literal in place of an id is refused (400 naming %s), not looked up', async (method, url, field) => {
    const answer = await (method === 'GET' ? api.get : api.delete)<{ error: { code: string; message: string } }>(url);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_parameter');
    expect(answer.body.error.message).toContain(`${field} must match pattern`);
  });

  const TICKET = '0b6f6a6e-8c4f-4f0e-9a55-2f1f6d3c9e21';
  // Each answer names the field; the code is the operation's own (x-invalid-request-code), invalid_parameter for a parameter.
  it.each([
    ['POST', `/v1/tickets/${TICKET}/replies`, { text: 5 }, 'invalid_reply', 'body.text must be string'],
    ['POST', `/v1/tickets/${TICKET}/replies`, {}, 'invalid_reply', 'body.text is required'],
    ['POST', `/v1/tickets/${TICKET}/replies`, { text: 'hi', cc: 'x' }, 'invalid_reply', 'body.cc must NOT have additional properties'],
    ['PATCH', `/v1/tickets/${TICKET}`, { status: 'merged' }, 'invalid_change', 'body.status must be equal to one of the allowed values'],
    ['PATCH', '/v1/tickets', { ids: ['not-an-id'], change: { priority: 'high' } }, 'invalid_change', 'body.ids[0] must match pattern'],
    ['PUT', '/v1/partner-configs/1001', { routing: { rules: [{ name: 'refunds', folder: 'refunds' }] } }, 'invalid_partner_config', 'body.routing.rules[0].queue is required'],
    ['PUT', '/v1/partner-configs/1001', { sla: { firstResponseMinutes: 0 } }, 'invalid_partner_config', 'body.sla.firstResponseMinutes must be >= 1'],
    ['PUT', `/v1/tickets/${TICKET}/order`, { clientId: 'demo', taskId: 'has space' }, 'invalid_order_link', 'body.taskId must match pattern'],
    ['POST', `/v1/tickets/${TICKET}/actions`, { action: 'shout' }, 'invalid_action', 'body.action must be equal to one of the allowed values'],
    ['POST', '/v1/webhook-endpoints', { url: 'ftp://crm.example' }, 'invalid_webhook_endpoint', 'body.url must match pattern'],
    ['GET', '/v1/tickets?limit=0', undefined, 'invalid_parameter', 'query.limit must be >= 1'],
    ['GET', '/v1/tickets?status=open,archived', undefined, 'invalid_parameter', 'query.status must match pattern'],
    ['GET', '/v1/tickets?colour=red', undefined, 'invalid_parameter', 'colour'],
    ['GET', '/v1/contacts?screenName=@ana!', undefined, 'invalid_parameter', 'query.screenName must match pattern'],
  ])('%s %s with a bad request answers 400 %s naming the field', async (method, url, body, code, problem) => {
    const answer = await call(method, url, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe(code);
    expect(answer.body.error.message).toContain(problem);
  });

  it('lists every problem of a refused body in error.fields', async () => {
    const answer = await call('PUT', '/v1/partner-configs/1001', { pageName: 7, sla: { resolutionMinutes: 0 } });
    expect(answer.status).toBe(400);
    expect(answer.body.error.fields).toEqual(
      expect.arrayContaining([
        { in: 'body', field: 'pageName', message: expect.any(String) },
        { in: 'body', field: 'sla.resolutionMinutes', message: 'must be >= 1' },
      ]),
    );
  });

  it('takes free-text and listed query values as people type them (commas, colons, @), not only percent-encoded', async () => {
    for (const query of ['status=open,pending', 'updatedSince=2026-01-01T00:00:00Z', 'q=order 42: where?', 'tag=vip', 'assignee=agent@example.com']) {
      expect([query, (await api.get(`/v1/tickets?${query}`)).status]).toEqual([query, 200]);
    }
    expect((await api.get('/v1/contacts?screenName=@ana')).status).toBe(200);
  });

  it('answers 413 to a body over the limit, 415 to a body that is not JSON, 404 to an undocumented path and 405 to an undocumented method', async () => {
    const huge = await call('POST', `/v1/tickets/${TICKET}/notes`, { text: 'x'.repeat(1_100_000) });
    expect([huge.status, huge.body.error.code]).toEqual([413, 'payload_too_large']);
    const notJson = await fetch(`http://127.0.0.1:${ticketing.service.port}/v1/tickets/${TICKET}/notes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'text/plain' },
      body: 'a note',
    });
    expect(notJson.status).toBe(415);
    expect(((await notJson.json()) as ErrorAnswer).error.code).toBe('unsupported_media_type');
    const nowhere = await call('GET', '/v1/nowhere');
    expect([nowhere.status, nowhere.body.error.code]).toEqual([404, 'not_found']);
    const wrongMethod = await call('POST', '/v1/accounts');
    expect([wrongMethod.status, wrongMethod.body.error.code]).toEqual([405, 'method_not_allowed']);
  });
});
