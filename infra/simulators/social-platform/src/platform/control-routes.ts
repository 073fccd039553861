import type { Router } from 'express';
import { Refusal } from '@crm/http';
import { appRevoked } from '../activity-deliveries';
import { UserRefError } from '../users';
import { recheckWebhooks } from './account-activity-routes';
import type { PlatformContext } from './context';
import { postObject, userObject } from './objects';
import type { Fault, PlatformState, UserRecord } from './state';

type Body = Record<string, unknown>;

const invalid = (field: string, problem: string) => new Refusal('invalid', 'invalid_request', `\`${field}\` ${problem}`);

function body(value: unknown): Body {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Refusal('invalid', 'invalid_request', 'send a JSON object');
  return value as Body;
}

function optional<T>(b: Body, field: string, type: 'string' | 'number' | 'boolean'): T | undefined {
  const value = b[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== type) throw invalid(field, `must be a ${type}`);
  return value as T;
}

function userFrom(state: PlatformState, b: Body, field: string): UserRecord {
  const value = b[field];
  try {
    if (typeof value === 'string' && value.trim() !== '') return state.user(value);
    if (typeof value === 'object' && value !== null) return state.user(value as { id?: string; screenName?: string });
  } catch (error) {
    if (error instanceof UserRefError) throw invalid(field, error.message);
    throw error;
  }
  throw invalid(field, 'is required: "@screen_name", a numeric id, or {id, screenName}');
}

/** Users, their posts, and tokens as if issued elsewhere (and revoked). */
function userAndTokenRoutes(router: Router, ctx: PlatformContext, base: string): void {
  const { state, activity } = ctx;
  router.post(`${base}/users`, (req, res) => {
    const b = body(req.body);
    try {
      const user = state.upsertUser({
        id: optional<string>(b, 'id', 'string'),
        screenName: optional<string>(b, 'screenName', 'string')?.replace(/^@/, ''),
        name: optional<string>(b, 'name', 'string'),
        protected: optional<boolean>(b, 'protected', 'boolean'),
      });
      res.json(userObject(user));
    } catch (error) {
      if (error instanceof UserRefError) throw invalid('id', error.message);
      throw error;
    }
  });

  router.post(`${base}/posts`, (req, res) => {
    const b = body(req.body);
    const author = userFrom(state, b, 'author');
    const text = optional<string>(b, 'text', 'string');
    if (!text) throw invalid('text', 'must be a non-empty string');
    res.json(postObject(state, state.addPost({ authorId: author.id, text })));
  });

  router.post(`${base}/tokens`, (req, res) => {
    const b = body(req.body);
    const user = userFrom(state, b, 'user');
    // `oauth2Scopes`: an OAuth 2.0 user token with those scopes, as if the user had consented (an hour long).
    if (b.oauth2Scopes !== undefined) {
      if (!Array.isArray(b.oauth2Scopes) || !b.oauth2Scopes.every((scope) => typeof scope === 'string')) throw invalid('oauth2Scopes', 'must be a list of scopes');
      const tokens = state.issueOAuth2Tokens(user.id, b.oauth2Scopes as string[], 3600);
      res.json({ accessToken: tokens.access_token, scope: tokens.scope, userId: user.id, screenName: user.screenName });
      return;
    }
    const issued = state.issueAccessToken(user.id);
    res.json({ oauthToken: issued.token, oauthTokenSecret: issued.secret, userId: user.id, screenName: user.screenName });
  });

  router.post(`${base}/tokens/revoke`, (req, res) => {
    const user = userFrom(state, body(req.body), 'user');
    const revoked = state.revokeAccessTokens(user.id);
    activity.deliver(user.id, appRevoked({ account: user.id }));
    res.json({ revoked });
  });

  router.post(`${base}/app-tokens/invalidate`, (_req, res) => {
    const invalidated = state.bearerTokens.size;
    state.bearerTokens.clear();
    res.json({ invalidated });
  });
}

