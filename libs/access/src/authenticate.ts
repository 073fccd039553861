import type { Request, RequestHandler } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { CredentialGrant, Scope } from '@crm/contracts';
import { Refusal } from '@crm/http';
import type { Logger } from '@crm/logging';
import { sameSecret } from '@crm/secrets';
import { bootstrapPrincipal, Principal, sessionIssuerPrincipal } from './principal';
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
  /**
   * SESSION_ISSUER_TOKENS (auth only): the console's token, accepted with the one scope
   * `sessions:issue` and, like a bootstrap token, no rate limit (its sign-ins are limited per
   * browser address instead).
   */
  issuerTokens?: string[];
  verify: CredentialVerifier;
  logger: Logger;
  /** Requests per credential per minute; 0 turns the limit off. Bootstrap tokens are not limited. */
  ratePerMinute: number;
  /** Failed authentications per client address and minute before its credentials are no longer checked; 0 turns it off. */
  failuresPerMinute: number;
  /**
   * Whether this service serves ticket-limited principals (launch sessions): only ticketing,
   * which checks each ticket; elsewhere they get 403 `outside_ticket_scope`.
   */
  servesTicketLimited?: boolean;
}

const challenge = { 'www-authenticate': 'Bearer' };

/** The path as the client sent it (req.path is relative to where the middleware is mounted), without the query. */
export const requestPath = (req: Request): string => req.originalUrl.split('?')[0]!.slice(0, 500);

/** The position of `token` among configured tokens, or -1; every one is compared, so the time taken does not tell which matched. */
export function bootstrapIndex(token: string, tokens: readonly string[]): number {
  let found = -1;
  tokens.forEach((known, index) => {
    if (sameSecret(token, known) && found < 0) found = index;
  });
  return found;
}

/** A limit of `points` per key and minute in this process (0: none). */
export function perMinute(points: number) {
  const limiter = points > 0 ? new RateLimiterMemory({ points, duration: 60 }) : null;
  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
  return {
    /** Counts one for `key`; resolves with the seconds to wait when that went over the limit, else null. */
    async take(key: string): Promise<number | null> {
      try {
        await limiter?.consume(key);
        return null;
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        return seconds(rejection.msBeforeNext);
      }
    },
    /** The seconds to wait when `key` has used up its points, else null (counts nothing). */
    async exhausted(key: string): Promise<number | null> {
      const state = await limiter?.get(key);
      return state && state.consumedPoints >= points ? seconds(state.msBeforeNext) : null;
    },
  };
}

const tooMany = (code: string, message: string, seconds: number) => new Refusal('rate_limited', code, `${message}; try again in ${seconds} s`, { headers: { 'retry-after': String(seconds) } });

async function verifiedPrincipal(token: string, options: AuthenticateOptions): Promise<Principal | null> {
  if (!parseApiToken(token)) return null;
  let grant: CredentialGrant | null;
  try {
    grant = await options.verify(token);
  } catch (error) {
    options.logger.warn('could not verify an API credential', { reason: (error as Error).message });
    throw new Refusal('unavailable', 'auth_unavailable', 'the credential could not be checked right now; try again shortly', { headers: { 'retry-after': '5' } });
  }
  return grant ? new Principal(grant) : null;
}

/** Logs a refused authentication (never the token; the credential id when the token has one). */
function refusal(req: Request, logger: Logger, reason: string, token?: string): Refusal {
  // Logged as principalId: a key named like 'credential' would be masked by the logger.
  const principalId = token ? parseApiToken(token)?.id : undefined;
  logger.warn('authentication failed', { reason, principalId, method: req.method, path: requestPath(req), ip: req.ip });
  return new Refusal('unauthorized', 'unauthorized', reason === 'no bearer token' ? 'send an API token as `Authorization: Bearer <token>`' : 'the API token is not valid', { headers: challenge });
}

/**
 * Lets a request through with `req.principal` set when it carries a bootstrap token or a
 * valid API credential (401 otherwise, logged at warn), then applies the per-credential
 * rate limit (429 with Retry-After). A client address with too many failed attempts in a
 * minute gets 429 before its next credential is even checked (bootstrap tokens still pass).
 */
export function authenticate(options: AuthenticateOptions): RequestHandler {
  const requests = perMinute(options.ratePerMinute);
  const failures = perMinute(options.failuresPerMinute);
  return async (req, _res, next) => {
    const address = req.ip ?? 'unknown';
    const refuse = async (reason: string, token?: string) => {
      await failures.take(address);
      return refusal(req, options.logger, reason, token);
    };
    const token = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1];
    if (!token) throw await refuse('no bearer token');
    const index = bootstrapIndex(token, options.bootstrapTokens);
    if (index >= 0) {
      req.principal = bootstrapPrincipal(index);
      return next();
    }
    const issuer = bootstrapIndex(token, options.issuerTokens ?? []);
    if (issuer >= 0) {
      req.principal = sessionIssuerPrincipal(issuer);
      return next();
    }
    const blocked = await failures.exhausted(address);
    if (blocked) throw tooMany('too_many_failures', 'too many failed authentications from this address', blocked);
    const principal = await verifiedPrincipal(token, options);
    if (!principal) throw await refuse('unknown or revoked token', token);
    const wait = await requests.take(principal.id);
    if (wait) {
      options.logger.warn('rate limit reached', { principalId: principal.id, path: requestPath(req) });
      throw tooMany('rate_limited', `this credential may send ${options.ratePerMinute} requests a minute`, wait);
    }
    if (principal.ticketIds !== null && !options.servesTicketLimited) {
      throw new Refusal('forbidden', 'outside_ticket_scope', 'this session was opened for one ticket and reaches nothing else here');
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

export function missingScope(scope: Scope): Refusal {
  return new Refusal('forbidden', 'missing_scope', `this credential lacks the scope ${scope}`);
}

/** 403 `missing_scope` naming the scope unless the principal holds it (or admin). */
export function requireScope(scope: Scope): RequestHandler {
  return (req, _res, next) => {
    if (!principalOf(req).has(scope)) throw missingScope(scope);
    next();
  };
}

/** `GET /v1/me`: who the presented token is, its scopes and limits (any valid token; no scope needed). */
export const whoAmI: RequestHandler = (req, res) => {
  const { grant } = principalOf(req);
  res.json({
    id: grant.id,
    name: grant.name,
    scopes: grant.scopes,
    accountIds: grant.accountIds,
    trackingClientIds: grant.trackingClientIds,
    ticketIds: grant.ticketIds ?? null,
    sessionId: grant.sessionId ?? null,
    bootstrap: grant.bootstrap === true,
  });
};
