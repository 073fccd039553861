import express, { type Request, type RequestHandler, type Response } from 'express';
import { sameSecret } from '@crm/secrets';
import type { PlatformContext } from './context';
import { appRefusal, Errors, PlatformError } from './errors';
import { baseUrl, decodePairs, hmacSha1, parseOAuthHeader, sameSignature, signatureBaseString } from './oauth1';
import type { CallerSummary } from './request-log';
import type { RequestToken, UserRecord } from './state';

/** Who called: a user through an access token, a pending request token, the app alone, or the app's bearer token. */
export type Caller =
  | { kind: 'user'; user: UserRecord; /** OAuth 2.0 tokens carry scopes; OAuth 1.0a user tokens may do everything. */ scopes?: string[] }
  | { kind: 'request-token'; token: string; request: RequestToken; oauth: Map<string, string> }
  | { kind: 'consumer'; oauth: Map<string, string> }
  | { kind: 'app' };

export type Requirement = Caller['kind'] | 'user-or-app';

interface Locals {
  query: Record<string, string>;
  form: Record<string, string>;
  queryPairs: [string, string][];
  formPairs: [string, string][];
  caller?: CallerSummary;
  who?: Caller;
}

const locals = (res: Response) => res.locals as Locals;

/** Parses the query and a form body into pairs, kept exact for the signature check. */
export function parseParameters(): RequestHandler[] {
  return [
    express.text({ type: 'application/x-www-form-urlencoded', limit: '100kb' }),
    (req, res, next) => {
      const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
      const l = locals(res);
      l.queryPairs = decodePairs(query);
      l.formPairs = req.is('application/x-www-form-urlencoded') && typeof req.body === 'string' ? decodePairs(req.body) : [];
      l.query = Object.fromEntries(l.queryPairs);
      l.form = Object.fromEntries(l.formPairs);
      next();
    },
  ];
}

/** A request parameter from the query or the form body. */
export function param(res: Response, name: string): string | undefined {
  const l = locals(res);
  return l.form[name] ?? l.query[name];
}

/** How the request asks for posts' text: `tweet_mode=extended` gives `full_text` (v1.1). */
export const tweetMode = (res: Response): 'compat' | 'extended' => (param(res, 'tweet_mode') === 'extended' ? 'extended' : 'compat');

export function callerOf(res: Response): Caller {
  const who = locals(res).who;
  if (!who) throw new Error('route used without authenticate()');
  return who;
}

/** The acting user of a user-context route. */
export function actingUser(res: Response): UserRecord {
  const who = callerOf(res);
  if (who.kind !== 'user') throw Errors.wrongCredentialKind('needs a user access token');
  return who.user;
}

/**
 * The signature over method, URL, protocol, query and form parameters (RFC 5849 section 3.4.1).
 * A client that repeats a protocol parameter in the body with the same value (twitter-api-v2
 * sends oauth_token and oauth_verifier in both to access_token) signs it once, and the platform
 * accepts that as well as the strict form that counts both.
 */
function signatureMatches(req: Request, res: Response, oauth: Map<string, string>, signature: string, consumerSecret: string, tokenSecret: string): boolean {
  const l = locals(res);
  const url = baseUrl(req.protocol, req.get('host') ?? '', req.originalUrl.split('?')[0]!);
  const protocol: [string, string][] = [...oauth].filter(([key]) => key !== 'oauth_signature' && key !== 'realm');
  const request = [...l.queryPairs, ...l.formPairs];
  const repeatsProtocol = ([key, value]: [string, string]) => oauth.get(key) === value && key.startsWith('oauth_');
  const candidates = [request, request.filter((pair) => !repeatsProtocol(pair))];
  const distinct = candidates[1]!.length === request.length ? candidates.slice(0, 1) : candidates;
  return distinct.some((params) => sameSignature(hmacSha1(signatureBaseString(req.method, url, [...protocol, ...params]), consumerSecret, tokenSecret), signature));
}

/**
 * Checks an OAuth 1.0a request as the platform does: the consumer key, HMAC-SHA1, the
 * timestamp window, the token, the signature recomputed over method, URL, oauth_*, query
 * and form parameters, and a nonce never seen before.
 */
