import { WebhookKeyRequest, type WebhookKeyResult } from '@crm/contracts';
import { RpcError, rpcMethod, type RpcMethod } from '@crm/messaging';
import type { AppCredentialsStore, StoredAppCredentials } from '../adapters/app-credentials';

export interface AuthRpcOptions {
  /** How long after a consumer secret rotation the previous secret is still given out; 0: never. */
  webhookKeyOverlapMs: number;
  now?: () => number;
}

/** The webhook key, with the previous secret while the rotation's overlap lasts. */
export function webhookKeyOf(credentials: StoredAppCredentials, overlapMs: number, now: number): WebhookKeyResult {
  const previous = credentials.previous;
  const overlapping = previous !== undefined && now < previous.rotatedAt.getTime() + overlapMs;
  return overlapping ? { consumerSecret: credentials.consumerSecret, previousConsumerSecret: previous.consumerSecret } : { consumerSecret: credentials.consumerSecret };
}

/** What auth answers on `auth.rpc`. */
export function authRpcMethods(store: AppCredentialsStore, options: AuthRpcOptions): RpcMethod[] {
  const now = options.now ?? Date.now;
  return [
    rpcMethod(WebhookKeyRequest, async ({ envName }) => {
      const credentials = await store.find(envName);
      if (!credentials) throw new RpcError('unknown_environment', `no webhook environment '${envName}' is configured in auth`);
      return webhookKeyOf(credentials, options.webhookKeyOverlapMs, now());
    }),
  ];
}
