import { CredentialVerifyRequest } from '@crm/contracts';
import { rpcMethod, type RpcMethod } from '@crm/messaging';
import type { ApiCredentialStore } from '../adapters/api-credentials';

/** `auth.credential.verify.v1` on `auth.rpc`: the grant of an API token, or null. */
export function credentialRpcMethods(store: ApiCredentialStore): RpcMethod[] {
  return [rpcMethod(CredentialVerifyRequest, ({ token }) => store.verify(token))];
}
