import { loadConfig, commonSpecs, str, wholeNumber } from '@crm/config';

export function readConfig(env: NodeJS.ProcessEnv = process.env) {
  const { DATABASE_URL: _noDatabase, DATABASE_MIGRATION_URL: _noMigrations, ...common } = commonSpecs('webhook-ingest', 3001);
  return loadConfig(
    'webhook-ingest',
    {
      ...common,
      BODY_LIMIT: str({ default: '1mb', desc: 'Largest delivery accepted; larger ones get 413.' }),
      WEBHOOK_KEY_CACHE_SECONDS: wholeNumber(1)({ default: 300, desc: 'How long a webhook key from auth is kept in memory.' }),
      UNKNOWN_ENVIRONMENT_CACHE_SECONDS: wholeNumber(1)({ default: 30, desc: 'How long "auth does not know this environment" is kept, so unknown names cost one lookup per period.' }),
      AUTH_RPC_TIMEOUT_MS: wholeNumber(1)({ default: 2000, desc: 'Wait for auth to give a webhook key (the CRC must answer within 3 s).' }),
      PUBLISH_TIMEOUT_MS: wholeNumber(1)({ default: 5000, desc: 'Wait for the broker to confirm a delivery before answering 503.' }),
    },
    env,
  );
}

export type WebhookIngestConfig = ReturnType<typeof readConfig>;
