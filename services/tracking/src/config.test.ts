import { ConfigError } from '@crm/config';
import { LOCAL_ONLY, readConfig, usesLocalOnlySecrets } from './config';

const KEY = Buffer.alloc(32, 7).toString('base64');

describe('tracking configuration', () => {
  it('runs locally out of the box, on the local token and key, and says so', () => {
    const config = readConfig({ NODE_ENV: 'development' });
    expect(config).toMatchObject({
      PORT: 3004,
      CRM_API_TOKENS: [LOCAL_ONLY.apiToken],
      TRACKING_API_URL: 'http://127.0.0.1:3102',
      TRACKING_INCLUDE_PARAM: 'include',
      TRACKING_CREATE_METHOD: 'PUT',
      TRACKING_CREATE_PATH: '/v1/client/{clientId}/mpmdtask/{taskId}',
      ROUTE_DETOUR_FACTOR: 1.2,
    });
    expect(config.ROUTING_URL).toBeUndefined();
    expect(usesLocalOnlySecrets(config)).toBe(true);
    expect(usesLocalOnlySecrets(readConfig({ NODE_ENV: 'development', CRM_API_TOKENS: 'a,b', CREDENTIALS_KEY: KEY }))).toBe(false);
  });

  it.each(['production', 'staging', 'prod', undefined])('needs the secrets, the addresses and the provider URL with NODE_ENV %p, named in one line', (NODE_ENV) => {
    expect(() => readConfig({ NODE_ENV })).toThrow(ConfigError);
    expect(() => readConfig({ NODE_ENV })).toThrow(/AMQP_URL.*DATABASE_URL.*CRM_API_TOKENS.*CREDENTIALS_KEY.*TRACKING_API_URL/);
    const config = readConfig({ NODE_ENV, AMQP_URL: 'amqp://mq', DATABASE_URL: 'postgres://db/tracking', CRM_API_TOKENS: 'crm-1, crm-2', CREDENTIALS_KEY: KEY, TRACKING_API_URL: 'https://tracking.example' });
    expect(config.CRM_API_TOKENS).toEqual(['crm-1', 'crm-2']);
  });

  it('refuses bad values', () => {
    expect(() => readConfig({ NODE_ENV: 'test', CRM_API_TOKENS: ' , ' })).toThrow(/CRM_API_TOKENS must hold at least one value/);
    expect(() => readConfig({ NODE_ENV: 'test', BREAKER_ERROR_PERCENT: '150' })).toThrow(/BREAKER_ERROR_PERCENT/);
    expect(() => readConfig({ NODE_ENV: 'test', PROVIDER_TIMEOUT_MS: '0' })).toThrow(/PROVIDER_TIMEOUT_MS/);
    expect(() => readConfig({ NODE_ENV: 'test', TRACKING_INCLUDE_PARAM: 'a b' })).toThrow(/TRACKING_INCLUDE_PARAM/);
    expect(() => readConfig({ NODE_ENV: 'test', TRACKING_CREATE_METHOD: 'PATCH' })).toThrow(/TRACKING_CREATE_METHOD/);
  });

  it('keeps a PUT create idempotent: its path must name the task id', () => {
    expect(() => readConfig({ NODE_ENV: 'test', TRACKING_CREATE_PATH: '/v1/client/{clientId}/task' })).toThrow(/must hold \{taskId\} when TRACKING_CREATE_METHOD is PUT/);
    expect(readConfig({ NODE_ENV: 'test', TRACKING_CREATE_METHOD: 'POST', TRACKING_CREATE_PATH: '/v1/client/{clientId}/task' }).TRACKING_CREATE_PATH).toBe('/v1/client/{clientId}/task');
  });
});
