import type { Request, Router } from 'express';
import { DEFAULT_APP } from '../deliveries';
import { nextEventId } from '../ids';
import { runCrcCheck } from '../webhook-client';
import { actingUser, answer, authenticate, param } from './authn';
import type { PlatformContext } from './context';
import { Errors, PlatformError } from './errors';
import type { Webhook } from './state';

const pad = (n: number) => String(n).padStart(2, '0');
/** `2016-06-02 23:54:02 +0000`, the form webhook objects use. */
function webhookDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

export const webhookObject = (webhook: Webhook) => ({ id: webhook.id, url: webhook.url, valid: webhook.valid, created_timestamp: webhookDate(webhook.createdAt) });

const crcFailed = (reason: string) => new PlatformError(400, 214, `Webhook URL does not meet the requirements. ${reason}`, {}, `CRC failed: ${reason}`);

/**
 * The Account Activity API setup routes (premium v1.1), each with the credentials the
 * platform wants: registering, re-checking and deleting a webhook and (un)subscribing
 * oneself take a user context; listing webhooks and subscriptions, counting and removing
 * another user's subscription take the app's bearer token.
 */
export function accountActivityRoutes(router: Router, ctx: PlatformContext): void {
  const { state, config } = ctx;
  const base = '/1.1/account_activity/all';

  function environment(req: Request): string {
    const envName = String(req.params.env);
    if (envName !== config.SOCIAL_ENV_NAME) throw new PlatformError(404, 34, 'Sorry, that page does not exist.', {}, `no environment '${envName}'`);
    return envName;
  }

  const webhooksOf = (envName: string) => state.webhooks.get(envName) ?? [];

  function webhookById(envName: string, id: string): Webhook {
    const webhook = webhooksOf(envName).find((w) => w.id === id);
    if (!webhook) throw Errors.notFound();
    return webhook;
  }

  const check = (webhook: Webhook) => checkWebhook(ctx, webhook);

  router.post(`${base}/:env/webhooks.json`, authenticate(ctx, 'user'), async (req, res) => {
    const envName = environment(req);
    const url = param(res, 'url');
    if (!url || !/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)) throw crcFailed('The url parameter must be an http(s) URL.');
    if (webhooksOf(envName).length > 0) throw new PlatformError(403, 214, 'Too many resources already created.', {}, 'one webhook per environment');
    const webhook: Webhook = { id: nextEventId(), url, valid: false, createdAt: Date.now() };
    const failure = await check(webhook);
    if (failure) throw crcFailed(failure);
    state.webhooks.set(envName, [webhook]);
    await answer(res, 200, webhookObject(webhook));
  });

  router.get(`${base}/:env/webhooks.json`, authenticate(ctx, 'app'), async (req, res) => {
    await answer(res, 200, webhooksOf(environment(req)).map(webhookObject));
  });

  router.put(`${base}/:env/webhooks/:id.json`, authenticate(ctx, 'user'), async (req, res) => {
    const webhook = webhookById(environment(req), String(req.params.id));
    const failure = await check(webhook);
    if (failure) throw crcFailed(failure);
    await answer(res, 204);
  });

  router.delete(`${base}/:env/webhooks/:id.json`, authenticate(ctx, 'user'), async (req, res) => {
    const envName = environment(req);
    const webhook = webhookById(envName, String(req.params.id));
    state.webhooks.set(
      envName,
      webhooksOf(envName).filter((w) => w !== webhook),
    );
    await answer(res, 204);
  });

  router.post(`${base}/:env/subscriptions.json`, authenticate(ctx, 'user'), async (req, res) => {
    const envName = environment(req);
    const user = actingUser(res);
    if (webhooksOf(envName).length === 0) throw new PlatformError(400, 214, 'Webhook URL does not meet the requirements. No webhook is registered for this environment.', {}, 'no webhook');
    const subscribed = state.setOf(state.subscriptions, envName);
    if (subscribed.has(user.id)) throw new PlatformError(409, 355, 'Subscription already exists.');
    subscribed.add(user.id);
    await answer(res, 204);
  });

  router.get(`${base}/:env/subscriptions.json`, authenticate(ctx, 'user'), async (req, res) => {
    const envName = environment(req);
    if (!state.setOf(state.subscriptions, envName).has(actingUser(res).id)) throw Errors.notFound();
    await answer(res, 204);
  });

  router.get(`${base}/:env/subscriptions/list.json`, authenticate(ctx, 'app'), async (req, res) => {
    const envName = environment(req);
    const subscribed = [...state.setOf(state.subscriptions, envName)];
    await answer(res, 200, { environment: envName, application_id: DEFAULT_APP.id, subscriptions: subscribed.map((userId) => ({ user_id: userId })) });
  });

  router.get(`${base}/subscriptions/count.json`, authenticate(ctx, 'app'), async (_req, res) => {
    const all = [...state.subscriptions.values()].reduce((sum, set) => sum + set.size, 0);
    await answer(res, 200, { account_name: 'simulated-app', subscriptions_count_all: String(all), subscriptions_count_direct_messages: String(all) });
  });

  router.delete(`${base}/:env/subscriptions/:userId.json`, authenticate(ctx, 'app'), async (req, res) => {
    const subscribed = state.setOf(state.subscriptions, environment(req));
    if (!subscribed.delete(String(req.params.userId))) throw Errors.notFound();
    await answer(res, 204);
  });
}

/** Runs the CRC against a webhook and marks it valid or not; the reason it failed, or null. */
async function checkWebhook(ctx: PlatformContext, webhook: Webhook): Promise<string | null> {
  const result = await runCrcCheck(webhook.url, ctx.config.SOCIAL_CONSUMER_SECRET);
  webhook.valid = result.valid;
  return result.valid ? null : (result.reason ?? 'the CRC failed');
}

/** What the platform does from time to time: a CRC against every webhook, marking each valid or not. */
export async function recheckWebhooks(ctx: PlatformContext): Promise<{ envName: string; webhook: ReturnType<typeof webhookObject>; reason: string | null }[]> {
  const results = [];
  for (const [envName, webhooks] of ctx.state.webhooks) {
    for (const webhook of webhooks) {
      const reason = await checkWebhook(ctx, webhook);
      results.push({ envName, webhook: webhookObject(webhook), reason });
    }
  }
  return results;
}
