/** For tests of services that verify credentials over auth.rpc: a stand-in for auth that knows a few grants. */
import { CredentialRevoked, CredentialVerifyRequest, Exchanges, Queues, SYSTEM_TOPOLOGY, type CredentialGrant, type Scope } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import { Broker, makeEnvelope, Publisher, RpcError, rpcMethod, RpcServer } from '@crm/messaging';
import { newApiToken } from './tokens';

export interface CredentialStandIn {
  /** Makes a credential auth would answer for; returns its token and id. */
  credential: (scopes: Scope[], limits?: { accountIds?: string[]; trackingClientIds?: string[] }) => { token: string; id: string };
  /**
   * Makes a session auth would answer for (`crs_` token): by default a launch link for the
   * tickets given (`launch-<sessionId>`, tickets:read and tickets:write); with `credentialId`,
   * a console sign-in of that credential. Returns its token, principal id and session id.
   */
  session: (options: { ticketIds?: string[]; credentialId?: string; scopes?: Scope[]; accountIds?: string[] }) => { token: string; id: string; sessionId: string };
  /** Auth answers null for the token from now on (without telling anyone: caches keep it until their TTL). */
  revoke: (token: string) => void;
  /** Announces a revocation on `access.events`, as auth's CLI does. */
  announce: (id: string) => Promise<void>;
  /** A well-formed token for which auth answers an error (it cannot tell). */
  uncheckable: string;
  /** Every token auth was asked about, in order. */
  verifications: string[];
  stop: () => Promise<void>;
}

export async function startCredentialStandIn(amqpUrl: string, logger: Logger): Promise<CredentialStandIn> {
  const grants = new Map<string, CredentialGrant | null>();
  const verifications: string[] = [];
  const uncheckable = newApiToken().token;
  const broker = new Broker({ url: amqpUrl, name: 'auth-stand-in', logger });
  const server = new RpcServer(broker, {
    queue: Queues.authRpc,
    topology: SYSTEM_TOPOLOGY,
    producer: 'auth',
    methods: [
      rpcMethod(CredentialVerifyRequest, async ({ token }) => {
        verifications.push(token);
        if (token === uncheckable) throw new RpcError('internal', 'auth could not answer');
        return grants.get(token) ?? null;
      }),
    ],
  });
  const publisher = new Publisher(broker, SYSTEM_TOPOLOGY);
  await Promise.all([server.ready(), publisher.ready()]);
  return {
    credential: (scopes, limits = {}) => {
      const { id, token } = newApiToken();
      grants.set(token, { id, name: `test ${id}`, scopes, accountIds: limits.accountIds ?? null, trackingClientIds: limits.trackingClientIds ?? null });
      return { id, token };
    },
    session: (options) => {
      const { id: sessionId, token } = newApiToken('session');
      const id = options.credentialId ?? `launch-${sessionId}`;
      const scopes = options.scopes ?? ['tickets:read', 'tickets:write'];
      grants.set(token, { id, name: `test session ${sessionId}`, scopes, accountIds: options.accountIds ?? null, trackingClientIds: null, ticketIds: options.ticketIds ?? null, sessionId });
      return { token, id, sessionId };
    },
    revoke: (token) => grants.set(token, null),
    announce: (id) => publisher.publish(Exchanges.accessEvents, '', makeEnvelope(CredentialRevoked, 'auth', { id })),
    uncheckable,
    verifications,
    stop: async () => {
      await server.stop();
      await publisher.close();
      await broker.close();
    },
  };
}
