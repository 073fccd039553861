import { WebhookKeyRequest } from '@crm/contracts';
import { RpcError, rpcMethod, type RpcMethod } from '@crm/messaging';
import type { AppCredentialsStore } from '../adapters/app-credentials';

/** Who may call which method: the broker users (validated user ids) allowed per method. */
export interface RpcCallers {
  /** The webhook key is the app's consumer secret: only webhook-ingest's broker user gets it. */
  webhookKey: readonly string[];
}

/** What auth answers on `auth.rpc`. */
export function authRpcMethods(store: AppCredentialsStore, callers: RpcCallers): RpcMethod[] {
  return [
    rpcMethod(
      WebhookKeyRequest,
      async ({ envName }) => {
        const credentials = await store.find(envName);
        if (!credentials) throw new RpcError('unknown_environment', `no webhook environment '${envName}' is configured in auth`);
        return { consumerSecret: credentials.consumerSecret };
      },
      { callers: callers.webhookKey },
    ),
  ];
}
