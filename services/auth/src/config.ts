import { base64Key32, commonSpecs, loadConfig, str, url } from '@crm/config';

/**
 * Values that let `pnpm start` run on a developer's machine. They are used only when
 * NODE_ENV is not `production`; in production every one of them must be set.
 */
const LOCAL_ONLY = {
  consumerKey: 'local-dev-consumer-key',
  consumerSecret: 'local-dev-consumer-secret',
  credentialsKey: Buffer.alloc(32, 'local-dev-credentials-key').toString('base64'),
};

export function readConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    'auth',
    {
      ...commonSpecs('auth', 3003),
      SOCIAL_API_URL: url({ devDefault: 'http://127.0.0.1:3101' }),
      SOCIAL_CONSUMER_KEY: str({ devDefault: LOCAL_ONLY.consumerKey }),
      SOCIAL_CONSUMER_SECRET: str({ devDefault: LOCAL_ONLY.consumerSecret }),
      SOCIAL_ENV_NAME: str({ default: 'dev' }),
      PUBLIC_WEBHOOK_URL: url({ devDefault: 'http://127.0.0.1:3001/webhooks/dev' }),
      CREDENTIALS_KEY: base64Key32({ devDefault: LOCAL_ONLY.credentialsKey }),
    },
    env,
  );
}

export type AuthConfig = ReturnType<typeof readConfig>;

export function usesLocalOnlySecrets(config: AuthConfig): boolean {
  return config.SOCIAL_CONSUMER_SECRET === LOCAL_ONLY.consumerSecret || config.CREDENTIALS_KEY === LOCAL_ONLY.credentialsKey;
}
