import type { Server } from 'node:http';
import { testLogger } from '@crm/testing';
import { createHttpApp } from './app';
import type { OpenApiDocument } from './openapi';
import { closeServer, listen, portOf } from './service';

const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'notes', version: '1.0.0' },
  paths: {
    '/health/live': { get: { responses: { '200': { description: 'live' } } } },
    '/health/ready': { get: { responses: { '200': { description: 'ready' }, '503': { description: 'not ready' } } } },
    '/metrics': { get: { responses: { '200': { description: 'metrics' } } } },
    '/openapi.json': { get: { responses: { '200': { description: 'this document' } } } },
    '/docs': { get: { responses: { '200': { description: 'this document, rendered' } } } },
    '/v1/notes/{noteId}': {
      parameters: [{ name: 'noteId', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } }],
      get: {
        parameters: [{ name: 'fields', in: 'query', schema: { type: 'string', enum: ['all', 'title'] } }],
        responses: {
          '200': { description: 'a note', content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } },
          '400': { description: 'bad request', ...error },
          '404': { description: 'no such note', ...error },
        },
      },
      put: {
        parameters: [{ name: 'x-note-version', in: 'header', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } }],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } },
        responses: { '200': { description: 'stored', content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } }, '400': { description: 'bad request', ...error } },
      },
    },
    '/v1/notes/search': {
      get: {
        parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'found', content: { 'application/json': { schema: { type: 'object' } } } }, '400': { description: 'bad request', ...error } },
      },
    },
    '/v1/signed': {
      post: {
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['event'] } } } },
        responses: { '200': { description: 'taken', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Note: { type: 'object', required: ['title'], additionalProperties: false, properties: { title: { type: 'string', maxLength: 20 }, tags: { type: 'array', items: { type: 'string' } } } },
      Error: { type: 'object', required: ['error'], properties: { error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } } } },
    },
  },
};

let server: Server;
let base: string;
/** What the route answers next: lets a test make the service break its own document. */
let answer: unknown = { title: 'first' };

beforeAll(async () => {
  const app = createHttpApp({
    logger: testLogger('openapi'),
    readiness: {},
    openApi: { document, validateResponses: true, skipValidation: (req) => req.path === '/v1/signed' },
    routes: (a) => {
      a.get('/v1/notes/search', (req, res) => void res.json({ q: req.query.q }));
      a.get('/v1/notes/:noteId', (_req, res) => void res.json(answer));
      a.put('/v1/notes/:noteId', (req, res) => void res.json(req.body));
      a.post('/v1/signed', (req, res) => void (req.query.fail ? res.status(418).json({ teapot: true }) : res.json({ sawBody: req.body !== undefined })));
      a.get('/v1/undocumented', (_req, res) => void res.json({ leaked: true }));
    },
  });
  server = await listen(app, 0, '127.0.0.1');
  base = `http://127.0.0.1:${portOf(server)}`;
});

afterAll(async () => {
  await closeServer(server);
});

beforeEach(() => {
  answer = { title: 'first' };
});

const put = (body: string, headers: Record<string, string> = { 'x-note-version': '1' }) =>
  fetch(`${base}/v1/notes/1`, { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body });

async function errorOf(res: Response): Promise<{ code: string; message: string; fields?: unknown[] }> {
  return ((await res.json()) as { error: { code: string; message: string; fields?: unknown[] } }).error;
}

