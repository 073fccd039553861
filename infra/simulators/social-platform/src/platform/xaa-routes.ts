import type { ErrorRequestHandler, Request, Response, Router } from 'express';
import { runCrcCheck } from '../webhook-client';
import { XAA_EVENT_TYPES, type XaaEventType } from '@crm/contracts';
import { DIRECTIONAL_EVENT_TYPES, PRIVATE_EVENT_SCOPES, type Direction } from '../xaa-deliveries';
import type { Caller } from './authn';
import { answer, authenticate, callerOf } from './authn';
import type { PlatformContext } from './context';
import { PlatformError } from './errors';
import type { ActivitySubscription, XaaHub, XaaWebhook } from './xaa-hub';

const TITLES: Record<number, string> = { 400: 'Invalid Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found Error', 409: 'Conflict', 429: 'Too Many Requests' };

/** What v2 says where an effect shared with v1.1 refuses with a v1.1 code (v2 problems carry no code). */
const V2_DETAILS: Record<number, string> = {
  183: 'You are not allowed to delete this Tweet.',
  187: 'You are not allowed to create a Tweet with duplicate content.',
  385: 'You attempted to reply to a Tweet that is deleted or not visible to you.',
};

/** v2 routes answer errors as problem details: `{title, detail, type, status}`. */
export const v2ErrorHandler: ErrorRequestHandler = (error, _req, res, next) => {
  if (res.headersSent || !(error instanceof PlatformError)) {
    next(error);
    return;
  }
  res.locals.rejection = error.reason ?? error.message;
  if (error.problem) {
    res.set(error.headers).status(error.status).json(error.problem);
    return;
  }
  const type = error.status === 400 ? 'https://api.x.com/2/problems/invalid-request' : 'about:blank';
  res
    .set(error.headers)
    .status(error.status)
    .json({ title: TITLES[error.status] ?? 'Error', detail: V2_DETAILS[error.code] ?? error.message, type, status: error.status });
};

const invalid = (detail: string) => new PlatformError(400, 0, detail);
const notFound = (what: string) => new PlatformError(404, 0, `Could not find ${what}.`);

/** `YYYYMMDDHHmm` (UTC), the form replay windows are given in. */
function replayTime(value: unknown, name: string): number {
  const match = typeof value === 'string' ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(value) : null;
  if (!match) throw invalid(`${name} must be a UTC time as YYYYMMDDHHmm`);
  const [, y, mo, d, h, mi] = match.map(Number);
  return Date.UTC(y!, mo! - 1, d!, h!, mi!);
}

const webhookJson = (w: XaaWebhook) => ({ id: w.id, url: w.url, valid: w.valid, created_at: new Date(w.createdAt).toISOString() });
const subscriptionJson = (s: ActivitySubscription) => ({
  subscription_id: s.id,
  event_type: s.eventType,
  filter: s.filter,
  ...(s.tag !== null ? { tag: s.tag } : {}),
  ...(s.webhookId ? { webhook_id: s.webhookId } : {}),
  created_at: new Date(s.createdAt).toISOString(),
  updated_at: new Date(s.updatedAt).toISOString(),
});

function webhookOf(hub: XaaHub, req: Request): XaaWebhook {
  const webhook = hub.webhooks.get(String(req.params.id));
  if (!webhook) throw notFound('webhook');
  return webhook;
}

async function crc(ctx: PlatformContext, webhook: XaaWebhook): Promise<void> {
  const result = await runCrcCheck(webhook.url, ctx.config.SOCIAL_CONSUMER_SECRET);
  webhook.valid = result.valid;
  if (!result.valid) throw invalid(`The webhook did not answer the CRC: ${result.reason ?? 'failed'}`);
}

function webhookRoutes(router: Router, ctx: PlatformContext, hub: XaaHub): void {
  const app = authenticate(ctx, 'app');
  // Registering, re-checking and deleting take the app's bearer token or a user context; listing the bearer token.
  const appOrUser = authenticate(ctx, 'user-or-app');
  router.post('/2/webhooks', appOrUser, async (req, res) => {
    const url = (req.body as { url?: unknown } | undefined)?.url;
    if (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url) || !URL.canParse(url)) throw invalid('url must be an http(s) URL');
    // The platform's rule: HTTPS on the default port. The local stack and tests serve http on a port.
    if (!ctx.config.WEBHOOK_HTTP_ALLOWED && (new URL(url).protocol !== 'https:' || new URL(url).port !== '')) throw invalid('url must be an HTTPS URL without a port');
    if (hub.webhooks.size >= ctx.config.WEBHOOK_LIMIT) throw new PlatformError(403, 0, `The application has ${ctx.config.WEBHOOK_LIMIT} webhook${ctx.config.WEBHOOK_LIMIT === 1 ? '' : 's'}, its limit.`, {}, 'webhook limit');
    const webhook: XaaWebhook = { id: hub.newId(), url, valid: false, createdAt: Date.now() };
    await crc(ctx, webhook);
    hub.webhooks.set(webhook.id, webhook);
    await answer(res, 200, { data: webhookJson(webhook) });
  });
  router.get('/2/webhooks', app, async (_req, res) => {
    const data = [...hub.webhooks.values()].map(webhookJson);
    await answer(res, 200, { data, meta: { result_count: data.length } });
  });
  router.post('/2/webhooks/replay', app, async (req, res) => replay(ctx, hub, req, res));
  router.put('/2/webhooks/:id', appOrUser, async (req, res) => {
    await crc(ctx, webhookOf(hub, req));
    await answer(res, 200, { data: { valid: true } });
  });
  router.delete('/2/webhooks/:id', appOrUser, async (req, res) => {
    const webhook = webhookOf(hub, req);
    hub.webhooks.delete(webhook.id);
    ctx.state.subscriptions.delete(webhook.id); // its Account Activity subscriptions go with it
    await answer(res, 200, { data: { deleted: true } });
  });
}

