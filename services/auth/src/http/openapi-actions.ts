import { isMap, parseDocument, type Document, type YAMLMap } from 'yaml';
import { SOCIAL_ACTION_INPUT_SCHEMAS, type SocialAction } from '@crm/contracts';
import { ACTIONS } from '../domain/actions';
import { ACTION_ROUTES, pathParams, type ActionRoute } from './action-routes';

/**
 * The `actions` part of auth's OpenAPI document, generated from one source: the action routes
 * (where each input field comes from: path, query or body) and the social commands' input
 * schemas in @crm/contracts. The rest of the document is written by hand; generating keeps
 * it and replaces only the operations marked `x-action` and the `input_*` schemas.
 */

type Schema = Record<string, unknown>;

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const INPUT_PREFIX = 'input_';

/** Keywords in the order a reader looks for them; the rest follow by name. The document stays the same however a schema's keys were written. */
const KEY_ORDER = ['description', 'type', 'additionalProperties', 'properties', 'required', 'minProperties', 'oneOf', 'anyOf', 'enum', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum'];
const rank = (key: string) => (KEY_ORDER.includes(key) ? KEY_ORDER.indexOf(key) : KEY_ORDER.length);

/** A JSON Schema with its keywords in KEY_ORDER (property names keep their order), as plain data. */
function canonical(value: unknown, inProperties = false): unknown {
  if (Array.isArray(value)) return value.map((item) => canonical(item));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value);
  if (!inProperties) entries.sort(([a], [b]) => rank(a) - rank(b) || (rank(a) === KEY_ORDER.length ? a.localeCompare(b) : 0));
  return Object.fromEntries(entries.map(([key, item]) => [key, canonical(item, !inProperties && key === 'properties')]));
}

/** The input schema of an action, as libs/contracts checks commands and auth's HTTP API with it. */
export const actionInputSchema = (action: SocialAction): Schema => canonical(SOCIAL_ACTION_INPUT_SCHEMAS[action]) as Schema;

const openApiPath = (route: ActionRoute) => `/v1/accounts/{accountId}${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`;

/** The input fields a route fills from its path, by parameter. */
const pathFields = (route: ActionRoute) => pathParams(route.path).map((param) => ({ param, fields: param === 'user' ? ['userId', 'screenName'] : [route.fields?.[param] ?? param] }));

function parameters(route: ActionRoute, input: Schema): Schema[] {
  const properties = input.properties as Record<string, Schema>;
  const required = new Set((input.required as string[] | undefined) ?? []);
  const out: Schema[] = [ref('parameters', 'accountId')];
  for (const { param, fields } of pathFields(route)) {
    const missing = fields.filter((field) => !properties[field]);
    if (missing.length > 0) throw new Error(`${route.action}: the path parameter ${param} fills ${missing.join(', ')}, which the input does not have`);
    if (param === 'user') {
      out.push({ name: 'user', in: 'path', required: true, description: 'A user id (digits) or a screen name (with or without @).', schema: { anyOf: [properties.userId, properties.screenName] } });
    } else {
      const description = fields[0] === param ? {} : { description: `The input's ${fields[0]}.` };
      out.push({ name: param, in: 'path', required: true, ...description, schema: properties[fields[0]!] });
    }
  }
  for (const name of route.query ?? []) {
    if (!properties[name]) throw new Error(`${route.action}: the query parameter ${name} is not a field of the input`);
    out.push({ name, in: 'query', ...(required.has(name) ? { required: true } : {}), schema: properties[name] });
  }
  if (ACTIONS[route.action].kind === 'write') out.push(ref('parameters', 'idempotencyKey'));
  return out;
}

/** What the JSON body holds: the input without the fields the path and the query fill. */
function bodySchema(route: ActionRoute, input: Schema): Schema | null {
  const taken = new Set([...pathFields(route).flatMap(({ fields }) => fields), ...(route.query ?? [])]);
  const properties = Object.fromEntries(Object.entries(input.properties as Record<string, Schema>).filter(([name]) => !taken.has(name)));
  if (!route.body) {
    const left = Object.keys(properties);
    if (left.length > 0) throw new Error(`${route.action}: the input's ${left.join(', ')} come from neither the path nor the query, and the route takes no body`);
    return null;
  }
  const required = ((input.required as string[] | undefined) ?? []).filter((name) => !taken.has(name));
  const removedRequired = ((input.required as string[] | undefined) ?? []).length - required.length;
  const fromPath = Object.keys(input.properties as Schema).filter((name) => taken.has(name));
  const description = `The input of ${route.action}${fromPath.length > 0 ? ` without ${fromPath.join(' and ')}, which the path gives` : ''} (the social command's input schema).`;
  const body: Schema = { description, ...input, properties };
  if (required.length > 0) body.required = required;
  else delete body.required;
  if (typeof input.minProperties === 'number') body.minProperties = input.minProperties - removedRequired;
  return body;
}

