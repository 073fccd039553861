import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axios from 'axios';
import { closeServer, listen, portOf } from '@crm/http';
import { testLogger } from '@crm/testing';
import { createSimulatorApp } from '../app';
import { loadSimulatorConfig } from '../config';
import { amended, contractCheck, contractCheckFromEnvironment, outsideTheDocument, postNaming } from './contract-check';
import { OpenApiContract, type Exchange, type OpenApiDocument } from './openapi-contract';

/** A small contract in our own words: a profile read, a subscription write, and a shared error shape. */
const DOCUMENT: OpenApiDocument = {
  openapi: '3.0.0',
  paths: {
    '/2/users/me': {
      get: {
        parameters: [{ $ref: '#/components/parameters/ProfileFields' }],
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Profile' } } } },
          default: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } } },
        },
      },
    },
    '/2/users/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9]{1,19}$' } }],
        responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Profile' } } } } },
      },
    },
    '/2/activity/subscriptions': {
      post: {
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['event_type'],
                properties: { event_type: { type: 'string', enum: ['dm.received', 'like.create'] }, tag: { type: 'string', nullable: true } },
              },
            },
          },
        },
        responses: { '200': { content: { 'application/json': { schema: { type: 'object', required: ['data'] } } } } },
      },
    },
  },
  components: {
    parameters: {
      ProfileFields: { name: 'user.fields', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['id', 'username'] } } },
    },
    schemas: {
      Profile: {
        type: 'object',
        required: ['data'],
        properties: { data: { type: 'object', required: ['id', 'username'], properties: { id: { type: 'string' }, username: { type: 'string' } } } },
      },
      Problem: { type: 'object', required: ['title', 'detail'], properties: { title: { type: 'string' }, detail: { type: 'string' } } },
    },
  },
};

const contract = new OpenApiContract(DOCUMENT);

function exchange(overrides: Partial<Exchange>): Exchange {
  return { method: 'GET', path: '/2/users/me', query: new URLSearchParams(), body: undefined, hasBody: false, status: 200, responseType: 'application/json', responseBody: { data: { id: '1', username: 'acme' } }, ...overrides };
}

const findings = (overrides: Partial<Exchange>) => contract.check(exchange(overrides)).map((v) => `${v.where}: ${v.message}`);

describe('OpenApiContract', () => {
  it('passes an exchange that follows the document', () => {
    expect(findings({ query: new URLSearchParams('user.fields=id,username') })).toEqual([]);
  });

  it('names an undocumented path or method', () => {
    expect(findings({ path: '/2/nowhere' })).toEqual(['route: the document has no such path']);
    expect(findings({ method: 'DELETE' })).toEqual(['route: the document has no DELETE operation on /2/users/me']);
  });

  it('reads a literal segment before a template one', () => {
    expect(contract.match('/2/users/me')?.template).toBe('/2/users/me');
    expect(contract.match('/2/users/42')).toEqual({ template: '/2/users/{id}', values: ['42'] });
  });

  it('checks path and comma-separated query parameters, and refuses undocumented ones', () => {
    expect(findings({ path: '/2/users/acme' })).toEqual(['path: id:  must match pattern "^[0-9]{1,19}$"']);
    expect(findings({ query: new URLSearchParams('user.fields=id,email&tweet.fields=text') })).toEqual([
      'query: user.fields: /1 must be equal to one of the allowed values: "email"',
      'query: tweet.fields is not a documented parameter',
    ]);
  });

  it('checks the request body, event-type enum included', () => {
    const post = { method: 'POST', path: '/2/activity/subscriptions', responseBody: { data: {} } };
    expect(findings({ ...post, hasBody: true, body: { event_type: 'like.create', tag: null } })).toEqual([]);
    expect(findings({ ...post, hasBody: true, body: { event_type: 'like.in' } })).toEqual(['body: /event_type must be equal to one of the allowed values: "like.in"']);
    expect(findings({ ...post })).toEqual(['body: a JSON body is required']);
  });

  it('checks the request side only of requests the platform would take: a refusal is checked as an answer', () => {
    const refused = { method: 'POST', path: '/2/activity/subscriptions', hasBody: true, body: { event_type: 'like.in' }, status: 400 };
    expect(findings({ ...refused, responseBody: { title: 'Invalid Request', detail: 'event_type is unknown' } })).toEqual(['status: status 400 is not documented (documented: 200)']);
    expect(findings({ status: 401, responseBody: { title: 'Unauthorized', detail: 'no token' } })).toEqual([]);
    expect(findings({ status: 401, responseBody: { title: 'Unauthorized' } })).toEqual(["response: 401: (root) must have required property 'detail'"]);
  });

  it('checks the answer against the schema of its status', () => {
    expect(findings({ responseBody: { data: { id: '1' } } })).toEqual(["response: 200: /data must have required property 'username'"]);
    expect(findings({ responseType: 'text/html', responseBody: undefined })).toEqual(['response: the 200 answer is not JSON (text/html)']);
  });
});

