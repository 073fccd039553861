import { accessSpecs } from '@crm/access';
import { base64Key32, bool, commonSpecs, list, LOCAL_DEV, loadConfig, makeValidator, nonEmptyList, str, url, wholeNumber } from '@crm/config';
import { DEFAULT_RATE_CARD, parseRateCard, type RateCard } from './domain/usage';
import { HELP_DESK_EVENT_TYPES } from './domain/xaa';

/** PLATFORM_RATE_CARD: JSON overrides of the default rate card. */
const rateCard = makeValidator<RateCard>((input) => parseRateCard(input));

/** A comma-separated choice among the help desk's XAA event types. */
const xaaEventTypes = makeValidator<string[]>((input) => {
  const items = input.split(',').map((item) => item.trim()).filter(Boolean);
  const unknown = items.filter((item) => !(HELP_DESK_EVENT_TYPES as readonly string[]).includes(item));
  if (items.length === 0 || unknown.length > 0) throw new Error(`must be a comma-separated list of ${HELP_DESK_EVENT_TYPES.join(', ')}${unknown.length ? `; not ${unknown.join(', ')}` : ''}`);
  return items;
});

/**
 * auth's settings. The LOCAL_DEV values let `pnpm start` run on a developer's machine; they
 * are used only when NODE_ENV is `development` or `test`; otherwise every secret must be set.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    'auth',
    {
      ...commonSpecs('auth', 3003),
      ...accessSpecs(),
      SOCIAL_API_URL: url({ devDefault: 'http://127.0.0.1:3101' }),
      SOCIAL_CONSUMER_KEY: str({ devDefault: LOCAL_DEV.consumerKey }),
      SOCIAL_CONSUMER_SECRET: str({ devDefault: LOCAL_DEV.consumerSecret }),
      SOCIAL_OAUTH2_CLIENT_ID: str({ devDefault: LOCAL_DEV.oauth2ClientId, desc: "The app's OAuth 2.0 client id (PKCE connections and token refreshes)." }),
      SOCIAL_OAUTH2_CLIENT_SECRET: str({ devDefault: LOCAL_DEV.oauth2ClientSecret, desc: "The app's OAuth 2.0 client secret: auth is a confidential client (Basic authentication at the token endpoint)." }),
      SOCIAL_OAUTH2_AUTHORIZE_URL: url({ default: undefined, desc: 'The platform page a user approves an OAuth 2.0 connection on; SOCIAL_API_URL/i/oauth2/authorize when unset.' }),
      OAUTH2_REFRESH_MARGIN_SECONDS: wholeNumber(0)({ default: 600, desc: 'An OAuth 2.0 access token that expires within this time is refreshed by the periodic refresh.' }),
      OAUTH2_REFRESH_INTERVAL_MS: wholeNumber(0)({ default: 60_000, desc: 'How often auth looks for OAuth 2.0 access tokens to refresh; 0 turns the periodic refresh off (a call still refreshes an expired token).' }),
      SOCIAL_ENV_NAME: str({ default: 'dev' }),
      WEBHOOK_KEY_OVERLAP_SECONDS: wholeNumber(0)({ default: 3_600, desc: 'After SOCIAL_CONSUMER_SECRET changes, how long deliveries signed with the previous secret are still accepted; 0: not at all.' }),
      PUBLIC_WEBHOOK_URL: url({ devDefault: 'http://127.0.0.1:3001/webhooks/dev' }),
      WEBHOOK_URL_LOCAL_ALLOWED: bool({ default: false, devDefault: true, desc: 'Register a webhook URL that is plain http or names a port (the local stack); the platform takes HTTPS without a port only.' }),
      CREDENTIALS_KEY: base64Key32({ devDefault: LOCAL_DEV.credentialsKey }),
      CREDENTIALS_KEY_PREVIOUS: base64Key32({ default: undefined, desc: 'The key being rotated out: records sealed with it stay readable until `rotate-key` re-seals them.' }),
      CRM_API_TOKENS: nonEmptyList({ devDefault: [LOCAL_DEV.crmToken], desc: 'Bearer tokens the CRM sends on /v1 routes (comma-separated).' }),
      SESSION_ISSUER_TOKENS: list({ default: [], desc: "The console's SERVICE_TOKEN (comma-separated): accepted with the one scope sessions:issue (POST /v1/sessions) and no rate limit. An API credential with that scope does the same job." }),
      SESSION_MAX_TTL_SECONDS: wholeNumber(60)({ default: 28_800, desc: "The longest session POST /v1/sessions issues (a sign-in's default); a launch link gets 1800 s unless asked otherwise, never more than this." }),
      PUBLIC_URL: url({ default: undefined, desc: "auth's own address as browsers reach it (the OAuth callback is under it); http://127.0.0.1:<port> when unset." }),
      CRM_CONNECTED_URL: url({ default: undefined, desc: "Where the browser goes after a connection succeeded (accountId and screenName added); auth's own page when unset." }),
      SOCIAL_AUTHORIZE_URL: url({ default: undefined, desc: 'The platform page a user approves on; SOCIAL_API_URL/oauth/authorize when unset.' }),
      SOCIAL_APP_OWNER_ACCOUNT_ID: str({ default: undefined, desc: "The connected account of the app's owner: webhooks are registered in its user context." }),
      SOCIAL_HTTP_TIMEOUT_MS: wholeNumber(1)({ default: 10_000, desc: 'How long a call to the platform may take; a send that times out has an unknown outcome.' }),
      PLATFORM_REFUSAL_HOLD_SECONDS: wholeNumber(1)({ default: 300, desc: "After the platform refuses the app for its monthly usage cap without giving a reset time, how long commands fail at once before a call asks the platform again." }),
      CREDIT_PROBE_INTERVAL_MS: wholeNumber(0)({ default: 60_000, desc: "While the app is out of credit on the platform, how often auth asks the platform (a cheap read of the app's own) whether credit is back, then sends the held commands; 0 turns it off (POST /v1/app/credit-check still checks)." }),
      CONNECTION_TTL_SECONDS: wholeNumber(1)({ default: 900, desc: 'How long a started connection waits for its OAuth callback.' }),
      WEBHOOK_CHECK_INTERVAL_MS: wholeNumber(0)({ default: 600_000, desc: 'How often auth looks for an invalid webhook and re-runs its CRC; 0 turns it off.' }),
      COMMAND_PREFETCH: wholeNumber(1)({ default: 5, desc: 'Commands handled at once by this process.' }),
      WEBHOOK_KEY_CALLERS: nonEmptyList({
        default: ['guest'],
        desc: "Broker users allowed to get the webhook key over auth.rpc (webhook-ingest's; comma-separated). The broker vouches for a request's user id; a provisioned deployment that leaves the default refuses the key to everyone.",
      }),
      XAA_EVENT_TYPES: xaaEventTypes({ default: [...HELP_DESK_EVENT_TYPES], desc: 'The X Activity API event types each account is subscribed to (comma-separated; like.create is likes of the account\'s posts); all a help desk needs by default.' }),
      HEARTBEAT_INTERVAL_MS: wholeNumber(0)({ default: 60_000, desc: 'How often auth notes it is alive (and asks for queued XAA replays that became due); 0 turns it off.' }),
      XAA_REPLAY_GAP_SECONDS: wholeNumber(1)({ default: 120, desc: 'A heartbeat older than this at start-up is an outage: auth asks the platform to replay the XAA deliveries of the gap.' }),
      XAA_REPLAY_MARGIN_SECONDS: wholeNumber(0)({ default: 120, desc: 'How far before the last heartbeat a replay starts (what overlaps, deduplication absorbs).' }),
      XAA_REPLAY_MIN_START_AGE_SECONDS: wholeNumber(0)({ default: 31 * 60, desc: "The platform's rule: a replay's start must be at least this old; a window too recent waits until it is." }),
      XAA_REPLAY_MIN_END_AGE_SECONDS: wholeNumber(0)({ default: 10 * 60, desc: "The platform's rule: a replay's end must be at least this old." }),
      XAA_REPLAY_BUSY_RETRY_SECONDS: wholeNumber(1)({ default: 300, desc: 'When the platform is running another replay job (one at a time), how long a window waits before it is asked for again.' }),
      PLATFORM_RATE_CARD: rateCard({ default: { ...DEFAULT_RATE_CARD }, desc: 'The platform\'s prices auth meters its calls with: a JSON object of kind -> dollars overriding lines of the built-in card, e.g. {"posts_read": 0.005} (see README, Usage and budgets).' }),
      OUTBOX_RELAY_INTERVAL_MS: wholeNumber(1)({ default: 1_000, desc: "How often the outbox is relayed: announcements left there (broker down, a crash before the publish) and those the CLI queued (a credential's revocation)." }),
    },
    env,
  );
}

export type AuthConfig = ReturnType<typeof readConfig>;

export function usesLocalOnlySecrets(config: AuthConfig): boolean {
  return (
    config.SOCIAL_CONSUMER_SECRET === LOCAL_DEV.consumerSecret ||
    config.SOCIAL_OAUTH2_CLIENT_SECRET === LOCAL_DEV.oauth2ClientSecret ||
    config.CREDENTIALS_KEY === LOCAL_DEV.credentialsKey ||
    config.CRM_API_TOKENS.includes(LOCAL_DEV.crmToken)
  );
}