/** Faults of single calls (errors, 429s, late answers) and of the app as a whole. */
function faultRoutes(router: Router, ctx: PlatformContext, base: string): void {
  const { state } = ctx;
  router.post(`${base}/faults`, (req, res) => {
    const b = body(req.body);
    const path = optional<string>(b, 'path', 'string');
    if (!path?.startsWith('/')) throw invalid('path', 'must be a path such as /1.1/statuses/update.json');
    const fault: Fault = {
      path,
      method: optional<string>(b, 'method', 'string'),
      times: optional<number>(b, 'times', 'number') ?? 1,
      status: optional<number>(b, 'status', 'number'),
      code: optional<number>(b, 'code', 'number'),
      message: optional<string>(b, 'message', 'string'),
      resetInSeconds: optional<number>(b, 'resetInSeconds', 'number'),
      delayMs: optional<number>(b, 'delayMs', 'number'),
    };
    if (!fault.status && !fault.delayMs) throw invalid('status', 'give a status (e.g. 429) or a delayMs');
    state.faults.push(fault);
    res.status(201).json(fault);
  });

  // The app refused as a whole: its monthly usage cap used up, or its credits spent.
  router.post(`${base}/app-refusal`, (req, res) => {
    const b = body(req.body);
    const kind = optional<string>(b, 'kind', 'string');
    if (kind !== 'usage-capped' && kind !== 'credits-depleted') throw invalid('kind', 'must be usage-capped or credits-depleted');
    const resetInSeconds = optional<number>(b, 'resetInSeconds', 'number');
    if (resetInSeconds !== undefined && kind !== 'usage-capped') throw invalid('resetInSeconds', 'applies to usage-capped only');
    state.appRefusal = { kind, resetAt: resetInSeconds === undefined ? null : Date.now() + resetInSeconds * 1000 };
    res.status(201).json({ kind, resetAt: state.appRefusal.resetAt === null ? null : new Date(state.appRefusal.resetAt).toISOString() });
  });

  router.delete(`${base}/app-refusal`, (_req, res) => {
    state.appRefusal = null;
    res.status(204).end();
  });

  router.delete(`${base}/faults`, (_req, res) => {
    state.faults.length = 0;
    res.status(204).end();
  });
}

/** The periodic CRC on demand, and what the platform received and delivered. */
function observationRoutes(router: Router, ctx: PlatformContext, base: string): void {
  const { activity, requests } = ctx;
  router.post(`${base}/webhooks/check`, async (_req, res) => {
    res.json({ items: await recheckWebhooks(ctx) });
  });

  router.get(`${base}/requests`, (req, res) => {
    const path = typeof req.query.path === 'string' ? req.query.path : undefined;
    const method = typeof req.query.method === 'string' ? req.query.method : undefined;
    res.json({ items: requests.list({ path, method }) });
  });

  router.delete(`${base}/requests`, (_req, res) => {
    requests.clear();
    res.status(204).end();
  });

  router.get(`${base}/deliveries`, async (_req, res) => {
    await activity.idle();
    res.json({ items: activity.list() });
  });
}

const dollars = (b: Body, field: string, positive: boolean): number => {
  const value = b[field];
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (positive && value === 0)) throw invalid(field, `must be a number of dollars${positive ? ' above 0' : ', 0 or more'}`);
  return value;
};

const instant = (value: unknown, field: string): Date | undefined => {
  if (value === undefined) return undefined;
  const at = typeof value === 'string' ? new Date(value) : new Date(NaN);
  if (Number.isNaN(at.getTime())) throw invalid(field, 'must be an ISO 8601 date-time');
  return at;
};

/** The app's credits: the balance, every charge (filtered by `userId`, `from`, `to`), setting and topping up the balance. */
function billingRoutes(router: Router, ctx: PlatformContext): void {
  const { billing } = ctx;
  const view = (filter: Parameters<typeof billing.list>[0] = {}) => ({ balance: billing.balance, charges: billing.list(filter) });
  router.get('/control/billing', (req, res) => {
    const userId = typeof req.query.userId === 'string' ? req.query.userId : undefined;
    res.json(view({ userId, from: instant(req.query.from, 'from'), to: instant(req.query.to, 'to') }));
  });
  router.put('/control/billing', (req, res) => {
    billing.setBalance(dollars(body(req.body), 'balance', false));
    res.json(view());
  });
  router.post('/control/billing/top-up', (req, res) => {
    billing.topUp(dollars(body(req.body), 'amount', true));
    res.json({ balance: billing.balance });
  });
}

/**
 * Knobs for tests and people, beside the platform API: users and their posts, tokens as if
 * issued elsewhere, revocation, faults (errors, 429s, late answers), the periodic CRC, and
 * what the platform received and delivered.
 */
export function platformControlRoutes(router: Router, ctx: PlatformContext): void {
  const base = '/control/platform';
  userAndTokenRoutes(router, ctx, base);
  faultRoutes(router, ctx, base);
  observationRoutes(router, ctx, base);
  billingRoutes(router, ctx);
}