const RESPONSES: [string, string][] = [
  ['400', 'BadRequest'],
  ['401', 'Unauthorized'],
  ['403', 'Forbidden'],
  ['404', 'NotFound'],
  ['409', 'Conflict'],
  ['413', 'PayloadTooLarge'],
  ['415', 'UnsupportedMediaType'],
  ['422', 'Unprocessable'],
  ['429', 'TooManyRequests'],
  ['500', 'InternalError'],
  ['503', 'ServiceUnavailable'],
  ['504', 'GatewayTimeout'],
];

/** Every input field a path may be made of, as a `{field}` placeholder. */
const PLACEHOLDERS = Object.fromEntries(['userId', 'postId', 'listId', 'recipientId', 'inReplyToPostId', 'eventId', 'collectionId'].map((field) => [field, `{${field}}`]));

/** Which platform route carries the action out, for the reader: `v2 POST /2/users/{accountId}/likes`. */
function platformRoute(action: ActionRoute['action']): string {
  const definition = ACTIONS[action];
  const request = definition.request(PLACEHOLDERS, '{accountId}');
  const lookup = '; a user named by screen name is first looked up with `GET /2/users/by/username/{username}`';
  const translated = definition.answer ? ', its answer given in the v1.1 shape' : '';
  const oauth1Only = definition.api === 'v1.1' ? ' OAuth 1.0a accounts only (an OAuth 2.0 account gets 409 `needs_oauth1`).' : '';
  return `Platform: ${definition.api} \`${request.method} ${decodeURIComponent(request.path)}\`${translated}${definition.usersById ? lookup : ''}.${oauth1Only}`;
}

function operation(route: ActionRoute): { operation: Schema; body: Schema | null } {
  const kind = ACTIONS[route.action].kind;
  const input = actionInputSchema(route.action);
  const body = bodySchema(route, input);
  const responses: Schema = { '200': ref('responses', 'ActionResult') };
  for (const [status, name] of RESPONSES) if (body || (status !== '413' && status !== '415')) responses[status] = ref('responses', name);
  const operation: Schema = {
    operationId: route.action,
    'x-action': route.action,
    'x-required-scope': kind === 'write' ? 'tickets:write' : 'tickets:read',
    tags: ['actions'],
    summary: `${route.action} (${kind})`,
    description: route.description ? `${route.description} ${platformRoute(route.action)}` : platformRoute(route.action),
    'x-platform-api': ACTIONS[route.action].api,
    parameters: parameters(route, input),
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', `${INPUT_PREFIX}${route.action}`) } } } } : {}),
    responses,
  };
  return { operation, body };
}

/** Every action route as an OpenAPI path item, and the body schema of each action that takes one. */
export function actionOperations(routes: ActionRoute[] = ACTION_ROUTES): { paths: Record<string, Record<string, Schema>>; schemas: Record<string, Schema> } {
  const paths: Record<string, Record<string, Schema>> = {};
  const schemas: Record<string, Schema> = {};
  for (const route of routes) {
    const made = operation(route);
    (paths[openApiPath(route)] ??= {})[route.method] = made.operation;
    if (made.body) schemas[`${INPUT_PREFIX}${route.action}`] = made.body;
  }
  return { paths, schemas };
}

const generatedPath = (item: unknown) => isMap(item) && item.items.length > 0 && item.items.every((pair) => isMap(pair.value) && pair.value.has('x-action'));

/** The document with its generated part made again from the routes and the contracts (the hand-written part kept as written). */
export function withActionOperations(source: string): string {
  const doc: Document = parseDocument(source);
  const paths = doc.get('paths') as YAMLMap;
  const schemas = doc.getIn(['components', 'schemas']) as YAMLMap;
  for (const pair of [...paths.items]) if (generatedPath(pair.value)) paths.delete(pair.key);
  for (const pair of [...schemas.items]) if (String(pair.key).startsWith(INPUT_PREFIX)) schemas.delete(pair.key);
  const generated = actionOperations();
  for (const [path, item] of Object.entries(generated.paths)) paths.set(path, doc.createNode(item, { aliasDuplicateObjects: false }));
  for (const [name, schema] of Object.entries(generated.schemas)) schemas.set(name, doc.createNode(schema, { aliasDuplicateObjects: false }));
  return doc.toString({ lineWidth: 0 });
}
