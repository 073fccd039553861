/**
 * Each Deployment's environment, as the overlay renders it (its ConfigMap, its variables, its
 * Secrets' keys given sample values), is one the service itself accepts in production: the
 * same readConfig that stops a service at start with exit code 78 when a setting is missing.
 */
import { randomBytes } from 'node:crypto';
import { readConfig as readAuthConfig } from '@crm/auth/src/config';
import { readConfig as readConsoleConfig } from '@crm/console/src/config';
import { loadTicketingConfig } from '@crm/ticketing/src/config';
import { readConfig as readTrackingConfig } from '@crm/tracking/src/config';
import { readConfig as readWebhookIngestConfig } from '@crm/webhook-ingest/src/config';
import { checkAll, ensureKubectl, K8S_ROOT, type OverlayReport } from './check';
import type { K8sObject } from './objects';

const READERS: Record<string, (env: NodeJS.ProcessEnv) => unknown> = {
  auth: readAuthConfig,
  console: readConsoleConfig,
  ticketing: loadTicketingConfig,
  tracking: readTrackingConfig,
  'webhook-ingest': readWebhookIngestConfig,
};

const consoleToken = `console-${randomBytes(16).toString('hex')}`;
/** A value of the right shape for every Secret key the manifests reference (infra/k8s/README.md, "Secrets"). */
const SAMPLE_SECRETS: Record<string, string> = {
  AMQP_URL: 'amqp://crm_service:password@rabbitmq:5672/crm',
  DATABASE_URL: 'postgres://crm_service_app:password@postgres-rw:5432/service',
  DATABASE_MIGRATION_URL: 'postgres://crm_service_migrator:password@postgres-rw:5432/service',
  CREDENTIALS_KEY: randomBytes(32).toString('base64'),
  WEBHOOK_SECRETS_KEY: randomBytes(32).toString('base64'),
  CRM_API_TOKENS: `crm-${randomBytes(16).toString('hex')}`,
  SERVICE_TOKEN: consoleToken,
  SESSION_ISSUER_TOKENS: consoleToken,
  SESSION_SECRET: randomBytes(32).toString('hex'),
  SOCIAL_CONSUMER_KEY: randomBytes(12).toString('hex'),
  SOCIAL_CONSUMER_SECRET: randomBytes(32).toString('hex'),
  SOCIAL_OAUTH2_CLIENT_ID: randomBytes(12).toString('hex'),
  SOCIAL_OAUTH2_CLIENT_SECRET: randomBytes(32).toString('hex'),
};

interface Container {
  envFrom?: { configMapRef?: { name: string } }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { key: string }; configMapKeyRef?: { name: string; key: string } } }[];
}

/** What the service's process sees: the image's NODE_ENV=production, then the ConfigMaps, then its own variables. */
function environmentOf(objects: K8sObject[], deployment: K8sObject): NodeJS.ProcessEnv {
  const configMap = (name: string) => (objects.find((object) => object.kind === 'ConfigMap' && object.metadata.name === name) as { data?: Record<string, string> } | undefined)?.data ?? {};
  const [container] = (deployment.spec as { template: { spec: { containers: Container[] } } }).template.spec.containers;
  const env: NodeJS.ProcessEnv = { NODE_ENV: 'production' };
  for (const source of container!.envFrom ?? []) if (source.configMapRef) Object.assign(env, configMap(source.configMapRef.name));
  for (const variable of container!.env ?? []) {
    const secretKey = variable.valueFrom?.secretKeyRef?.key;
    const configKey = variable.valueFrom?.configMapKeyRef;
    if (secretKey && !(secretKey in SAMPLE_SECRETS)) throw new Error(`no sample value for the Secret key ${secretKey}: add it to SAMPLE_SECRETS and to infra/k8s/README.md`);
    env[variable.name] = secretKey ? SAMPLE_SECRETS[secretKey] : configKey ? configMap(configKey.name)[configKey.key] : variable.value;
  }
  return env;
}

let reports: OverlayReport[];
beforeAll(() => {
  reports = checkAll(K8S_ROOT, ensureKubectl());
}, 300_000);

it("gives every service, in every overlay, an environment its production configuration accepts", () => {
  expect(reports.length).toBeGreaterThanOrEqual(2);
  for (const { overlay, objects } of reports) {
    const deployments = objects.filter((object) => object.kind === 'Deployment');
    expect(deployments.map((deployment) => deployment.metadata.name).sort()).toEqual(Object.keys(READERS).sort());
    for (const deployment of deployments) {
      const read = READERS[deployment.metadata.name]!;
      expect({ overlay, service: deployment.metadata.name, error: (() => { try { read(environmentOf(objects, deployment)); return undefined; } catch (error) { return (error as Error).message; } })() }).toEqual({ overlay, service: deployment.metadata.name, error: undefined });
    }
  }
});

it('would notice a setting an overlay forgot: auth without its public webhook URL does not start', () => {
  const prod = reports.find((report) => report.overlay === 'prod')!;
  const env = environmentOf(prod.objects, prod.objects.find((object) => object.kind === 'Deployment' && object.metadata.name === 'auth')!);
  delete env.PUBLIC_WEBHOOK_URL;
  expect(() => readAuthConfig(env)).toThrow(/PUBLIC_WEBHOOK_URL is missing/);
});