/** A replay job within the platform's rules: one at a time, within 24 h, old enough at both ends. */
async function replay(ctx: PlatformContext, hub: XaaHub, req: Request, res: Response): Promise<void> {
  const body = (req.body ?? {}) as { webhook_id?: unknown; from_date?: unknown; to_date?: unknown };
  const webhook = hub.webhooks.get(String(body.webhook_id));
  if (!webhook) throw notFound('webhook');
  const from = replayTime(body.from_date, 'from_date');
  const to = replayTime(body.to_date, 'to_date');
  const now = Date.now();
  const { XAA_REPLAY_MIN_START_AGE_SECONDS: startAge, XAA_REPLAY_MIN_END_AGE_SECONDS: endAge } = ctx.config;
  if (from >= to) throw invalid('from_date must be before to_date');
  if (from < now - 24 * 3_600_000) throw invalid('from_date must be within the last 24 hours');
  if (from > now - startAge * 1000) throw invalid(`from_date must be at least ${startAge / 60} minutes ago`);
  if (to > now - endAge * 1000) throw invalid(`to_date must be at least ${endAge / 60} minutes ago`);
  if (hub.replayJob?.status === 'running') throw new PlatformError(409, 0, 'A replay job is already running for this application.');
  const job = { id: hub.newId(), webhookId: webhook.id, from, to, createdAt: now, status: 'running' as const, delivered: 0 };
  hub.startReplay(job);
  await answer(res, 200, { data: { job_id: job.id, created_at: new Date(now).toISOString() } });
}

/**
 * A subscription's event type and filter as the platform takes them: `user_id` (digits), or for
 * `oauth.revoke` (documented with no filter) nothing at all; `direction` (`inbound`/`outbound`,
 * optional) on likes alone.
 */
function subscriptionInput(hub: XaaHub, body: unknown): Omit<ActivitySubscription, 'id' | 'createdAt' | 'updatedAt'> {
  const input = (body ?? {}) as { event_type?: unknown; filter?: { user_id?: unknown; keyword?: unknown; direction?: unknown }; tag?: unknown; webhook_id?: unknown };
  if (!XAA_EVENT_TYPES.includes(input.event_type as XaaEventType)) throw invalid(`event_type must be one of ${XAA_EVENT_TYPES.join(', ')}`);
  const eventType = input.event_type as XaaEventType;
  const filter = input.filter ?? {};
  const userId = typeof filter.user_id === 'string' && /^[0-9]{1,20}$/.test(filter.user_id) ? filter.user_id : undefined;
  const keyword = typeof filter.keyword === 'string' && filter.keyword.trim() ? filter.keyword : undefined;
  const unfiltered = eventType === 'oauth.revoke' && !userId && !keyword && filter.user_id === undefined;
  if (!unfiltered && !userId === !keyword) throw invalid('filter must name exactly one of user_id (digits) or keyword');
  if (filter.direction !== undefined) {
    if (!DIRECTIONAL_EVENT_TYPES.includes(eventType)) throw invalid(`filter.direction is not supported for ${eventType}`);
    if (filter.direction !== 'inbound' && filter.direction !== 'outbound') throw invalid("filter.direction must be 'inbound' or 'outbound'");
  }
  if (input.tag !== undefined && (typeof input.tag !== 'string' || input.tag.length < 1 || input.tag.length > 200)) throw invalid('tag must be a string of 1 to 200 characters');
  const webhookId = input.webhook_id === undefined ? null : String(input.webhook_id);
  if (webhookId && !hub.webhooks.has(webhookId)) throw notFound('webhook');
  return {
    eventType,
    filter: { ...(userId ? { user_id: userId } : keyword ? { keyword } : {}), ...(filter.direction ? { direction: filter.direction as Direction } : {}) },
    tag: (input.tag as string | undefined) ?? null,
    webhookId,
  };
}

