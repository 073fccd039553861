/**
 * The services' Secrets, from what `pnpm provision` wrote (each service's broker and database
 * URLs, its least-rights users and roles) and the application secrets of a `.env` written by
 * infra/scripts/make-env.sh. The provisioner reached the broker and the database through
 * port-forwards, so its URLs name 127.0.0.1: the Secrets name the in-cluster hosts instead.
 */
import { stringify } from 'yaml';

export interface ProvisionedCredentials {
  services: Record<string, { AMQP_URL: string; DATABASE_URL?: string; DATABASE_MIGRATION_URL?: string }>;
}

export interface SecretInputs {
  credentials: ProvisionedCredentials;
  /** The variables of make-env.sh's .env. */
  env: Record<string, string>;
  brokerHost: string;
  databaseHost: string;
}

export interface SecretManifest {
  apiVersion: 'v1';
  kind: 'Secret';
  metadata: { name: string; labels: Record<string, string> };
  type: 'Opaque';
  stringData: Record<string, string>;
}

/** Each Secret the manifests reference, and where each of its keys comes from. */
const LAYOUT: Record<string, Record<string, { service?: string; url?: 'AMQP_URL' | 'DATABASE_URL' | 'DATABASE_MIGRATION_URL'; env?: string }>> = {
  'webhook-ingest-secrets': { AMQP_URL: { service: 'webhook-ingest', url: 'AMQP_URL' } },
  'ticketing-secrets': {
    AMQP_URL: { service: 'ticketing', url: 'AMQP_URL' },
    DATABASE_URL: { service: 'ticketing', url: 'DATABASE_URL' },
    WEBHOOK_SECRETS_KEY: { env: 'WEBHOOK_SECRETS_KEY' },
    CRM_API_TOKENS: { env: 'CRM_API_TOKENS' },
  },
  'auth-secrets': {
    AMQP_URL: { service: 'auth', url: 'AMQP_URL' },
    DATABASE_URL: { service: 'auth', url: 'DATABASE_URL' },
    SOCIAL_CONSUMER_KEY: { env: 'SOCIAL_CONSUMER_KEY' },
    SOCIAL_CONSUMER_SECRET: { env: 'SOCIAL_CONSUMER_SECRET' },
    SOCIAL_OAUTH2_CLIENT_ID: { env: 'SOCIAL_OAUTH2_CLIENT_ID' },
    SOCIAL_OAUTH2_CLIENT_SECRET: { env: 'SOCIAL_OAUTH2_CLIENT_SECRET' },
    CRM_API_TOKENS: { env: 'CRM_API_TOKENS' },
    SESSION_ISSUER_TOKENS: { env: 'CONSOLE_SERVICE_TOKEN' },
    CREDENTIALS_KEY: { env: 'CREDENTIALS_KEY' },
  },
  'tracking-secrets': {
    AMQP_URL: { service: 'tracking', url: 'AMQP_URL' },
    DATABASE_URL: { service: 'tracking', url: 'DATABASE_URL' },
    CRM_API_TOKENS: { env: 'CRM_API_TOKENS' },
    CREDENTIALS_KEY: { env: 'CREDENTIALS_KEY' },
  },
  'console-secrets': {
    SERVICE_TOKEN: { env: 'CONSOLE_SERVICE_TOKEN' },
    SESSION_SECRET: { env: 'CONSOLE_SESSION_SECRET' },
    CRM_API_TOKENS: { env: 'CRM_API_TOKENS' },
  },
  'ticketing-migration': { DATABASE_MIGRATION_URL: { service: 'ticketing', url: 'DATABASE_MIGRATION_URL' } },
  'auth-migration': { DATABASE_MIGRATION_URL: { service: 'auth', url: 'DATABASE_MIGRATION_URL' } },
  'tracking-migration': { DATABASE_MIGRATION_URL: { service: 'tracking', url: 'DATABASE_MIGRATION_URL' } },
};

const withHost = (value: string, host: string) => {
  const url = new URL(value);
  url.hostname = host;
  return url.toString();
};

/** Every Secret of the services; throws naming every value the inputs lack. */
export function secretManifests(inputs: SecretInputs): SecretManifest[] {
  const missing: string[] = [];
  const manifests = Object.entries(LAYOUT).map(([name, keys]): SecretManifest => {
    const stringData: Record<string, string> = {};
    for (const [key, source] of Object.entries(keys)) {
      const value = source.env ? inputs.env[source.env] : inputs.credentials.services[source.service!]?.[source.url!];
      if (!value) {
        missing.push(source.env ? `${source.env} in the .env file` : `${source.service}'s ${source.url} in the credentials file`);
        continue;
      }
      stringData[key] = source.url ? withHost(value, source.url === 'AMQP_URL' ? inputs.brokerHost : inputs.databaseHost) : value;
    }
    return { apiVersion: 'v1', kind: 'Secret', metadata: { name, labels: { 'app.kubernetes.io/part-of': 'crm' } }, type: 'Opaque', stringData };
  });
  if (missing.length) throw new Error(`missing: ${[...new Set(missing)].join(', ')}`);
  return manifests;
}

/** `.env` lines (NAME=value) as a map; comments and blank lines skipped. */
export const parseEnvFile = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((line) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

export const toYaml = (manifests: SecretManifest[]) => manifests.map((manifest) => stringify(manifest)).join('---\n');