describe('routes outside the v2 document', () => {
  it.each([
    ['GET', '/1.1/search/tweets.json'],
    ['POST', '/oauth/request_token'],
    ['POST', '/oauth2/token'],
    ['POST', '/2/oauth2/token'],
    ['GET', '/i/oauth2/authorize'],
    ['POST', '/control/platform/users'],
    ['POST', '/2/users/1/blocking'],
    ['DELETE', '/2/users/1/blocking/2'],
    ['GET', '/favicon.ico'],
  ])('%s %s is classified with a reason', (method, path) => {
    expect(outsideTheDocument(method, path)?.reason).toMatch(/\S/);
  });

  it('leaves every other route to the document', () => {
    expect(outsideTheDocument('GET', '/2/users/me')).toBeUndefined();
    expect(outsideTheDocument('GET', '/2/users/1/blocking')).toBeUndefined();
  });

  it("reads the document's post naming and the platform's tweet naming as one", () => {
    expect(['tweet.fields', 'edit_history_tweet_ids', 'retweet_count', 'tweet_count', 'referenced_tweets.id', 'attachments.media_source_tweet', 'username'].map(postNaming)).toEqual([
      'post.fields',
      'edit_history_post_ids',
      'repost_count',
      'post_count',
      'referenced_posts',
      'attachments.media_source_tweet',
      'username',
    ]);
    const named = new OpenApiContract({ ...DOCUMENT, components: { ...DOCUMENT.components, parameters: { ProfileFields: { name: 'user.fields', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['id', 'post_count'] } } } } } }, postNaming);
    expect(named.check(exchange({ query: new URLSearchParams('user.fields=tweet_count') }))).toEqual([]);
    expect(named.check(exchange({ query: new URLSearchParams('user.fields=retweets') })).map((v) => v.where)).toEqual(['query']);
  });
});

describe('the amendments other pages of the documentation make', () => {
  const withProblems: OpenApiDocument = {
    ...DOCUMENT,
    components: {
      ...DOCUMENT.components,
      parameters: { ProfileFieldsParameter: { name: 'user.fields', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['id', 'username'] } } } },
      schemas: {
        ...(DOCUMENT.components!.schemas as object),
        Subscription: { type: 'object', properties: { event_type: { type: 'string', enum: ['dm.received'] } } },
        Profile: { type: 'object', properties: { id: { type: 'string' }, username: { type: 'string' }, pinned_post_id: { type: 'string' } } },
        Problem: { oneOf: [{ type: 'object', required: ['type'], properties: { type: { type: 'string', enum: ['https://api.x.com/2/problems/invalid-request'] } } }] },
      },
    },
  };
  const schemas = (document: OpenApiDocument) => document.components!.schemas as Record<string, { properties?: { event_type?: { enum?: string[] } }; oneOf?: unknown[] }>;

  it("add oauth.revoke to the event types, the generic and billing problem types, and each object's fields to its fields parameter, leaving the given document as it was", () => {
    const result = amended(withProblems);
    expect(schemas(result).Subscription!.properties!.event_type!.enum).toEqual(['dm.received', 'oauth.revoke']);
    expect(schemas(result).Problem!.oneOf).toHaveLength(2);
    expect(schemas(withProblems).Problem!.oneOf).toHaveLength(1);
    expect((result.components!.parameters as Record<string, { schema: { items: { enum: string[] } } }>).ProfileFieldsParameter!.schema.items.enum).toEqual(['id', 'username', 'pinned_post_id']);
    const answers = new OpenApiContract({ ...result, paths: { '/2/x': { get: { responses: { default: { content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } } } } } } });
    const refusal = (type: string) => answers.check(exchange({ path: '/2/x', status: 429, responseBody: { type, title: 'Too Many Requests' } }));
    expect(refusal('about:blank')).toEqual([]);
    expect(refusal('https://api.x.com/2/problems/usage-capped')).toEqual([]);
    expect(refusal('https://api.x.com/2/problems/made-up')).toHaveLength(1);
  });
});

describe('the simulator checking its exchanges', () => {
  const dir = mkdtempSync(join(tmpdir(), 'contract-check-'));
  const reportPath = join(dir, 'violations.jsonl');
  const http = axios.create({ validateStatus: () => true });
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const config = loadSimulatorConfig({ SOCIAL_ENV_NAME: 'test', WEBHOOK_URL: 'http://127.0.0.1:9/none' });
    server = await listen(createSimulatorApp({ config, logger: testLogger('sim'), contractCheck: contractCheck({ contract, reportPath }) }), 0, '127.0.0.1');
    base = `http://127.0.0.1:${portOf(server)}`;
  });

  afterAll(async () => {
    await closeServer(server);
    rmSync(dir, { recursive: true, force: true });
  });

  const report = () => (existsSync(reportPath) ? readFileSync(reportPath, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) : []);

  it('writes nothing for exchanges that follow the document or lie outside it', async () => {
    expect((await http.get(`${base}/2/users/me`)).status).toBe(400);
    expect((await http.get(`${base}/control/deliveries`)).status).toBe(200);
    expect((await http.get(`${base}/1.1/friends/ids.json`)).status).toBe(400);
    expect(report()).toEqual([]);
  });

  it('appends one JSON line per violation', async () => {
    await http.get(`${base}/2/nowhere`);
    // The answer is written before the check runs: wait for the line, not for time.
    for (let i = 0; i < 100 && report().length === 0; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(report()).toEqual([expect.objectContaining({ method: 'GET', path: '/2/nowhere', operation: null, where: 'route', message: 'the document has no such path' })]);
  });
});

describe('contractCheckFromEnvironment', () => {
  it('checks nothing without a document, and wants a report file with one', () => {
    expect(contractCheckFromEnvironment({})).toBeNull();
    expect(() => contractCheckFromEnvironment({ PLATFORM_OPENAPI_DOCUMENT: '/any/openapi.json' })).toThrow(/PLATFORM_CONFORMANCE_REPORT/);
  });
});
