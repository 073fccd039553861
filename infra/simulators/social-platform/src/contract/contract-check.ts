import { appendFileSync, readFileSync } from 'node:fs';
import type { Request, RequestHandler } from 'express';
import { boundaryOf, parseMultipart } from '../platform/multipart';
import { OpenApiContract, type OpenApiDocument, type Violation } from './openapi-contract';

/**
 * The routes the simulator serves that the platform's v2 OpenAPI document does not hold, each
 * with why: the contract check leaves them alone, and nothing else. A request on any other path
 * the document lacks is a violation.
 */
export const OUTSIDE_THE_V2_DOCUMENT: readonly { method?: string; pattern: RegExp; kind: 'documented-elsewhere' | 'enterprise-only' | 'simulator-only'; reason: string }[] = [
  {
    method: 'POST',
    pattern: /^\/2\/users\/[^/]+\/blocking$/,
    kind: 'enterprise-only',
    reason: 'block: Enterprise-only, absent from the public v2 reference (only GET …/blocking is there); the simulator serves it in the shape of mute',
  },
  { method: 'DELETE', pattern: /^\/2\/users\/[^/]+\/blocking\/[^/]+$/, kind: 'enterprise-only', reason: 'unblock: as block' },
  { pattern: /^\/1\.1\//, kind: 'documented-elsewhere', reason: 'v1.1 routes (search, friends, unretweet): the v1.1 reference, not the v2 document' },
  { pattern: /^\/oauth\/(request_token|authorize|authenticate|access_token)$/, kind: 'documented-elsewhere', reason: 'OAuth 1.0a three-legged flow: the authentication guide' },
  { pattern: /^\/oauth2\/token$/, kind: 'documented-elsewhere', reason: 'the app-only bearer token (client credentials): the authentication guide' },
  { pattern: /^\/2\/oauth2\/(token|revoke)$/, kind: 'documented-elsewhere', reason: 'OAuth 2.0 token and revocation endpoints: the OAuth 2.0 authorization-code guide' },
  { pattern: /^\/i\/oauth2\/authorize$/, kind: 'documented-elsewhere', reason: "OAuth 2.0 consent page (x.com, not the API host): the OAuth 2.0 authorization-code guide" },
  { pattern: /^\/control(\/|$)/, kind: 'simulator-only', reason: "the simulator's control API: tests tell it what to deliver and how to fail" },
  { pattern: /^\/(health|metrics)(\/|$)/, kind: 'simulator-only', reason: 'probes and metrics of the simulator as a process' },
  { method: 'GET', pattern: /^\/favicon\.ico$/, kind: 'simulator-only', reason: "what a browser showing the simulator's consent page asks its host for" },
];

/**
 * Where the document contradicts itself, and how the check reads it. The v2 document names the
 * post object, its fields and most `*.fields`/`expansions` values with "post" (`post.fields`,
 * `edit_history_post_ids`, `referenced_posts`, `repost_count`, `post_count`), while some of its own
 * operations, the event-payloads page and every documented delivery keep "tweet"
 * (`tweet.fields`, `edit_history_tweet_ids`, `referenced_tweets`, `retweet_count`). The simulator
 * speaks as the deliveries do; the check takes a name under either naming.
 */
const EXACT_POST_NAMES: Record<string, string> = {
  'referenced_tweets.id': 'referenced_posts',
  'referenced_tweets.id.author_id': 'referenced_posts',
  'attachments.media_source_tweet': 'attachments.media_source_tweet',
};

export function postNaming(name: string): string {
  return EXACT_POST_NAMES[name] ?? name.replace(/retweet/g, 'repost').replace(/tweet/g, 'post');
}

/**
 * What other pages of the platform's documentation add to the v2 document, which the check
 * reads as part of it: the `oauth.revoke` event type (the X Activity API introduction and
 * event-payloads page document it; the subscription request's enum omits it) and the error
 * types of the response-codes page the `Problem` schema lacks (`about:blank`, the generic error
 * of any status, `usage-capped`, and `credits-depleted` as the platform answers a spent balance).
 * And each `*.fields` parameter takes every field of the object it selects from: the document's
 * enums leave out the fields that name other objects (`post.fields` lacks `author_id`,
 * `in_reply_to_user_id`, `referenced_posts`; `dm_event.fields` `sender_id`; `list.fields`
 * `owner_id`), which its own objects, older `tweet.fields` enum and expansions have.
 */
export const DOCUMENT_AMENDMENTS = {
  eventTypes: ['oauth.revoke'],
  problemTypes: ['about:blank', 'https://api.x.com/2/problems/usage-capped', 'https://api.x.com/2/problems/credits-depleted'],
} as const;

type Schemas = Record<string, { properties?: Record<string, { enum?: string[] }>; oneOf?: unknown[] }>;

/** The document with DOCUMENT_AMENDMENTS applied (a copy: the parsed document is the caller's). */
export function amended(document: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(document);
  const schemas = (copy.components?.schemas ?? {}) as Schemas;
  for (const schema of Object.values(schemas)) {
    const eventType = schema.properties?.event_type;
    if (eventType?.enum?.includes('dm.received')) eventType.enum.push(...DOCUMENT_AMENDMENTS.eventTypes.filter((type) => !eventType.enum!.includes(type)));
  }
  const parameters = (copy.components?.parameters ?? {}) as Record<string, { schema?: { items?: { enum?: string[] } } }>;
  for (const [key, parameter] of Object.entries(parameters)) {
    const selected = /^(\w+)FieldsParameter$/.exec(key)?.[1];
    const fields = parameter.schema?.items?.enum;
    const properties = selected ? schemas[selected]?.properties : undefined;
    if (fields && properties) fields.push(...Object.keys(properties).filter((field) => !fields.includes(field)));
  }
  if (schemas.Problem?.oneOf) {
    schemas.DocumentedElsewhereProblem = {
      type: 'object',
      required: ['type', 'title'],
      properties: { type: { type: 'string', enum: [...DOCUMENT_AMENDMENTS.problemTypes] }, title: { type: 'string' }, detail: { type: 'string' }, status: { type: 'integer' } },
    } as Schemas[string];
    schemas.Problem.oneOf.push({ $ref: '#/components/schemas/DocumentedElsewhereProblem' });
  }
  return copy;
}

export function outsideTheDocument(method: string, path: string) {
  return OUTSIDE_THE_V2_DOCUMENT.find((entry) => (!entry.method || entry.method === method) && entry.pattern.test(path));
}

/** Contracts by document file: every simulator of a process shares one, and its compiled schemas. */
const contracts = new Map<string, OpenApiContract>();

function contractOf(documentPath: string): OpenApiContract {
  let contract = contracts.get(documentPath);
  if (!contract) {
    contract = new OpenApiContract(amended(JSON.parse(readFileSync(documentPath, 'utf8')) as OpenApiDocument), postNaming);
    contracts.set(documentPath, contract);
  }
  return contract;
}

function parsed(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export interface ContractCheckOptions {
  contract: OpenApiContract;
  /** Each violation is appended to it as one JSON line. */
  reportPath: string;
}

/**
 * Checks every request the simulator receives and every answer it gives against the contract,
 * once the answer is sent, and appends each violation to the report. It never changes an
 * answer: the simulator keeps behaving as it does, the report says where it or its caller
 * departs from the platform's document.
 */
/**
 * A multipart/form-data body's fields as the document's schema reads them: a file's bytes as a
 * string (its `format: binary`), a whole number as a number (a form field is text on the wire).
 */
function formFields(req: Request): Record<string, unknown> | undefined {
  const boundary = boundaryOf(req.headers['content-type']);
  if (!boundary || !Buffer.isBuffer(req.body)) return undefined;
  const fields: Record<string, unknown> = {};
  for (const part of parseMultipart(req.body, boundary)) {
    const text = part.filename === undefined ? part.data.toString('utf8') : null;
    fields[part.name] = text === null ? '(binary)' : /^[0-9]{1,15}$/.test(text) ? Number(text) : text;
  }
  return fields;
}

export function contractCheck({ contract, reportPath }: ContractCheckOptions): RequestHandler {
  return (req, res, next) => {
    const path = req.originalUrl.split('?')[0]!;
    if (outsideTheDocument(req.method, path)) return next();
    let answer: string | undefined;
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      if (typeof body === 'string') answer = body;
      else if (Buffer.isBuffer(body)) answer = body.toString('utf8');
      return send(body);
    };
    res.on('finish', () => {
      const responseType = (res.getHeader('content-type') as string | undefined)?.split(';')[0]?.trim() ?? null;
      const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
      const isJson = /json/.test(req.headers['content-type'] ?? '');
      const form = isJson ? undefined : formFields(req);
      let violations: Violation[];
      try {
        violations = contract.check({
        method: req.method,
        path,
        query: new URLSearchParams(req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : ''),
        body: isJson ? (req.body as unknown) : form,
        hasBody,
        status: res.statusCode,
        responseType,
        responseBody: responseType && /json/.test(responseType) ? parsed(answer) : undefined,
        });
      } catch (error) {
        // The answer is already sent: a check that cannot run is reported, never thrown into the server.
        violations = [{ method: req.method, path, operation: null, where: 'route', message: `the check could not run: ${(error as Error).message}` }];
      }
      for (const violation of violations) appendFileSync(reportPath, `${JSON.stringify({ at: new Date().toISOString(), ...violation })}\n`);
    });
    next();
  };
}

/**
 * The check the environment asks for: PLATFORM_OPENAPI_DOCUMENT names the platform's OpenAPI
 * document, PLATFORM_CONFORMANCE_REPORT the file violations go to. Without the document: none.
 */
export function contractCheckFromEnvironment(env: NodeJS.ProcessEnv = process.env): RequestHandler | null {
  const documentPath = env.PLATFORM_OPENAPI_DOCUMENT;
  if (!documentPath) return null;
  const reportPath = env.PLATFORM_CONFORMANCE_REPORT;
  if (!reportPath) throw new Error('PLATFORM_OPENAPI_DOCUMENT is set: PLATFORM_CONFORMANCE_REPORT must name the file violations are written to');
  return contractCheck({ contract: contractOf(documentPath), reportPath });
}
