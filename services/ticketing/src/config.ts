import { commonSpecs, LOCAL_DEV, loadConfig, nonEmptyList, positiveNumber, str, wholeNumber } from '@crm/config';

/** The token `pnpm start` accepts when CRM_API_TOKENS is not set (never in production). */
export const LOCAL_DEV_TOKEN = LOCAL_DEV.crmToken;

export interface TicketingConfig {
  AMQP_URL: string;
  PORT: number;
  LOG_LEVEL: string;
  SHUTDOWN_TIMEOUT_MS: number;
  DATABASE_URL: string;
  /** Bearer tokens accepted on /v1 routes. */
  CRM_API_TOKENS: string[];
  /** Queue and folder of new tickets when a partner configuration does not name them. */
  DEFAULT_QUEUE: string;
  DEFAULT_FOLDER: string;
  /** SLA of new tickets when a partner configuration does not set it, in minutes after creation. */
  SLA_FIRST_RESPONSE_MINUTES: number;
  SLA_RESOLUTION_MINUTES: number;
  /** Messages of `ticketing.activity` handled at once by this process. */
  ACTIVITY_PREFETCH: number;
  /** How often held deliveries of accounts that now have a configuration are looked for (a safety net; a PUT releases at once). */
  HELD_RELEASE_INTERVAL_MS: number;
  /** How often commands left in the outbox (broker down, a crash before the publish) are published again. */
  OUTBOX_RELAY_INTERVAL_MS: number;
  /** How long ticketing waits for tracking's answer on `tracking.rpc`. */
  TRACKING_RPC_TIMEOUT_MS: number;
  /** A linked order's tracking availability older than this is checked again when the ticket is read. */
  TRACKING_REFRESH_AFTER_MS: number;
  /** How long reading a ticket waits for that check before answering with the last known state, marked stale. */
  TRACKING_READ_WAIT_MS: number;
}

/**
 * Reads and validates ticketing's settings. Outside production CRM_API_TOKENS defaults to
 * `local-dev-token` so the local stack works out of the box; in production it is required.
 */
export function loadTicketingConfig(env: NodeJS.ProcessEnv = process.env): TicketingConfig {
  const production = env.NODE_ENV === 'production';
  const config = loadConfig(
    'ticketing',
    {
      ...commonSpecs('ticketing', 3002),
      CRM_API_TOKENS: nonEmptyList(production ? { desc: 'CRM bearer tokens' } : { default: [LOCAL_DEV_TOKEN], desc: 'CRM bearer tokens' }),
      DEFAULT_QUEUE: str({ default: 'social' }),
      DEFAULT_FOLDER: str({ default: 'inbox' }),
      SLA_FIRST_RESPONSE_MINUTES: positiveNumber({ default: 60 }),
      SLA_RESOLUTION_MINUTES: positiveNumber({ default: 1440 }),
      ACTIVITY_PREFETCH: wholeNumber(1)({ default: 10 }),
      HELD_RELEASE_INTERVAL_MS: wholeNumber(1)({ default: 60_000 }),
      OUTBOX_RELAY_INTERVAL_MS: wholeNumber(1)({ default: 5_000 }),
      TRACKING_RPC_TIMEOUT_MS: wholeNumber(1)({ default: 10_000 }),
      TRACKING_REFRESH_AFTER_MS: wholeNumber(1)({ default: 60_000 }),
      TRACKING_READ_WAIT_MS: wholeNumber(1)({ default: 1_500 }),
    },
    env,
  );
  return {
    AMQP_URL: config.AMQP_URL,
    PORT: config.PORT,
    LOG_LEVEL: config.LOG_LEVEL,
    SHUTDOWN_TIMEOUT_MS: config.SHUTDOWN_TIMEOUT_MS,
    DATABASE_URL: config.DATABASE_URL,
    CRM_API_TOKENS: config.CRM_API_TOKENS,
    DEFAULT_QUEUE: config.DEFAULT_QUEUE,
    DEFAULT_FOLDER: config.DEFAULT_FOLDER,
    SLA_FIRST_RESPONSE_MINUTES: config.SLA_FIRST_RESPONSE_MINUTES,
    SLA_RESOLUTION_MINUTES: config.SLA_RESOLUTION_MINUTES,
    ACTIVITY_PREFETCH: config.ACTIVITY_PREFETCH,
    HELD_RELEASE_INTERVAL_MS: config.HELD_RELEASE_INTERVAL_MS,
    OUTBOX_RELAY_INTERVAL_MS: config.OUTBOX_RELAY_INTERVAL_MS,
    TRACKING_RPC_TIMEOUT_MS: config.TRACKING_RPC_TIMEOUT_MS,
    TRACKING_REFRESH_AFTER_MS: config.TRACKING_REFRESH_AFTER_MS,
    TRACKING_READ_WAIT_MS: config.TRACKING_READ_WAIT_MS,
  };
}

/** True when the publicly known development token is accepted (worth a warning). */
export function acceptsLocalDevToken(config: Pick<TicketingConfig, 'CRM_API_TOKENS'>): boolean {
  return config.CRM_API_TOKENS.includes(LOCAL_DEV_TOKEN);
}
