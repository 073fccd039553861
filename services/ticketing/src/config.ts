import { accessSpecs } from '@crm/access';
import { base64Key32, commonSpecs, LOCAL_DEV, loadConfig, makeValidator, nonEmptyList, positiveNumber, str, wholeNumber } from '@crm/config';
import { parseRanges, type AddressRange } from './domain/webhook-addresses';

/** Comma-separated delays in milliseconds, at least one. */
const delayList = makeValidator<number[]>((input) => {
  const items = input.split(',').map((item) => item.trim());
  if (items.length === 0 || !items.every((item) => /^[0-9]{1,9}$/.test(item) && Number(item) > 0)) throw new Error('must be comma-separated whole numbers of milliseconds (at least one, each above 0)');
  return items.map(Number);
});

/** Comma-separated CIDR ranges (empty: none). */
const cidrList = makeValidator<AddressRange[]>((input) => parseRanges(input));

/** The token `pnpm start` accepts when CRM_API_TOKENS is not set (only with NODE_ENV development or test). */
export const LOCAL_DEV_TOKEN = LOCAL_DEV.crmToken;

/**
 * Reads and validates ticketing's settings. With NODE_ENV `development` or `test` (as
 * `pnpm start` sets it), CRM_API_TOKENS defaults to `local-dev-token` so the local stack works
 * out of the box; otherwise it is required.
 */
export function loadTicketingConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    'ticketing',
    {
      ...commonSpecs('ticketing', 3002),
      ...accessSpecs(),
      CRM_API_TOKENS: nonEmptyList({ devDefault: [LOCAL_DEV_TOKEN], desc: 'Bearer tokens accepted on /v1 routes (comma-separated).' }),
      DEFAULT_QUEUE: str({ default: 'social', desc: 'Queue of new tickets when a partner configuration does not name one.' }),
      DEFAULT_FOLDER: str({ default: 'inbox', desc: 'Folder of new tickets when a partner configuration does not name one.' }),
      SLA_FIRST_RESPONSE_MINUTES: positiveNumber({ default: 60, desc: 'SLA of new tickets when a partner configuration does not set it, in minutes after creation.' }),
      SLA_RESOLUTION_MINUTES: positiveNumber({ default: 1440, desc: 'SLA of new tickets when a partner configuration does not set it, in minutes after creation.' }),
      ACTIVITY_PREFETCH: wholeNumber(1)({ default: 100, desc: 'Messages of each activity partition (ticketing.activity.<n>) handled at once by this process (what its recording transactions can batch).' }),
      ACTIVITY_BALANCE_INTERVAL_MS: wholeNumber(100)({ default: 5_000, desc: 'How often this replica compares the activity partitions it is active on with its share (partitions / replicas) and hands the excess to replicas waiting on them.' }),
      ACTIVITY_TRANSACTIONS: wholeNumber(1)({ default: 2, desc: 'Recording transactions of ticketing.activity open at once in this process; deliveries that come meanwhile share the next.' }),
      RAW_LOG_RETENTION_DAYS: wholeNumber(1)({ default: 30, desc: 'How long every accepted delivery stays at least in the raw log (what a rebuild can replay), in days; the log goes a week at a time, once the whole week is past this.' }),
      HELD_TTL_DAYS: wholeNumber(1)({ default: 14, desc: 'Deliveries held this long (their account never configured) are deleted, and counted; they stay in the raw log.' }),
      HELD_MAX_PER_ACCOUNT: wholeNumber(1)({ default: 10_000, desc: 'Held deliveries one account may have; more go to the DLQ with the reason (replay them once it is configured).' }),
      RETENTION_INTERVAL_MS: wholeNumber(1)({ default: 3_600_000, desc: 'How often raw log entries and held deliveries past their retention are deleted (and the views\' counters folded).' }),
      DB_LOCK_TIMEOUT_MS: wholeNumber(0)({ default: 5_000, desc: 'How long one statement may wait for a lock (a ticket row, the account lock) before the work is retried later; 0: no limit.' }),
      DB_STATEMENT_TIMEOUT_MS: wholeNumber(0)({ default: 30_000, desc: 'How long one statement may run before it is cancelled (the work is retried later); 0: no limit.' }),
      DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: wholeNumber(0)({ default: 15_000, desc: 'How long a transaction may sit idle between statements before PostgreSQL ends it (its locks freed, also those of a replica cut from the database mid-transaction); 0: no limit.' }),
      HELD_RELEASE_INTERVAL_MS: wholeNumber(1)({ default: 60_000, desc: 'How often held deliveries of accounts that now have a configuration are looked for (a safety net; a PUT releases at once).' }),
      OUTBOX_RELAY_INTERVAL_MS: wholeNumber(1)({ default: 5_000, desc: 'How often commands left in the outbox (broker down, a crash before the publish) are published again.' }),
      TRACKING_RPC_TIMEOUT_MS: wholeNumber(1)({ default: 10_000, desc: "How long ticketing waits for tracking's answer on tracking.rpc." }),
      TRACKING_REFRESH_AFTER_MS: wholeNumber(1)({ default: 60_000, desc: "A linked order's tracking availability older than this is checked again when the ticket is read." }),
      ORDER_FINDING_INTERVAL_MS: wholeNumber(1)({ default: 2_000, desc: 'How often order references found in messages are checked with tracking and linked (a new message starts a run at once).' }),
      ORDER_FINDING_RETRY_DELAYS_MS: delayList({ default: [5_000, 30_000, 120_000, 600_000, 1_800_000], desc: 'Delays before each new check of a found order reference while tracking cannot answer; after the last, it is dropped (nothing linked).' }),
      SLA_TIMER_INTERVAL_MS: wholeNumber(1)({ default: 10_000, desc: 'How often due SLA timers (breach, at risk) are looked for.' }),
      SEARCH_INTERVAL_MS: wholeNumber(1)({ default: 5_000, desc: 'How often search queries due to run are looked for (each runs on its own interval).' }),
      SEARCH_FIRST_RUN_MAX: wholeNumber(1)({ default: 20, desc: "Posts asked for on a search query's first run (at most 100): older matches are not turned into tickets." }),
      SEARCH_IDLE_INTERVAL_MAX_SECONDS: wholeNumber(1)({ default: 3_600, desc: "A search query that finds nothing waits twice as long before each next run, up to this (or its own interval when longer); a run that finds posts puts it back on its interval." }),
      SEARCH_POST_READ_PRICE: positiveNumber({ default: 0.005, desc: "Dollars the platform charges per post read (the rate card's posts_read, as auth's GET /v1/usage/rate-card gives it): a search query's estimated monthly cost is its recent posts per run at this price." }),
      SEARCH_RPC_TIMEOUT_MS: wholeNumber(1)({ default: 15_000, desc: "How long ticketing waits for auth's answer to a search on auth.rpc." }),
      SEARCHES_PER_CREDENTIAL: wholeNumber(1)({ default: 2, desc: 'Ticket searches (GET /v1/tickets?q=) one credential or session may run at once in this process; more get 429 search_busy.' }),
      SEARCH_STATEMENT_TIMEOUT_MS: wholeNumber(100)({ default: 3_000, desc: 'How long a ticket search may run in the database before it is stopped (503 search_timeout).' }),
      SILENCE_AFTER_MINUTES: wholeNumber(1)({ default: 60, desc: 'An account that usually gets deliveries and has had none this long is silent (account.silent); keep it under SILENCE_LOOKBACK_HOURS.' }),
      SILENCE_LOOKBACK_HOURS: wholeNumber(1)({ default: 24, desc: 'The period over which an account must have had SILENCE_MIN_DELIVERIES deliveries to usually get deliveries.' }),
      SILENCE_MIN_DELIVERIES: wholeNumber(1)({ default: 50, desc: 'Deliveries within SILENCE_LOOKBACK_HOURS that make an account one that usually gets deliveries (only those are alarmed about).' }),
      SILENCE_CHECK_INTERVAL_MS: wholeNumber(1)({ default: 60_000, desc: 'How often the silence alarm looks for accounts that went silent or deliver again (one replica at a time).' }),
      TRACKING_READ_WAIT_MS: wholeNumber(1)({ default: 1_500, desc: 'How long reading a ticket waits for that check before answering with the last known state, marked stale.' }),
      EVENT_STREAMS_PER_CREDENTIAL: wholeNumber(1)({ default: 10, desc: 'Event streams (GET /v1/events) one credential or session may hold open in this process; more get 429 too_many_streams.' }),
      EVENT_STREAMS_PER_PROCESS: wholeNumber(1)({ default: 1_000, desc: 'Event streams this process holds open at most; more get 429 too_many_streams.' }),
      EVENT_STREAM_KEEPALIVE_MS: wholeNumber(100)({ default: 15_000, desc: "How often an event stream sends a keep-alive; each checks the stream's token again, so a stream whose revocation was not heard ends within this plus CREDENTIAL_CACHE_TTL_MS." }),
      EVENT_STREAM_BUFFER_BYTES: wholeNumber(1)({ default: 1_048_576, desc: 'Bytes of events a stream may have unsent (a client that does not read); past this the stream is dropped.' }),
      IDEMPOTENCY_KEY_TTL_HOURS: wholeNumber(1)({ default: 24, desc: 'How long an Idempotency-Key of a reply or action is remembered (a repeat within it replays the first answer).' }),
      ...webhookSpecs(),
    },
    env,
  );
}

