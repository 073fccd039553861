import { ConfigError } from '@crm/config';
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
      DEFAULT_QUEUE: 'social',
      DEFAULT_FOLDER: 'inbox',
      SLA_FIRST_RESPONSE_MINUTES: 60,
      SLA_RESOLUTION_MINUTES: 1440,
      ACTIVITY_PREFETCH: 10,
      HELD_RELEASE_INTERVAL_MS: 60000,
      OUTBOX_RELAY_INTERVAL_MS: 5000,
      TRACKING_RPC_TIMEOUT_MS: 10000,
      TRACKING_REFRESH_AFTER_MS: 60000,
      TRACKING_READ_WAIT_MS: 1500,
    });
    expect(acceptsLocalDevToken(config)).toBe(true);
  });

  it('reads every setting from its variable', () => {
    const config = loadTicketingConfig({ CRM_API_TOKENS: ' a-token , b-token,', PORT: '4002', DEFAULT_QUEUE: 'dm', SLA_FIRST_RESPONSE_MINUTES: '15', ACTIVITY_PREFETCH: '3' });
    expect(config).toMatchObject({ CRM_API_TOKENS: ['a-token', 'b-token'], PORT: 4002, DEFAULT_QUEUE: 'dm', SLA_FIRST_RESPONSE_MINUTES: 15, ACTIVITY_PREFETCH: 3 });
    expect(acceptsLocalDevToken(config)).toBe(false);
  });

  it('requires CRM_API_TOKENS in production, and when NODE_ENV is not set', () => {
    expect(() => loadTicketingConfig({ NODE_ENV: 'production' })).toThrow(new ConfigError('ticketing: invalid configuration: CRM_API_TOKENS is missing'));
    expect(() => loadTicketingConfig({})).toThrow(new ConfigError('ticketing: invalid configuration: CRM_API_TOKENS is missing'));
    expect(loadTicketingConfig({ NODE_ENV: 'production', CRM_API_TOKENS: 'prod-token' }).CRM_API_TOKENS).toEqual(['prod-token']);
  });

  it('names every bad value in one line', () => {
    expect(() => loadTicketingConfig({ CRM_API_TOKENS: ',', SLA_RESOLUTION_MINUTES: '0', ACTIVITY_PREFETCH: '2.5' })).toThrow(
      /CRM_API_TOKENS must hold at least one value.*SLA_RESOLUTION_MINUTES must be a positive number.*ACTIVITY_PREFETCH must be a whole number of at least 1/,
    );
  });
});
