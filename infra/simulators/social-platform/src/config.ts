import { bool, listenPort, LOCAL_DEV, loadConfig, logLevel, str, url, wholeNumber } from '@crm/config';
import { registerSecret } from '@crm/logging';

export interface SimulatorConfig {
  PORT: number;
  /** The app's consumer key: OAuth 1.0a requests and app-token requests must name it. */
  SOCIAL_CONSUMER_KEY: string;
  /** How far an OAuth 1.0a timestamp may be from the simulator's clock, in seconds. */
  OAUTH_TIMESTAMP_WINDOW_SECONDS: number;
  /** The app's consumer secret: the key of CRC answers and delivery signatures. */
  SOCIAL_CONSUMER_SECRET: string;
  SOCIAL_ENV_NAME: string;
  /** Where deliveries go unless a control request names another URL. */
  WEBHOOK_URL: string;
  LOG_LEVEL: string;
  /** v2 webhooks the app may register, shared by the Account Activity and X Activity APIs (pay-per-use: 1). */
  WEBHOOK_LIMIT: number;
  /** Take a webhook URL that is plain http or names a port (the local stack, tests); the platform takes HTTPS without a port only. */
  WEBHOOK_HTTP_ALLOWED: boolean;
  /** Account Activity subscriptions the app may hold (pay-per-use: 3). */
  AAA_SUBSCRIPTION_LIMIT: number;
  /** X Activity API: the app's subscription limit (self-serve: 1,500). */
  XAA_MAX_SUBSCRIPTIONS: number;
  /** X Activity API replays: how old the window's start and end must be (the platform: 31 and 10 minutes). */
  XAA_REPLAY_MIN_START_AGE_SECONDS: number;
  XAA_REPLAY_MIN_END_AGE_SECONDS: number;
  /** OAuth 2.0: the app's client id and secret (a confidential client), and how long an access token lasts. */
  SOCIAL_OAUTH2_CLIENT_ID: string;
  SOCIAL_OAUTH2_CLIENT_SECRET: string;
  OAUTH2_ACCESS_TOKEN_TTL_SECONDS: number;
  /** v2 DMs: how many one user may send per 15 minutes (the platform's per-user write quota). */
  DM_WRITE_LIMIT_PER_15_MINUTES: number;
  /** The app's prepaid credits at start, in dollars (pay-per-use; see src/platform/billing.ts). */
  CREDIT_BALANCE: number;
}

/** Loads the simulator's settings; throws ConfigError (one clear line) on a bad value. */
export function loadSimulatorConfig(env: NodeJS.ProcessEnv = process.env): SimulatorConfig {
  const loaded = loadConfig(
    'social-platform-simulator',
    {
      PORT: listenPort({ default: 3101 }),
      SOCIAL_CONSUMER_KEY: str({ default: LOCAL_DEV.consumerKey }),
      OAUTH_TIMESTAMP_WINDOW_SECONDS: wholeNumber(1)({ default: 300 }),
      // The same default auth uses locally, so the local stack agrees on signatures out of the box.
      SOCIAL_CONSUMER_SECRET: str({ default: LOCAL_DEV.consumerSecret }),
      SOCIAL_ENV_NAME: str({ default: 'dev' }),
      // Optional: its default depends on SOCIAL_ENV_NAME, so it is filled in below.
      WEBHOOK_URL: url({ default: undefined }),
      LOG_LEVEL: logLevel(),
      WEBHOOK_LIMIT: wholeNumber(1)({ default: 1 }),
      AAA_SUBSCRIPTION_LIMIT: wholeNumber(1)({ default: 3 }),
      WEBHOOK_HTTP_ALLOWED: bool({ default: false }),
      XAA_MAX_SUBSCRIPTIONS: wholeNumber(1)({ default: 1_500 }),
      XAA_REPLAY_MIN_START_AGE_SECONDS: wholeNumber(0)({ default: 31 * 60 }),
      XAA_REPLAY_MIN_END_AGE_SECONDS: wholeNumber(0)({ default: 10 * 60 }),
      SOCIAL_OAUTH2_CLIENT_ID: str({ default: LOCAL_DEV.oauth2ClientId }),
      SOCIAL_OAUTH2_CLIENT_SECRET: str({ default: LOCAL_DEV.oauth2ClientSecret }),
      OAUTH2_ACCESS_TOKEN_TTL_SECONDS: wholeNumber(1)({ default: 7_200 }),
      DM_WRITE_LIMIT_PER_15_MINUTES: wholeNumber(1)({ default: 15 }),
      CREDIT_BALANCE: wholeNumber(0)({ default: 1000 }),
    },
    env,
  );
  registerSecret(loaded.SOCIAL_CONSUMER_SECRET);
  registerSecret(loaded.SOCIAL_OAUTH2_CLIENT_SECRET);
  return {
    PORT: loaded.PORT,
    SOCIAL_CONSUMER_KEY: loaded.SOCIAL_CONSUMER_KEY,
    OAUTH_TIMESTAMP_WINDOW_SECONDS: loaded.OAUTH_TIMESTAMP_WINDOW_SECONDS,
    SOCIAL_CONSUMER_SECRET: loaded.SOCIAL_CONSUMER_SECRET,
    SOCIAL_ENV_NAME: loaded.SOCIAL_ENV_NAME,
    WEBHOOK_URL: loaded.WEBHOOK_URL ?? `http://127.0.0.1:3001/webhooks/${encodeURIComponent(loaded.SOCIAL_ENV_NAME)}`,
    LOG_LEVEL: loaded.LOG_LEVEL,
    WEBHOOK_LIMIT: loaded.WEBHOOK_LIMIT,
    AAA_SUBSCRIPTION_LIMIT: loaded.AAA_SUBSCRIPTION_LIMIT,
    WEBHOOK_HTTP_ALLOWED: loaded.WEBHOOK_HTTP_ALLOWED,
    XAA_MAX_SUBSCRIPTIONS: loaded.XAA_MAX_SUBSCRIPTIONS,
    XAA_REPLAY_MIN_START_AGE_SECONDS: loaded.XAA_REPLAY_MIN_START_AGE_SECONDS,
    XAA_REPLAY_MIN_END_AGE_SECONDS: loaded.XAA_REPLAY_MIN_END_AGE_SECONDS,
    SOCIAL_OAUTH2_CLIENT_ID: loaded.SOCIAL_OAUTH2_CLIENT_ID,
    SOCIAL_OAUTH2_CLIENT_SECRET: loaded.SOCIAL_OAUTH2_CLIENT_SECRET,
    OAUTH2_ACCESS_TOKEN_TTL_SECONDS: loaded.OAUTH2_ACCESS_TOKEN_TTL_SECONDS,
    DM_WRITE_LIMIT_PER_15_MINUTES: loaded.DM_WRITE_LIMIT_PER_15_MINUTES,
    CREDIT_BALANCE: loaded.CREDIT_BALANCE,
  };
}
