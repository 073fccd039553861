import { CredentialVerifyRequest } from '@crm/contracts';
import { rpcMethod, type RpcMethod } from '@crm/messaging';
import type { SessionService } from '../operations/sessions';

/** `auth.credential.verify.v1` on `auth.rpc`: the grant of an API token (a credential or a session), or null. */
export function credentialRpcMethods(tokens: Pick<SessionService, 'verify'>): RpcMethod[] {
  return [rpcMethod(CredentialVerifyRequest, ({ token }) => tokens.verify(token))];
}
