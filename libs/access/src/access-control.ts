import type { RequestHandler } from 'express';
import type { Pool } from '@crm/db';
import type { Logger } from '@crm/logging';
import { auditWrites } from './audit';
import { authenticate, type CredentialVerifier } from './authenticate';
import { cachedVerifier } from './verifiers';

export interface AccessControlOptions {
  /** CRM_API_TOKENS. */
  bootstrapTokens: string[];
  /** Finds an API token's grant (auth's store in auth, the RPC to auth elsewhere); cached here. */
  verify: CredentialVerifier;
  /** The service's database, holding its `audit_log`. */
  pool: Pool;
  logger: Logger;
  ratePerMinute: number;
  failuresPerMinute: number;
  cacheTtlMs: number;
}

/** What a service mounts on `/v1`: authentication with its rate limit, then the audit of writes. Scopes are checked per route. */
export function accessControl(options: AccessControlOptions): RequestHandler[] {
  const { verify } = cachedVerifier(options.verify, { ttlMs: options.cacheTtlMs });
  return [
    authenticate({ bootstrapTokens: options.bootstrapTokens, verify, logger: options.logger, ratePerMinute: options.ratePerMinute, failuresPerMinute: options.failuresPerMinute }),
    auditWrites(options.pool, options.logger),
  ];
}
