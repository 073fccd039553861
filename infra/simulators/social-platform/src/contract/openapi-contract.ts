import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * An OpenAPI 3.0 document as far as the contract check reads it: paths, their operations'
 * parameters, request bodies and responses; schemas are handed to Ajv as they are.
 */
interface Reference {
  $ref: string;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Record<string, unknown>;
}
interface MediaTypes {
  content?: Record<string, { schema?: unknown }>;
}
interface Operation {
  parameters?: (Parameter | Reference)[];
  requestBody?: (MediaTypes & { required?: boolean }) | Reference;
  responses?: Record<string, MediaTypes | Reference>;
}
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
}

const emptyObject = (body: unknown): boolean => typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** What one exchange (a request and its answer) is checked with. */
export interface Exchange {
  method: string;
  /** The path without its query. */
  path: string;
  query: URLSearchParams;
  /** The parsed JSON body, or undefined when the request had none (or not JSON). */
  body: unknown;
  /** Whether the request carried a body at all. */
  hasBody: boolean;
  status: number;
  /** The answer's media type without parameters (`application/json`), or null. */
  responseType: string | null;
  /** The parsed JSON answer, or undefined when it was not JSON. */
  responseBody: unknown;
}

/** One way an exchange departs from the document. */
export interface Violation {
  method: string;
  path: string;
  /** The document's path template the request matched, when it matched one. */
  operation: string | null;
  where: 'route' | 'path' | 'query' | 'body' | 'status' | 'response';
  message: string;
}

/** A matched operation with its validators, compiled the first time an exchange reaches it. */
interface CompiledOperation {
  pathParameters: Parameter[];
  queryParameters: Parameter[];
  parameterValidators: Map<string, ValidateFunction>;
  /** Schemas by reference into the document, compiled when first needed (an error answer's schema only if one is given). */
  body: { required: boolean; schemas: string[] } | null;
  responses: Map<string, string[]>;
}

const DOCUMENT_ID = 'platform-openapi';