describe('the document and its docs page', () => {
  it('serves the document as JSON without a credential', async () => {
    const res = await fetch(`${base}/openapi.json`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(document);
  });

  it('serves /docs with a renderer from its own origin, allowed by its policy', async () => {
    const res = await fetch(`${base}/docs`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<title>notes API</title>');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const scripts = [...page.matchAll(/src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.every((src) => src.startsWith('/docs/assets/'))).toBe(true);
    for (const src of [...scripts, '/docs/assets/swagger-ui.css']) {
      const asset = await fetch(`${base}${src}`);
      expect(asset.status).toBe(200);
      expect((await asset.text()).length).toBeGreaterThan(10);
    }
    expect(await (await fetch(`${base}/docs/assets/init.js`)).text()).toContain("url: '/openapi.json'");
    expect((await fetch(`${base}/docs/assets/secrets.txt`)).status).toBe(404);
  });
});

describe('requests the document forbids', () => {
  it('a body field of the wrong type: 400 naming the field', async () => {
    const res = await put(JSON.stringify({ title: 7 }));
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ code: 'invalid_request', message: 'body.title must be string', fields: [{ in: 'body', field: 'title', message: 'must be string' }] });
  });

  it('every problem at once, each in `fields`', async () => {
    const res = await put(JSON.stringify({ title: 'x'.repeat(21), tags: ['a', 3] }), { 'x-note-version': 'one' });
    const error = (await res.json()) as { error: { message: string; fields: unknown[] } };
    expect(error.error.fields).toEqual(
      expect.arrayContaining([
        { in: 'header', field: 'x-note-version', message: expect.stringContaining('must match pattern') },
        { in: 'body', field: 'title', message: 'must NOT have more than 20 characters' },
        { in: 'body', field: 'tags[1]', message: 'must be string' },
      ]),
    );
    expect(error.error.message).toContain('body.tags[1] must be string');
  });

  it('a missing body field, and one the schema does not know', async () => {
    const missing = await errorOf(await put(JSON.stringify({ tags: [] })));
    expect(missing.message).toBe('body.title is required');
    const unknown = await errorOf(await put(JSON.stringify({ title: 'a', colour: 'red' })));
    expect(unknown.message).toContain('colour');
  });

  it('a path parameter off its pattern, an unknown query value and an unknown query parameter', async () => {
    const path = await fetch(`${base}/v1/notes/abc`);
    expect(path.status).toBe(400);
    expect((await errorOf(path)).message).toContain('path.noteId must match pattern');
    const value = await fetch(`${base}/v1/notes/1?fields=everything`);
    expect(value.status).toBe(400);
    expect((await errorOf(value)).message).toContain('query.fields must be equal to one of the allowed values');
    const unknown = await fetch(`${base}/v1/notes/1?colour=red`);
    expect(unknown.status).toBe(400);
    expect((await errorOf(unknown)).message).toContain('colour');
  });

  it('a missing required header', async () => {
    const res = await put(JSON.stringify({ title: 'a' }), {});
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe('header.x-note-version is required');
  });

  it('a body in a media type the operation does not take: 415', async () => {
    const res = await fetch(`${base}/v1/notes/1`, { method: 'PUT', headers: { 'content-type': 'text/plain', 'x-note-version': '1' }, body: 'title' });
    expect(res.status).toBe(415);
    expect(await errorOf(res)).toEqual({ code: 'unsupported_media_type', message: 'a body of text/plain is not what PUT /v1/notes/1 takes; see /openapi.json (JSON is sent as application/json)' });
  });

  it('takes a documented media type whatever its parameters, and any other as one undocumented type', async () => {
    // The validator compiles a check per content-type it meets: callers' variations must not each make one.
    const res = await put(JSON.stringify({ title: 'x' }), { 'x-note-version': '1', 'content-type': 'Application/JSON; charset=UTF-8; x=1' });
    expect(res.status).toBe(200);
    for (const type of ['text/x-1', 'text/x-2; q=1']) {
      const refused = await put('title', { 'x-note-version': '1', 'content-type': type });
      expect(refused.status).toBe(415);
      expect((await errorOf(refused)).message).toContain(`a body of ${type.split(';')[0]}`);
    }
  });

  it('an undocumented route never reaches the code behind it: 404; an undocumented method: 405', async () => {
    const route = await fetch(`${base}/v1/undocumented`);
    expect(route.status).toBe(404);
    expect(await errorOf(route)).toEqual({ code: 'not_found', message: 'no route for GET /v1/undocumented' });
    const method = await fetch(`${base}/v1/notes/1`, { method: 'DELETE' });
    expect(method.status).toBe(405);
    expect((await errorOf(method)).code).toBe('method_not_allowed');
  });

  it('checks a literal path by its own operation, not by a parameter route beside it', async () => {
    const search = await fetch(`${base}/v1/notes/search?q=tea`);
    expect(search.status).toBe(200);
    expect(await search.json()).toEqual({ q: 'tea' });
    expect((await errorOf(await fetch(`${base}/v1/notes/search`))).message).toBe('query.q is required');
  });

  it('lets a valid request through', async () => {
    const res = await put(JSON.stringify({ title: 'second', tags: ['x'] }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ title: 'second', tags: ['x'] });
  });
});

describe('answers the document does not describe', () => {
  it('with response validation on, an answer off the document is a 500 naming what differs', async () => {
    answer = { title: 'first', secret: 'x' };
    const res = await fetch(`${base}/v1/notes/1`);
    expect(res.status).toBe(500);
    expect(await errorOf(res)).toEqual({ code: 'undocumented_response', message: expect.stringContaining('secret') });
  });
});

describe('skipValidation', () => {
  it('leaves the request alone: no body is demanded or parsed for it', async () => {
    const res = await fetch(`${base}/v1/signed`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'raw bytes' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sawBody: false });
  });

  it('still checks its answers when responses are checked', async () => {
    const res = await fetch(`${base}/v1/signed?fail=1`, { method: 'POST', body: 'raw bytes' });
    expect(res.status).toBe(500);
    expect((await errorOf(res)).code).toBe('undocumented_response');
  });
});

describe('in production (responses not checked), with codes of its own', () => {
  it('answers as the route does, a skipped request meets no check at all, and a refused one has the service\'s code', async () => {
    const app = createHttpApp({
      logger: testLogger('openapi-production'),
      readiness: {},
      openApi: { document, validateResponses: false, skipValidation: (req) => req.path === '/v1/signed', invalidRequestCode: (part) => (part === 'body' ? 'invalid_note' : 'invalid_parameter') },
      routes: (a) => {
        a.get('/v1/notes/:noteId', (_req, res) => void res.json({ title: 'first', extra: true }));
        a.post('/v1/signed', (_req, res) => void res.status(418).json({ teapot: true }));
      },
    });
    const production = await listen(app, 0, '127.0.0.1');
    try {
      const url = `http://127.0.0.1:${portOf(production)}`;
      expect(await (await fetch(`${url}/v1/notes/1`)).json()).toEqual({ title: 'first', extra: true });
      expect((await fetch(`${url}/v1/signed`, { method: 'POST', body: 'x' })).status).toBe(418);
      expect((await errorOf(await fetch(`${url}/v1/notes/x`))).code).toBe('invalid_parameter');
      const body = await fetch(`${url}/v1/notes/1`, { method: 'PUT', headers: { 'content-type': 'application/json', 'x-note-version': '1' }, body: '{}' });
      expect(await errorOf(body)).toEqual({ code: 'invalid_note', message: 'body.title is required', fields: [{ in: 'body', field: 'title', message: 'is required' }] });
    } finally {
      await closeServer(production);
    }
  });
});
