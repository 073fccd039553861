import { accessSpecs } from '@crm/access';
import { base64Key32, commonSpecs, LOCAL_DEV, loadConfig, nonEmptyList, str, url, wholeNumber } from '@crm/config';

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
      SOCIAL_ENV_NAME: str({ default: 'dev' }),
      WEBHOOK_KEY_OVERLAP_SECONDS: wholeNumber(0)({ default: 3_600, desc: 'After SOCIAL_CONSUMER_SECRET changes, how long deliveries signed with the previous secret are still accepted; 0: not at all.' }),
      PUBLIC_WEBHOOK_URL: url({ devDefault: 'http://127.0.0.1:3001/webhooks/dev' }),
      CREDENTIALS_KEY: base64Key32({ devDefault: LOCAL_DEV.credentialsKey }),
      CREDENTIALS_KEY_PREVIOUS: base64Key32({ default: undefined, desc: 'The key being rotated out: records sealed with it stay readable until `rotate-key` re-seals them.' }),
      CRM_API_TOKENS: nonEmptyList({ devDefault: [LOCAL_DEV.crmToken], desc: 'Bearer tokens the CRM sends on /v1 routes (comma-separated).' }),
      PUBLIC_URL: url({ default: undefined, desc: "auth's own address as browsers reach it (the OAuth callback is under it); http://127.0.0.1:<port> when unset." }),
      CRM_CONNECTED_URL: url({ default: undefined, desc: "Where the browser goes after a connection succeeded (accountId and screenName added); auth's own page when unset." }),
      SOCIAL_AUTHORIZE_URL: url({ default: undefined, desc: 'The platform page a user approves on; SOCIAL_API_URL/oauth/authorize when unset.' }),
      SOCIAL_APP_OWNER_ACCOUNT_ID: str({ default: undefined, desc: "The connected account of the app's owner: webhooks are registered in its user context." }),
      SOCIAL_HTTP_TIMEOUT_MS: wholeNumber(1)({ default: 10_000, desc: 'How long a call to the platform may take; a send that times out has an unknown outcome.' }),
      CONNECTION_TTL_SECONDS: wholeNumber(1)({ default: 900, desc: 'How long a started connection waits for its OAuth callback.' }),
      WEBHOOK_CHECK_INTERVAL_MS: wholeNumber(0)({ default: 600_000, desc: 'How often auth looks for an invalid webhook and re-runs its CRC; 0 turns it off.' }),
      COMMAND_PREFETCH: wholeNumber(1)({ default: 5, desc: 'Commands handled at once by this process.' }),
      WEBHOOK_KEY_CALLERS: nonEmptyList({
        default: ['guest'],
        desc: "Broker users allowed to get the webhook key over auth.rpc (webhook-ingest's; comma-separated). The broker vouches for a request's user id; a provisioned deployment that leaves the default refuses the key to everyone.",
      }),
      OUTBOX_RELAY_INTERVAL_MS: wholeNumber(1)({ default: 5_000, desc: 'How often announcements left in the outbox (broker down, a crash before the publish) are published again.' }),
    },
    env,
  );
}

export type AuthConfig = ReturnType<typeof readConfig>;

export function usesLocalOnlySecrets(config: AuthConfig): boolean {
  return (
    config.SOCIAL_CONSUMER_SECRET === LOCAL_DEV.consumerSecret ||
    config.CREDENTIALS_KEY === LOCAL_DEV.credentialsKey ||
    config.CRM_API_TOKENS.includes(LOCAL_DEV.crmToken)
  );
}