function pointer(segments: string[]): string {
  return `#/${segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/** The segments of a local `#/...` reference, unescaped. */
function segmentsOf(ref: string): string[] {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function templateRegex(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}${e.keyword === 'enum' ? `: ${JSON.stringify(e.data)}` : ''}`)
    .join('; ');
}

/**
 * Checks requests and answers against an OpenAPI 3.0 document with Ajv: that the path and
 * method are documented, the path and query parameters (required ones present, none
 * undocumented, each of its schema), the JSON request body, the status code and the JSON
 * answer for that status. Schemas compile once, the first time an operation is used.
 */
export class OpenApiContract {
  private readonly ajv: Ajv;
  /** Parameters arrive as text: this instance coerces them to the schema's type. */
  private readonly parameterAjv: Ajv;
  private readonly routes: { template: string; regex: RegExp; literalLength: number }[];
  private readonly compiled = new Map<string, CompiledOperation | null>();
  private readonly validators = new Map<string, ValidateFunction>();

  /**
   * `alias` gives, for a name the platform uses (a field, parameter or value), the document's other
   * name for it, or the name itself: a request or answer passes under either naming.
   */
  constructor(
    private readonly document: OpenApiDocument,
    private readonly alias: (name: string) => string = (name) => name,
  ) {
    // The document's schemas are taken as published (one enum lists a value twice): not checked as schemas.
    const options = { strict: false, allErrors: true, discriminator: false, validateSchema: false, verbose: true, inlineRefs: false } as const;
    this.ajv = addFormats(new Ajv(options));
    this.parameterAjv = addFormats(new Ajv({ ...options, coerceTypes: 'array' }));
    this.ajv.addSchema(document as object, DOCUMENT_ID);
    this.parameterAjv.addSchema(document as object, DOCUMENT_ID);
    // A literal segment beats a template one (`/2/users/me` before `/2/users/{id}`).
    this.routes = Object.keys(document.paths)
      .map((template) => ({ template, regex: templateRegex(template), literalLength: template.replace(/\{[^}]+\}/g, '').length }))
      .sort((a, b) => b.literalLength - a.literalLength);
  }

  /** The document's path template for a concrete path, if any. */
  match(path: string): { template: string; values: string[] } | null {
    for (const route of this.routes) {
      const found = route.regex.exec(path);
      if (found) return { template: route.template, values: found.slice(1).map((v) => decodeURIComponent(v)) };
    }
    return null;
  }

  check(exchange: Exchange): Violation[] {
    const violations: Violation[] = [];
    const matched = this.match(exchange.path);
    const fail = (where: Violation['where'], message: string) =>
      violations.push({ method: exchange.method, path: exchange.path, operation: matched?.template ?? null, where, message });
    if (!matched) {
      fail('route', 'the document has no such path');
      return violations;
    }
    const operation = this.operation(matched.template, exchange.method.toLowerCase());
    if (!operation) {
      fail('route', `the document has no ${exchange.method} operation on ${matched.template}`);
      return violations;
    }

    // A request the simulator refused (4xx) is one the platform refuses too: only its answer is checked.
    if (exchange.status < 400 || exchange.status >= 500) this.checkRequest(exchange, matched, operation, fail);
    this.checkResponse(exchange, operation, fail);
    return violations;
  }

  private checkRequest(exchange: Exchange, matched: { template: string; values: string[] }, operation: CompiledOperation, fail: (where: Violation['where'], message: string) => void): void {
    const names = [...matched.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    names.forEach((name, index) => {
      const parameter = operation.pathParameters.find((p) => p.name === name);
      if (parameter) this.checkParameter(operation, parameter, matched.values[index]!, (m) => fail('path', m));
    });

    const query = new URLSearchParams();
    for (const [name, value] of exchange.query) query.append(operation.queryParameters.some((p) => p.name === name) ? name : this.alias(name), value);
    for (const parameter of operation.queryParameters) {
      const values = query.getAll(parameter.name);
      if (values.length === 0) {
        if (parameter.required) fail('query', `${parameter.name} is required`);
        continue;
      }
      this.checkParameter(operation, parameter, values.join(','), (m) => fail('query', m));
    }
    for (const name of new Set(query.keys())) {
      if (!operation.queryParameters.some((p) => p.name === name)) fail('query', `${name} is not a documented parameter`);
    }

    if (operation.body) {
      if (!exchange.hasBody) {
        if (operation.body.required) fail('body', 'a JSON body is required');
      } else if (exchange.body === undefined) {
        fail('body', 'the body is not JSON');
      } else if (operation.body.schemas.length > 0 && !this.passes(operation.body.schemas, exchange.body)) {
        fail('body', describe(this.validator(operation.body.schemas[0]!).errors));
      }
    } else if (exchange.hasBody && !emptyObject(exchange.body)) {
      // An empty JSON object carries nothing: clients send one on bodiless POSTs (twitter-api-v2's finalize).
      fail('body', 'the operation takes no body');
    }
  }

  private checkResponse(exchange: Exchange, operation: CompiledOperation, fail: (where: Violation['where'], message: string) => void): void {
    const status = String(exchange.status);
    const key = [status, `${status[0]}XX`, 'DEFAULT'].find((candidate) => operation.responses.has(candidate));
    const schemas = key === undefined ? undefined : operation.responses.get(key);
    if (!schemas) {
      fail('status', `status ${exchange.status} is not documented (documented: ${[...operation.responses.keys()].join(', ')})`);
    } else if (schemas.length > 0 && exchange.status !== 204) {
      if (exchange.responseBody === undefined) fail('response', `the ${exchange.status} answer is not JSON (${exchange.responseType ?? 'no body'})`);
      else if (!this.passes(schemas, exchange.responseBody)) fail('response', `${exchange.status}: ${describe(this.validator(schemas[0]!).errors)}`);
    }
  }

  private checkParameter(operation: CompiledOperation, parameter: Parameter, raw: string, fail: (message: string) => void): void {
    const validate = operation.parameterValidators.get(`${parameter.in}:${parameter.name}`);
    if (!validate) return;
    // Arrays are written comma-separated (style form, explode false); Ajv coerces the rest.
    const holder = (text: string) => ({ value: this.isArray(parameter.schema) ? text.split(',') : text });
    if (!validate(holder(raw)) && !validate(holder([...new Set(raw.split(',').map(this.alias))].join(',')))) fail(`${parameter.name}: ${describe(validate.errors).replace('/value', '')}`);
  }

  /** The validator of a schema in the document, compiled once: operations share their error and object schemas. */
  private validator(ref: string): ValidateFunction {
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.validators.set(ref, validate);
    }
    return validate;
  }

  /** Whether a body passes one of the schemas, as it is or with its field names in the document's other naming. */
  private passes(schemas: string[], body: unknown): boolean {
    const validators = schemas.map((ref) => this.validator(ref));
    if (validators.some((validate) => validate(body))) return true;
    const renamed = this.renamed(body);
    // Keep the first attempt's errors for the report: they name the fields as sent.
    const errors = validators[0]!.errors;
    const passed = validators.some((validate) => validate(renamed));
    validators[0]!.errors = errors;
    return passed;
  }

  private renamed(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.renamed(item));
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [this.alias(key), this.renamed(inner)]));
  }

  private isArray(schema: Record<string, unknown> | undefined): boolean {
    const resolved = schema && typeof schema.$ref === 'string' ? (this.resolve<Record<string, unknown>>(schema as unknown as Reference)) : schema;
    return resolved?.type === 'array';
  }

  private resolve<T>(value: T | Reference): T {
    let current: unknown = value;
    for (let depth = 0; depth < 10 && typeof current === 'object' && current !== null && typeof (current as Reference).$ref === 'string'; depth += 1) {
      current = segmentsOf((current as Reference).$ref).reduce<unknown>((node, segment) => (node as Record<string, unknown>)[segment], this.document);
    }
    return current as T;
  }

  private operation(template: string, method: string): CompiledOperation | null {
    const key = `${method} ${template}`;
    if (this.compiled.has(key)) return this.compiled.get(key)!;
    const item = this.document.paths[template]!;
    const raw = METHODS.includes(method as (typeof METHODS)[number]) ? (item[method] as Operation | undefined) : undefined;
    if (!raw) {
      this.compiled.set(key, null);
      return null;
    }
    const base = ['paths', template, method];
    const jsonTypes = (media: MediaTypes, at: string[]) =>
      Object.entries(media.content ?? {})
        .filter(([type, entry]) => /json/.test(type) && entry.schema !== undefined)
        .map(([type]) => `${DOCUMENT_ID}${pointer([...at, 'content', type, 'schema'])}`);

    // Parameters of the path item and of the operation, the operation's winning.
    const parameters = new Map<string, Parameter>();
    const parameterValidators = new Map<string, ValidateFunction>();
    for (const list of [item.parameters as (Parameter | Reference)[] | undefined, raw.parameters]) {
      for (const entry of list ?? []) {
        const parameter = this.resolve(entry);
        parameters.set(`${parameter.in}:${parameter.name}`, parameter);
        if (parameter.schema) {
          parameterValidators.set(
            `${parameter.in}:${parameter.name}`,
            this.parameterAjv.compile({ type: 'object', properties: { value: parameter.schema.$ref ? { $ref: `${DOCUMENT_ID}${parameter.schema.$ref as string}` } : this.rebase(parameter.schema) } }),
          );
        }
      }
    }

    const body = raw.requestBody ? this.resolve(raw.requestBody) : undefined;
    const responses = new Map<string, string[]>();
    for (const [status, response] of Object.entries(raw.responses ?? {})) {
      const ref = (response as Reference).$ref;
      const at = ref ? segmentsOf(ref) : [...base, 'responses', status];
      responses.set(status.toUpperCase(), jsonTypes(this.resolve(response), at));
    }
    const bodyRef = (raw.requestBody as Reference | undefined)?.$ref;
    const compiled: CompiledOperation = {
      pathParameters: [...parameters.values()].filter((p) => p.in === 'path'),
      queryParameters: [...parameters.values()].filter((p) => p.in === 'query'),
      parameterValidators,
      body: body ? { required: body.required === true, schemas: jsonTypes(body, bodyRef ? segmentsOf(bodyRef) : [...base, 'requestBody']) } : null,
      responses,
    };
    this.compiled.set(key, compiled);
    return compiled;
  }

  /** An inline parameter schema whose inner `$ref`s point into the document. */
  private rebase(schema: Record<string, unknown>): unknown {
    return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${DOCUMENT_ID}#/`)) as unknown;
  }
}