/** The CRM webhooks' settings: sealing of their secrets, retries, pace and reach. */
function webhookSpecs() {
  return {
    WEBHOOK_SECRETS_KEY: base64Key32({
      default: undefined,
      devDefault: LOCAL_DEV.credentialsKey,
      desc: "Seals the CRM webhook endpoints' signing secrets at rest (32 bytes, base64). Without it no endpoint can be registered.",
    }),
    WEBHOOK_RETRY_DELAYS_MS: delayList({ default: [10_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000], desc: 'Delays before each new attempt of a CRM webhook delivery; after the last, the delivery is dead (its endpoint\'s failures).' }),
    WEBHOOK_INTERVAL_MS: wholeNumber(1)({ default: 1_000, desc: 'How often due webhook deliveries are looked for (a new event sends at once).' }),
    WEBHOOK_TIMEOUT_MS: wholeNumber(1)({ default: 10_000, desc: 'How long a CRM webhook endpoint may take to answer.' }),
    WEBHOOK_ALLOWED_CIDRS: cidrList({
      default: [],
      desc: 'Comma-separated CIDR ranges CRM webhooks may reach besides public addresses (e.g. 10.20.0.0/16 for a CRM inside the network); none by default.',
    }),
  };
}

export type TicketingConfig = ReturnType<typeof loadTicketingConfig>;

/** True when the publicly known development token is accepted (worth a warning). */
export function acceptsLocalDevToken(config: Pick<TicketingConfig, 'CRM_API_TOKENS'>): boolean {
  return config.CRM_API_TOKENS.includes(LOCAL_DEV_TOKEN);
}
