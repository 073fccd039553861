import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { checkAll, ensureKubectl, K8S_ROOT } from './check';
import { parseEnvFile, secretManifests, type SecretInputs } from './secrets';

const REPOSITORY = path.join(K8S_ROOT, '..', '..');
/** The admins' Secrets, which the operator makes (prod) or the person setting up dev creates. */
const NOT_GENERATED = new Set(['rabbitmq-admin', 'postgres-admin', 'postgres-superuser']);

function sampleInputs(): SecretInputs {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'make-env-')), '.env');
  execFileSync('bash', [path.join(REPOSITORY, 'infra', 'scripts', 'make-env.sh')], { env: { ...process.env, ENV_FILE: file } });
  const local = (user: string, database?: string) => (database ? `postgres://${user}:pw-${user}@127.0.0.1:5432/${database}` : `amqp://${user}:pw-${user}@127.0.0.1:5672/crm`);
  const services = Object.fromEntries(
    ['webhook-ingest', 'ticketing', 'auth', 'tracking', 'console'].map((service) => {
      const role = service.replace('-', '_');
      const database = ['ticketing', 'auth', 'tracking'].includes(service) ? { DATABASE_URL: local(`crm_${role}_app`, service), DATABASE_MIGRATION_URL: local(`crm_${role}_migrator`, service) } : {};
      return [service, { AMQP_URL: local(`crm_${service}`), ...database }];
    }),
  );
  return { credentials: { services }, env: parseEnvFile(readFileSync(file, 'utf8')), brokerHost: 'rabbitmq', databaseHost: 'postgres-rw' };
}

/** Every Secret name and key the rendered overlays reference. */
function referencedKeys(): Map<string, Set<string>> {
  const referenced = new Map<string, Set<string>>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    const ref = (record.secretKeyRef ?? (typeof record.parameter === 'string' ? record : undefined)) as { name?: string; key?: string } | undefined;
    if (ref?.name && ref.key) referenced.set(ref.name, new Set([...(referenced.get(ref.name) ?? []), ref.key]));
    Object.values(record).forEach(visit);
  };
  for (const { objects } of checkAll(K8S_ROOT, ensureKubectl())) visit(objects);
  return referenced;
}

it('makes every Secret the overlays reference, with every key they read, and no other', () => {
  const manifests = secretManifests(sampleInputs());
  const made = new Map(manifests.map((manifest) => [manifest.metadata.name, new Set(Object.keys(manifest.stringData))]));
  const referenced = referencedKeys();
  for (const name of NOT_GENERATED) referenced.delete(name);
  expect(made).toEqual(referenced);
}, 300_000);

it('names the in-cluster hosts in the URLs, and keeps users, passwords, ports and databases', () => {
  const byName = Object.fromEntries(secretManifests(sampleInputs()).map((manifest) => [manifest.metadata.name, manifest.stringData]));
  expect(byName['ticketing-secrets']!.AMQP_URL).toBe('amqp://crm_ticketing:pw-crm_ticketing@rabbitmq:5672/crm');
  expect(byName['ticketing-secrets']!.DATABASE_URL).toBe('postgres://crm_ticketing_app:pw-crm_ticketing_app@postgres-rw:5432/ticketing');
  expect(byName['auth-migration']!.DATABASE_MIGRATION_URL).toBe('postgres://crm_auth_migrator:pw-crm_auth_migrator@postgres-rw:5432/auth');
  // The console's token issues sessions at auth and is no bootstrap token anywhere.
  expect(byName['auth-secrets']!.SESSION_ISSUER_TOKENS).toBe(byName['console-secrets']!.SERVICE_TOKEN);
  expect(byName['auth-secrets']!.CRM_API_TOKENS!.split(',')).not.toContain(byName['console-secrets']!.SERVICE_TOKEN);
});

it('refuses inputs that lack a value, naming each', () => {
  const inputs = sampleInputs();
  delete inputs.env.CREDENTIALS_KEY;
  delete inputs.credentials.services.tracking!.DATABASE_MIGRATION_URL;
  expect(() => secretManifests(inputs)).toThrow("missing: CREDENTIALS_KEY in the .env file, tracking's DATABASE_MIGRATION_URL in the credentials file");
});

it('prints YAML that kubectl takes: the CLI over a credentials file and a .env', () => {
  const inputs = sampleInputs();
  const folder = mkdtempSync(path.join(os.tmpdir(), 'k8s-secrets-'));
  writeFileSync(path.join(folder, 'credentials.json'), JSON.stringify(inputs.credentials));
  writeFileSync(path.join(folder, '.env'), Object.entries(inputs.env).map(([key, value]) => `${key}=${value}`).join('\n'));
  const cli = path.join(__dirname, 'secrets-cli.ts');
  const output = execFileSync(path.join(REPOSITORY, 'node_modules', '.bin', 'tsx'), [cli, '--credentials', path.join(folder, 'credentials.json'), '--env', path.join(folder, '.env'), '--database-host', 'postgres'], { encoding: 'utf8' });
  const documents = parseAllDocuments(output).map((document) => document.toJS() as { kind: string; metadata: { name: string }; stringData: Record<string, string> });
  expect(documents).toHaveLength(8);
  expect(documents.every((document) => document.kind === 'Secret')).toBe(true);
  expect(documents.find((document) => document.metadata.name === 'tracking-secrets')!.stringData.DATABASE_URL).toBe('postgres://crm_tracking_app:pw-crm_tracking_app@postgres:5432/tracking');
});
