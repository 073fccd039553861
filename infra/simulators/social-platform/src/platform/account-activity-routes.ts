import type { Request, Router } from 'express';
import { DEFAULT_APP } from '../deliveries';
import { runCrcCheck } from '../webhook-client';
import { actingUser, answer, authenticate, requireScopes } from './authn';
import type { PlatformContext } from './context';
import { PlatformError } from './errors';
import type { XaaWebhook } from './xaa-hub';

/**
 * The Account Activity API on its v2 routes: an account's subscription to all its activity on
 * one of the app's v2 webhooks (`/2/webhooks`, shared with the X Activity API). Subscribing and
 * checking oneself take the user's token (OAuth 1.0a user context, or an OAuth 2.0 user token
 * holding the scopes the platform names: `dm.read`, `dm.write`, `tweet.read`, `users.read`);
 * listing, counting and removing another user's subscription take the app's bearer token.
 * Answers are nested in `data`; errors are problem details.
 */
/** What an OAuth 2.0 user token must hold to subscribe or check itself (the platform's security requirement for these routes). */
const SCOPES = ['dm.read', 'dm.write', 'tweet.read', 'users.read'];

/** The platform's periodic CRC: every v2 webhook marked valid or not. */
export async function recheckWebhooks(ctx: PlatformContext): Promise<{ webhook: { id: string; url: string; valid: boolean }; reason: string | null }[]> {
  const results = [];
  for (const webhook of ctx.xaa.webhooks.values()) {
    const result = await runCrcCheck(webhook.url, ctx.config.SOCIAL_CONSUMER_SECRET);
    webhook.valid = result.valid;
    results.push({ webhook: { id: webhook.id, url: webhook.url, valid: webhook.valid }, reason: result.valid ? null : (result.reason ?? 'the CRC failed') });
  }
  return results;
}

export function accountActivityRoutes(router: Router, ctx: PlatformContext): void {
  const { state, config, xaa } = ctx;
  const base = '/2/account_activity/webhooks/:webhookId/subscriptions';
  const app = authenticate(ctx, 'app');
  const user = authenticate(ctx, 'user');

  function webhookOf(req: Request): XaaWebhook {
    const webhook = xaa.webhooks.get(String(req.params.webhookId));
    if (!webhook) throw new PlatformError(404, 0, 'Could not find webhook.', {}, `no webhook ${String(req.params.webhookId)}`);
    return webhook;
  }

  const subscribedOn = (webhook: XaaWebhook) => state.setOf(state.subscriptions, webhook.id);
  const subscriptionCount = () => [...state.subscriptions.values()].reduce((sum, set) => sum + set.size, 0);

  router.post(`${base}/all`, user, async (req, res) => {
    const webhook = webhookOf(req);
    requireScopes(res, ...SCOPES);
    const userId = actingUser(res).id;
    const subscribed = subscribedOn(webhook);
    if (subscribed.has(userId)) throw new PlatformError(409, 0, 'The user is already subscribed to this webhook.', {}, 'subscribed already');
    if (!webhook.valid) throw new PlatformError(400, 0, 'The webhook is not valid: it must answer the CRC first.', {}, 'webhook invalid');
    if (subscriptionCount() >= config.AAA_SUBSCRIPTION_LIMIT) {
      throw new PlatformError(403, 0, `The application has ${config.AAA_SUBSCRIPTION_LIMIT} subscriptions, its limit.`, {}, 'subscription limit');
    }
    subscribed.add(userId);
    await answer(res, 200, { data: { subscribed: true } });
  });

  router.get(`${base}/all`, user, async (req, res) => {
    const webhook = webhookOf(req);
    requireScopes(res, ...SCOPES);
    await answer(res, 200, { data: { subscribed: subscribedOn(webhook).has(actingUser(res).id) } });
  });

  router.get(`${base}/all/list`, app, async (req, res) => {
    const webhook = webhookOf(req);
    const subscriptions = [...subscribedOn(webhook)].map((userId) => ({ user_id: userId }));
    await answer(res, 200, { data: { application_id: DEFAULT_APP.id, webhook_id: webhook.id, webhook_url: webhook.url, subscriptions } });
  });

  router.delete(`${base}/:userId/all`, app, async (req, res) => {
    const webhook = webhookOf(req);
    if (!subscribedOn(webhook).delete(String(req.params.userId))) throw new PlatformError(404, 0, 'Could not find a subscription of that user on this webhook.', {}, 'not subscribed');
    await answer(res, 200, { data: { subscribed: false } });
  });

  router.get('/2/account_activity/subscriptions/count', app, async (_req, res) => {
    const all = String(subscriptionCount());
    await answer(res, 200, {
      data: { account_name: 'simulated-app', provisioned_count: String(config.AAA_SUBSCRIPTION_LIMIT), subscriptions_count_all: all, subscriptions_count_direct_messages: all },
    });
  });
}
