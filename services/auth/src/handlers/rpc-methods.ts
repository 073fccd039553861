import { WebhookKeyRequest } from '@crm/contracts';
import { RpcError, rpcMethod, type RpcMethod } from '@crm/messaging';
import type { AppCredentialsStore } from '../adapters/app-credentials';

/** What auth answers on `auth.rpc`. */
export function authRpcMethods(store: AppCredentialsStore): RpcMethod[] {
  return [
    rpcMethod(WebhookKeyRequest, async ({ envName }) => {
      const credentials = await store.find(envName);
      if (!credentials) throw new RpcError('unknown_environment', `no webhook environment '${envName}' is configured in auth`);
      return { consumerSecret: credentials.consumerSecret };
    }),
  ];
}
