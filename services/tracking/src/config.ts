import { accessSpecs } from '@crm/access';
import { base64Key32, commonSpecs, ConfigError, LOCAL_DEV, loadConfig, makeValidator, nonEmptyList, positiveNumber, str, url, wholeNumber } from '@crm/config';

/**
 * Values that let `pnpm start` run on a developer's machine. They are used only when
 * NODE_ENV is `development` or `test`; otherwise every one of them must be set.
 */
export const LOCAL_ONLY = { apiToken: LOCAL_DEV.crmToken, credentialsKey: LOCAL_DEV.credentialsKey };

const percent = makeValidator<number>((input) => {
  const value = Number(input);
  if (input.trim() === '' || !(value > 0 && value < 100)) throw new Error(`must be a percentage between 0 and 100, got "${input}"`);
  return value;
});

const parameterName = makeValidator<string>((input) => {
  if (!/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(input)) throw new Error(`must be a query parameter name, got "${input}"`);
  return input;
});

/** The provider's create path, `{clientId}` (and `{taskId}`) filled in. */
const createPath = makeValidator<string>((input) => {
  if (!input.startsWith('/') || !input.includes('{clientId}')) throw new Error(`must be a path starting with / that holds {clientId}, got "${input}"`);
  return input;
});

export function readConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(
    'tracking',
    {
      ...commonSpecs('tracking', 3004),
      ...accessSpecs(),
      CRM_API_TOKENS: nonEmptyList({ devDefault: [LOCAL_ONLY.apiToken], desc: 'CRM bearer tokens' }),
      CREDENTIALS_KEY: base64Key32({ devDefault: LOCAL_ONLY.credentialsKey }),
      TRACKING_API_URL: url({ devDefault: 'http://127.0.0.1:3102' }),
      ROUTING_URL: url({ default: undefined }),
      TRACKING_INCLUDE_PARAM: parameterName({ default: 'include' }),
      TRACKING_CREATE_METHOD: str({ choices: ['PUT', 'POST'], default: 'PUT' }),
      // The task id is always in the body too; a PUT must also name it in the path (that is what makes it idempotent).
      TRACKING_CREATE_PATH: createPath({ default: '/v1/client/{clientId}/mpmdtask/{taskId}' }),
      PROVIDER_TIMEOUT_MS: wholeNumber(1)({ default: 2_500 }),
      PROVIDER_READ_RETRIES: wholeNumber(0)({ default: 2 }),
      PROVIDER_RETRY_DELAY_MS: wholeNumber(0)({ default: 200 }),
      TASK_CACHE_TTL_MS: wholeNumber(1)({ default: 3_000 }),
      TASK_CACHE_MAX_ENTRIES: wholeNumber(1)({ default: 10_000 }),
      STALE_MAX_SECONDS: wholeNumber(0)({ default: 900 }),
      BREAKER_ERROR_PERCENT: percent({ default: 50 }),
      BREAKER_MIN_CALLS: wholeNumber(1)({ default: 5 }),
      BREAKER_WINDOW_MS: wholeNumber(100)({ default: 10_000 }),
      BREAKER_RESET_MS: wholeNumber(1)({ default: 15_000 }),
      RIDER_STALE_AFTER_SECONDS: wholeNumber(1)({ default: 120 }),
      ROUTE_DETOUR_FACTOR: positiveNumber({ default: 1.2 }),
      ASSUMED_SPEED_KMH: positiveNumber({ default: 18 }),
      ROUTER_TIMEOUT_MS: wholeNumber(1)({ default: 2_000 }),
      RPC_PREFETCH: wholeNumber(1)({ default: 20 }),
      FOLLOW_POLL_INTERVAL_SECONDS: wholeNumber(1)({ default: 60 }),
      FOLLOW_ROUND_MS: wholeNumber(50)({ default: 1_000 }),
      PROVIDER_MAX_CALLS_PER_MINUTE: wholeNumber(1)({ default: 600 }),
      ETA_MOVED_THRESHOLD_MINUTES: positiveNumber({ default: 5 }),
      OUTBOX_RELAY_INTERVAL_MS: wholeNumber(100)({ default: 5_000 }),
    },
    env,
  );
  if (config.TRACKING_CREATE_METHOD === 'PUT' && !config.TRACKING_CREATE_PATH.includes('{taskId}')) {
    throw new ConfigError('tracking: invalid configuration: TRACKING_CREATE_PATH must hold {taskId} when TRACKING_CREATE_METHOD is PUT');
  }
  return config;
}

export type TrackingConfig = ReturnType<typeof readConfig>;

export function usesLocalOnlySecrets(config: Pick<TrackingConfig, 'CRM_API_TOKENS' | 'CREDENTIALS_KEY'>): boolean {
  return config.CRM_API_TOKENS.includes(LOCAL_ONLY.apiToken) || config.CREDENTIALS_KEY === LOCAL_ONLY.credentialsKey;
}
