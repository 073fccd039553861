import { ConfigError, LOCAL_DEV } from '@crm/config';
import { acceptsLocalDevToken, loadTicketingConfig, LOCAL_DEV_TOKEN } from './config';

describe('ticketing configuration', () => {
  it('works out of the box locally (pnpm start sets NODE_ENV=development), with the documented development token', () => {
    const config = loadTicketingConfig({ NODE_ENV: 'development' });
    expect(config).toEqual({
      AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
      PORT: 3002,
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: 10000,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/ticketing',
      BROKER_TOPOLOGY: 'declare',
      CRM_API_TOKENS: [LOCAL_DEV_TOKEN],
      API_RATE_LIMIT_PER_MINUTE: 600,
      AUTH_FAILURES_PER_MINUTE: 60,
      CREDENTIAL_CACHE_TTL_MS: 30000,
      DEFAULT_QUEUE: 'social',
      DEFAULT_FOLDER: 'inbox',
      SLA_FIRST_RESPONSE_MINUTES: 60,
      SLA_RESOLUTION_MINUTES: 1440,
      ACTIVITY_PREFETCH: 100,
      ACTIVITY_BALANCE_INTERVAL_MS: 5000,
      ACTIVITY_TRANSACTIONS: 2,
      DB_LOCK_TIMEOUT_MS: 5000,
      DB_STATEMENT_TIMEOUT_MS: 30000,
      DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: 15000,
      RAW_LOG_RETENTION_DAYS: 30,
      HELD_TTL_DAYS: 14,
      HELD_MAX_PER_ACCOUNT: 10000,
      RETENTION_INTERVAL_MS: 3600000,
      HELD_RELEASE_INTERVAL_MS: 60000,
      OUTBOX_RELAY_INTERVAL_MS: 5000,
      TRACKING_RPC_TIMEOUT_MS: 10000,
      ORDER_FINDING_INTERVAL_MS: 2000,
      ORDER_FINDING_RETRY_DELAYS_MS: [5000, 30000, 120000, 600000, 1800000],
      SLA_TIMER_INTERVAL_MS: 10000,
      SEARCH_INTERVAL_MS: 5000,
      SEARCH_FIRST_RUN_MAX: 20,
      SEARCH_IDLE_INTERVAL_MAX_SECONDS: 3600,
      SEARCH_POST_READ_PRICE: 0.005,
      SEARCH_RPC_TIMEOUT_MS: 15000,
      SEARCHES_PER_CREDENTIAL: 2,
      SEARCH_STATEMENT_TIMEOUT_MS: 3000,
      TRACKING_REFRESH_AFTER_MS: 60000,
      SILENCE_AFTER_MINUTES: 60,
      SILENCE_LOOKBACK_HOURS: 24,
      SILENCE_MIN_DELIVERIES: 50,
      SILENCE_CHECK_INTERVAL_MS: 60000,
      TRACKING_READ_WAIT_MS: 1500,
      EVENT_STREAMS_PER_CREDENTIAL: 10,
      EVENT_STREAMS_PER_PROCESS: 1000,
      EVENT_STREAM_BUFFER_BYTES: 1048576,
      EVENT_STREAM_KEEPALIVE_MS: 15000,
      IDEMPOTENCY_KEY_TTL_HOURS: 24,
      WEBHOOK_SECRETS_KEY: LOCAL_DEV.credentialsKey,
      WEBHOOK_RETRY_DELAYS_MS: [10_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000],
      WEBHOOK_INTERVAL_MS: 1000,
      WEBHOOK_TIMEOUT_MS: 10000,
      WEBHOOK_ALLOWED_CIDRS: [],
    });
    expect(acceptsLocalDevToken(config)).toBe(true);
  });

  it('reads every setting from its variable', () => {
    const config = loadTicketingConfig({ NODE_ENV: 'test', CRM_API_TOKENS: ' a-token , b-token,', PORT: '4002', DEFAULT_QUEUE: 'dm', SLA_FIRST_RESPONSE_MINUTES: '15', ACTIVITY_PREFETCH: '3' });
    expect(config).toMatchObject({ CRM_API_TOKENS: ['a-token', 'b-token'], PORT: 4002, DEFAULT_QUEUE: 'dm', SLA_FIRST_RESPONSE_MINUTES: 15, ACTIVITY_PREFETCH: 3 });
    expect(acceptsLocalDevToken(config)).toBe(false);
  });

  it('requires CRM_API_TOKENS in production, and when NODE_ENV is not set', () => {
    for (const NODE_ENV of ['production', 'staging', 'Production', undefined]) {
      expect(() => loadTicketingConfig({ NODE_ENV })).toThrow(ConfigError);
      expect(() => loadTicketingConfig({ NODE_ENV })).toThrow(/^ticketing: invalid configuration: AMQP_URL is missing; DATABASE_URL is missing; CRM_API_TOKENS is missing/);
    }
    const addresses = { AMQP_URL: 'amqp://mq', DATABASE_URL: 'postgres://db/ticketing' };
    expect(loadTicketingConfig({ NODE_ENV: 'production', ...addresses, CRM_API_TOKENS: 'prod-token' }).CRM_API_TOKENS).toEqual(['prod-token']);
  });

  it('reads the ranges webhooks may reach besides public addresses, and names a bad one', () => {
    const ranges = loadTicketingConfig({ NODE_ENV: 'test', WEBHOOK_ALLOWED_CIDRS: '10.20.0.0/16, fd00:1::/64' }).WEBHOOK_ALLOWED_CIDRS;
    expect(ranges.map(([network, bits]) => `${network.toString()}/${bits}`)).toEqual(['10.20.0.0/16', 'fd00:1::/64']);
    expect(() => loadTicketingConfig({ NODE_ENV: 'test', WEBHOOK_ALLOWED_CIDRS: '10.20.0.0/16,10.30.0.1' })).toThrow(/WEBHOOK_ALLOWED_CIDRS.*'10\.30\.0\.1' is not a CIDR range/);
  });

  it('names every bad value in one line', () => {
    expect(() => loadTicketingConfig({ CRM_API_TOKENS: ',', SLA_RESOLUTION_MINUTES: '0', ACTIVITY_PREFETCH: '2.5' })).toThrow(
      /CRM_API_TOKENS must hold at least one value.*SLA_RESOLUTION_MINUTES must be a positive number.*ACTIVITY_PREFETCH must be a whole number of at least 1/,
    );
  });
});
