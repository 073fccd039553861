import type { Request, RequestHandler } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { CredentialGrant, Scope } from '@crm/contracts';
import { HttpError } from '@crm/http';
import type { Logger } from '@crm/logging';
import { sameSecret } from '@crm/secrets';
import { bootstrapPrincipal, Principal } from './principal';
import { parseApiToken } from './tokens';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Who sent the request, once `authenticate` has let it through. */
      principal?: Principal;
    }
  }
}

/** Finds the grant of an API token; null when it is unknown or revoked. Throws when it cannot tell (auth unreachable). */
export type CredentialVerifier = (token: string) => Promise<CredentialGrant | null>;

export interface AuthenticateOptions {
  /** CRM_API_TOKENS: accepted as admin with no limits. */
  bootstrapTokens: string[];
  verify: CredentialVerifier;
  logger: Logger;
  /** Requests per credential per minute; 0 turns the limit off. Bootstrap tokens are not limited. */
  ratePerMinute: number;
}

const challenge = { 'www-authenticate': 'Bearer' };

/** The path as the client sent it (req.path is relative to where the middleware is mounted), without the query. */
export const requestPath = (req: Request): string => req.originalUrl.split('?')[0]!.slice(0, 500);

function bootstrapIndex(token: string, tokens: string[]): number {
  let found = -1;
  // Every token is compared, so the time taken does not tell which one matched.
  tokens.forEach((known, index) => {
    if (sameSecret(token, known) && found < 0) found = index;
  });
  return found;
}

async function principalFor(token: string, options: AuthenticateOptions): Promise<Principal | null> {
  const index = bootstrapIndex(token, options.bootstrapTokens);
  if (index >= 0) return bootstrapPrincipal(index);
  if (!parseApiToken(token)) return null;
  let grant: CredentialGrant | null;
  try {
    grant = await options.verify(token);
  } catch (error) {
    options.logger.warn('could not verify an API credential', { reason: (error as Error).message });
    throw new HttpError(503, 'auth_unavailable', 'the credential could not be checked right now; try again shortly', { 'retry-after': '5' });
  }
  return grant ? new Principal(grant) : null;
}

/** Logs a refused authentication (never the token; the credential id when the token has one). */
function refuse(req: Request, logger: Logger, reason: string, token?: string): HttpError {
  // Logged as principalId: a key named like 'credential' would be masked by the logger.
  const principalId = token ? parseApiToken(token)?.id : undefined;
  logger.warn('authentication failed', { reason, principalId, method: req.method, path: requestPath(req), ip: req.ip });
  return new HttpError(401, 'unauthorized', reason === 'no bearer token' ? 'send an API token as `Authorization: Bearer <token>`' : 'the API token is not valid', challenge);
}

/**
 * Lets a request through with `req.principal` set when it carries a bootstrap token or a
 * valid API credential (401 otherwise, logged at warn), then applies the per-credential
 * rate limit (429 with Retry-After).
 */
export function authenticate(options: AuthenticateOptions): RequestHandler {
  const limiter = options.ratePerMinute > 0 ? new RateLimiterMemory({ points: options.ratePerMinute, duration: 60 }) : null;
  return async (req, _res, next) => {
    const match = /^Bearer (.+)$/.exec(req.get('authorization') ?? '');
    if (!match) throw refuse(req, options.logger, 'no bearer token');
    const token = match[1]!;
    const principal = await principalFor(token, options);
    if (!principal) throw refuse(req, options.logger, 'unknown or revoked token', token);
    if (limiter && !principal.bootstrap) {
      try {
        await limiter.consume(principal.id);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        options.logger.warn('rate limit reached', { principalId: principal.id, path: requestPath(req) });
        throw new HttpError(429, 'rate_limited', `this credential may send ${options.ratePerMinute} requests a minute; try again in ${seconds} s`, { 'retry-after': String(seconds) });
      }
    }
    req.principal = principal;
    next();
  };
}

/** The principal `authenticate` set; a route mounted without it is a programming error. */
export function principalOf(req: Request): Principal {
  if (!req.principal) throw new Error('no principal on the request: mount authenticate() first');
  return req.principal;
}

export function missingScope(scope: Scope): HttpError {
  return new HttpError(403, 'missing_scope', `this credential lacks the scope ${scope}`);
}

/** 403 `missing_scope` naming the scope unless the principal holds it (or admin). */
export function requireScope(scope: Scope): RequestHandler {
  return (req, _res, next) => {
    if (!principalOf(req).has(scope)) throw missingScope(scope);
    next();
  };
}
