import type { RequestHandler } from 'express';
import type { Pool } from '@crm/db';
import type { Logger } from '@crm/logging';
import type { Broker } from '@crm/messaging';
import { auditWrites } from './audit';
import { authenticate, type CredentialVerifier } from './authenticate';
import { listenForRevocations } from './revocations';
import { cachedVerifier } from './verifiers';

export interface AccessControlOptions {
  /** CRM_API_TOKENS. */
  bootstrapTokens: string[];
  /** SESSION_ISSUER_TOKENS (auth only); see `authenticate`. */
  issuerTokens?: string[];
  /** Finds an API token's grant (auth's store in auth, the RPC to auth elsewhere); cached here. */
  verify: CredentialVerifier;
  /** The service's database, holding its `audit_log`. */
  pool: Pool;
  logger: Logger;
  ratePerMinute: number;
  failuresPerMinute: number;
  cacheTtlMs: number;
  /** The process's broker: revocations heard on `access.events` empty the cache at once. */
  broker: Broker;
  /** Whether the service serves ticket-limited principals (launch sessions); see `authenticate`. */
  servesTicketLimited?: boolean;
}

export interface AccessControl {
  /** What the service mounts on `/v1`. */
  handlers: RequestHandler[];
  /** Resolves once revocations are heard. */
  ready: () => Promise<void>;
  /** Stops hearing revocations (a stop step). */
  close: () => Promise<void>;
  /** The cached check of an API token (what `authenticate` asks): a stream rechecks its token with it now and then. */
  verify: CredentialVerifier;
  /**
   * Calls `listener` with the id of every credential or session revoked from now on (what
   * holds a principal open, such as an event stream, ends it: `principal.revokedBy(id)`).
   */
  onRevoked: (listener: (id: string) => void) => () => void;
}

/**
 * What a service mounts on `/v1`: authentication with its rate limits, then the audit of
 * writes (scopes are checked per route); the cache of credential checks is emptied whenever
 * auth announces a revocation.
 */
export function accessControl(options: AccessControlOptions): AccessControl {
  const { verify, clear } = cachedVerifier(options.verify, { ttlMs: options.cacheTtlMs });
  const listeners = new Set<(id: string) => void>();
  const revocations = listenForRevocations(options.broker, (id) => {
    clear();
    options.logger.info('credential revoked; cached checks forgotten', { principalId: id });
    for (const listener of listeners) listener(id);
  });
  return {
    handlers: [
      authenticate({
        bootstrapTokens: options.bootstrapTokens,
        issuerTokens: options.issuerTokens,
        verify,
        logger: options.logger,
        ratePerMinute: options.ratePerMinute,
        failuresPerMinute: options.failuresPerMinute,
        servesTicketLimited: options.servesTicketLimited,
      }),
      auditWrites(options.pool, options.logger),
    ],
    ready: revocations.ready,
    close: revocations.close,
    verify,
    onRevoked: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
