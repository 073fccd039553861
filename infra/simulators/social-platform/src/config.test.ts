import { ConfigError } from '@crm/config';
import { redact } from '@crm/logging';
import { loadSimulatorConfig } from './config';

describe('loadSimulatorConfig', () => {
  it('defaults to port 3101 and the local webhook-ingest URL of the environment', () => {
    expect(loadSimulatorConfig({})).toEqual({
      PORT: 3101,
      SOCIAL_CONSUMER_KEY: 'local-dev-consumer-key',
      OAUTH_TIMESTAMP_WINDOW_SECONDS: 300,
      SOCIAL_CONSUMER_SECRET: 'local-dev-consumer-secret',
      SOCIAL_ENV_NAME: 'dev',
      WEBHOOK_URL: 'http://127.0.0.1:3001/webhooks/dev',
      WEBHOOK_LIMIT: 1,
      AAA_SUBSCRIPTION_LIMIT: 3,
      WEBHOOK_HTTP_ALLOWED: false,
      XAA_MAX_SUBSCRIPTIONS: 1500,
      XAA_REPLAY_MIN_START_AGE_SECONDS: 1860,
      XAA_REPLAY_MIN_END_AGE_SECONDS: 600,
      SOCIAL_OAUTH2_CLIENT_ID: 'local-dev-oauth2-client-id',
      SOCIAL_OAUTH2_CLIENT_SECRET: 'local-dev-oauth2-client-secret',
      OAUTH2_ACCESS_TOKEN_TTL_SECONDS: 7200,
      DM_WRITE_LIMIT_PER_15_MINUTES: 15,
      CREDIT_BALANCE: 1000,
      LOG_LEVEL: 'info',
    });
    expect(loadSimulatorConfig({ SOCIAL_ENV_NAME: 'staging' }).WEBHOOK_URL).toBe('http://127.0.0.1:3001/webhooks/staging');
    expect(loadSimulatorConfig({ WEBHOOK_URL: 'http://example.test/hook' }).WEBHOOK_URL).toBe('http://example.test/hook');
  });

  it('refuses bad values in one line naming them', () => {
    expect(() => loadSimulatorConfig({ PORT: 'eighty', WEBHOOK_URL: 'nope' })).toThrow(ConfigError);
    expect(() => loadSimulatorConfig({ PORT: 'eighty', WEBHOOK_URL: 'nope' })).toThrow(/PORT.*WEBHOOK_URL|WEBHOOK_URL.*PORT/);
  });

  it('keeps the consumer secret out of logs', () => {
    loadSimulatorConfig({ SOCIAL_CONSUMER_SECRET: 'config-test-secret-value' });
    expect(redact('key is config-test-secret-value')).toBe('key is [REDACTED]');
  });
});