function verifyOAuth1(ctx: PlatformContext, req: Request, res: Response, oauth: Map<string, string>): Caller {
  const { config, state, nonces } = ctx;
  const consumerKey = oauth.get('oauth_consumer_key');
  if (!consumerKey || !sameSecret(consumerKey, config.SOCIAL_CONSUMER_KEY)) throw Errors.couldNotAuthenticate('unknown consumer key');
  if (oauth.get('oauth_signature_method') !== 'HMAC-SHA1') throw Errors.couldNotAuthenticate('signature method must be HMAC-SHA1');
  const version = oauth.get('oauth_version');
  if (version !== undefined && version !== '1.0') throw Errors.couldNotAuthenticate('oauth_version must be 1.0');
  const timestamp = Number(oauth.get('oauth_timestamp'));
  const now = Math.floor(Date.now() / 1000);
  if (!Number.isInteger(timestamp) || Math.abs(now - timestamp) > config.OAUTH_TIMESTAMP_WINDOW_SECONDS) {
    throw Errors.timestampOutOfBounds(`timestamp ${oauth.get('oauth_timestamp')} is more than ${config.OAUTH_TIMESTAMP_WINDOW_SECONDS} s from ${now}`);
  }
  const nonce = oauth.get('oauth_nonce');
  const signature = oauth.get('oauth_signature');
  if (!nonce || !signature) throw Errors.couldNotAuthenticate('oauth_nonce and oauth_signature are required');

  const token = oauth.get('oauth_token');
  let caller: Caller;
  let tokenSecret = '';
  if (token === undefined || token === '') {
    caller = { kind: 'consumer', oauth };
  } else if (state.accessTokens.has(token)) {
    const access = state.accessTokens.get(token)!;
    tokenSecret = access.secret;
    caller = { kind: 'user', user: state.user({ id: access.userId }) };
  } else if (state.requestTokens.has(token)) {
    const request = state.requestTokens.get(token)!;
    tokenSecret = request.secret;
    caller = { kind: 'request-token', token, request, oauth };
  } else {
    throw Errors.invalidToken();
  }

  if (!signatureMatches(req, res, oauth, signature, config.SOCIAL_CONSUMER_SECRET, tokenSecret)) throw Errors.couldNotAuthenticate('signature does not match the request');
  if (!nonces.claim(consumerKey, token ?? '', nonce, timestamp, now)) throw Errors.couldNotAuthenticate('nonce already used');
  return caller;
}

/** The app's bearer token, or a user's OAuth 2.0 access token while it lasts. */
function bearerCaller(ctx: PlatformContext, token: string): Caller {
  if (ctx.state.bearerTokens.has(token)) return { kind: 'app' };
  const user = ctx.state.oauth2AccessTokens.get(token);
  if (!user) throw Errors.invalidToken('unknown or invalidated bearer token');
  if (user.expiresAt <= Date.now()) throw Errors.invalidToken('the OAuth 2.0 access token expired');
  return { kind: 'user', user: ctx.state.user({ id: user.userId }), scopes: user.scopes };
}

/** A user-context route's scopes: an OAuth 2.0 token must carry each (403 otherwise). */
export function requireScopes(res: Response, ...needed: string[]): void {
  const who = callerOf(res);
  if (who.kind !== 'user' || !who.scopes) return;
  const missing = needed.filter((scope) => !who.scopes!.includes(scope));
  if (missing.length) throw new PlatformError(403, 0, `The token is missing the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`);
}

function summary(caller: Caller): CallerSummary {
  return caller.kind === 'user' ? { kind: 'user', userId: caller.user.id } : { kind: caller.kind };
}

const satisfies = (required: Requirement, caller: Caller) => required === caller.kind || (required === 'user-or-app' && (caller.kind === 'user' || caller.kind === 'app'));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Authenticates a platform route (OAuth 1.0a or bearer), insists on the kind of credential
 * it needs, then applies a fault a test asked for (an error, a 429, or a late answer).
 */
export function authenticate(ctx: PlatformContext, required: Requirement): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization');
    let caller: Caller;
    const bearer = header && /^Bearer (.+)$/.exec(header);
    if (bearer) {
      caller = bearerCaller(ctx, bearer[1]!);
    } else {
      const oauth = parseOAuthHeader(header);
      if (!oauth) throw Errors.badAuthData();
      caller = verifyOAuth1(ctx, req, res, oauth);
    }
    locals(res).who = caller;
    locals(res).caller = summary(caller);
    if (!satisfies(required, caller)) throw Errors.wrongCredentialKind(`this route needs ${required} credentials, got ${caller.kind}`);
    // The platform's v1.1 routes know OAuth 1.0a user context only: an OAuth 2.0 user token is refused there.
    if (caller.kind === 'user' && caller.scopes && req.originalUrl.startsWith('/1.1/')) throw Errors.wrongCredentialKind('v1.1 routes take OAuth 1.0a user context, not an OAuth 2.0 user token');

    const refusal = ctx.state.appRefusal;
    if (refusal) throw appRefusal(refusal.kind, refusal.resetAt);
    if (ctx.billing.depleted) throw appRefusal('credits-depleted', null, 'the balance is spent (GET /control/billing)');

    const fault = ctx.state.takeFault(req.method, req.originalUrl.split('?')[0]!);
    if (fault?.status) {
      const headers: Record<string, string> = {};
      if (fault.status === 429) {
        headers['x-rate-limit-limit'] = '15';
        headers['x-rate-limit-remaining'] = '0';
        headers['x-rate-limit-reset'] = String(Math.floor(Date.now() / 1000) + (fault.resetInSeconds ?? 900));
      }
      throw new PlatformError(fault.status, fault.code ?? (fault.status === 429 ? 88 : 131), fault.message ?? (fault.status === 429 ? 'Rate limit exceeded' : 'Internal error'), headers, 'fault injected by a test');
    }
    // Carried out, but answered late: what a client that gives up early cannot tell from a failure.
    if (fault?.delayMs) res.locals.delayMs = fault.delayMs;
    next();
  };
}

/** Sends a JSON answer, late when a fault asked for it. */
export async function answer(res: Response, status: number, body?: unknown): Promise<void> {
  const delay = Number(res.locals.delayMs ?? 0);
  if (delay > 0) await sleep(delay);
  if (body === undefined) res.status(status).end();
  else res.status(status).json(body);
}