/** A page of the list: `max_results` 1 to 1000 (100 when not given), `pagination_token` as the previous page's `meta.next_token`. */
function page(query: Request['query']): { size: number; offset: number } {
  const max = query.max_results === undefined ? 100 : Number(query.max_results);
  if (!Number.isInteger(max) || max < 1 || max > 1000) throw invalid('max_results must be an integer from 1 to 1000');
  if (query.pagination_token === undefined) return { size: max, offset: 0 };
  const offset = typeof query.pagination_token === 'string' ? paginationOffset(query.pagination_token) : null;
  if (offset === null) throw invalid('pagination_token is not one this API gave');
  return { size: max, offset };
}

/** Opaque to clients: base32hex (0-9, A-V) of the offset, padded to the 16 characters the platform's tokens have at least. */
const paginationToken = (offset: number) => offset.toString(32).toUpperCase().padStart(16, '0');
const paginationOffset = (token: string): number | null => (/^[0-9A-V]{16,}$/.test(token) ? parseInt(token, 32) : null);

/**
 * A private event is subscribed with the monitored user's OAuth 2.0 token holding the event's
 * scope, for that user only (which makes mutes and blocks actor-only); a public one with any
 * token the route takes.
 */
function checkAuthorized(caller: Caller, eventType: XaaEventType, userId: string | undefined): void {
  const scope = PRIVATE_EVENT_SCOPES[eventType];
  if (!scope) return;
  if (caller.kind !== 'user' || !caller.scopes) throw new PlatformError(403, 0, `${eventType} is a private event: subscribe it with the user's OAuth 2.0 token (user context) holding the ${scope} scope.`);
  if (!caller.scopes.includes(scope)) throw new PlatformError(403, 0, `The token is missing the scope ${scope}, which ${eventType} needs.`);
  if (userId !== caller.user.id) throw new PlatformError(403, 0, `A subscription to ${eventType} can only be made for the authenticated user (${caller.user.id}).`);
}

function subscriptionRoutes(router: Router, ctx: PlatformContext, hub: XaaHub): void {
  const app = authenticate(ctx, 'user-or-app');
  const byId = (req: Request) => {
    const found = hub.subscriptions.get(String(req.params.id));
    if (!found) throw notFound('subscription');
    return found;
  };
  const meta = () => ({ total_subscriptions: hub.subscriptions.size });
  router.post('/2/activity/subscriptions', app, async (req, res) => {
    const input = subscriptionInput(hub, req.body);
    checkAuthorized(callerOf(res), input.eventType, input.filter.user_id);
    if (hub.subscriptions.size >= ctx.config.XAA_MAX_SUBSCRIPTIONS) throw new PlatformError(429, 0, `The application has ${ctx.config.XAA_MAX_SUBSCRIPTIONS} subscriptions, its limit.`);
    const duplicate = [...hub.subscriptions.values()].find((s) => s.eventType === input.eventType && JSON.stringify(s.filter) === JSON.stringify(input.filter) && s.webhookId === input.webhookId);
    if (duplicate) throw new PlatformError(409, 0, `A subscription for ${input.eventType} with this filter exists: ${duplicate.id}.`);
    const now = Date.now();
    const subscription: ActivitySubscription = { ...input, id: hub.newId(), createdAt: now, updatedAt: now };
    hub.subscriptions.set(subscription.id, subscription);
    // The API reference nests the new subscription in `data.subscription` (the quickstart shows it flat in `data`).
    await answer(res, 200, { data: { subscription: subscriptionJson(subscription) }, meta: meta() });
  });
  router.get('/2/activity/subscriptions', app, async (req, res) => {
    const { size, offset } = page(req.query);
    const all = [...hub.subscriptions.values()];
    const data = all.slice(offset, offset + size).map(subscriptionJson);
    const next = offset + size < all.length ? { next_token: paginationToken(offset + size) } : {};
    await answer(res, 200, { data, meta: { ...meta(), result_count: data.length, ...next } });
  });
  router.put('/2/activity/subscriptions/:id', app, async (req, res) => {
    const subscription = byId(req);
    // Only the delivery (webhook_id) and the tag change; another filter or event type is a new subscription.
    const body = (req.body ?? {}) as { tag?: unknown; webhook_id?: unknown };
    const changed = subscriptionInput(hub, { event_type: subscription.eventType, filter: subscription.filter, tag: body.tag ?? subscription.tag ?? undefined, webhook_id: body.webhook_id ?? subscription.webhookId ?? undefined });
    Object.assign(subscription, { tag: changed.tag, webhookId: changed.webhookId, updatedAt: Date.now() });
    await answer(res, 200, { data: { subscription: subscriptionJson(subscription) }, meta: meta() });
  });
  router.delete('/2/activity/subscriptions/:id', app, async (req, res) => {
    hub.subscriptions.delete(byId(req).id);
    await answer(res, 200, { data: { deleted: true }, meta: meta() });
  });
}

/** The X Activity API's setup routes (the app's bearer token; a user's OAuth 2.0 token for subscriptions to private events). */
export function xaaRoutes(router: Router, ctx: PlatformContext, hub: XaaHub): void {
  webhookRoutes(router, ctx, hub);
  subscriptionRoutes(router, ctx, hub);
}
