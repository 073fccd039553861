import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { Router, type Express, type Request } from 'express';
import { HttpError, requireBearerToken } from '@crm/http';
import type { Logger } from '@crm/logging';
import type { AccountService } from '../operations/accounts';
import type { ActionExecutor } from '../operations/executor';
import type { WebhookAdmin, WebhookCheck } from '../operations/webhooks';
import { actionRoutes } from './action-routes';
import { domainErrors } from './errors';
import { bindingCookieName } from '../adapters/connection-requests';
import { CALLBACK_PAGES, sendPage, START_PAGES } from './pages';
import { accountIdParam, bodyOf, optionalString, requiredString } from './params';

export interface AuthRoutesDeps {
  accounts: AccountService;
  webhooks: WebhookAdmin;
  executor: ActionExecutor;
  /** Runs the webhook check (publishing webhook.invalid), or joins the one already running. */
  checkWebhooks: () => Promise<WebhookCheck>;
  logger: Logger;
  crmApiTokens: string[];
  /** Where a browser goes after a connection succeeded; auth's own page when null. */
  crmConnectedUrl: string | null;
  /** auth's own address as browsers reach it. */
  publicUrl: () => string;
  connectionTtlSeconds: number;
}

const ACCOUNT_ID = /^[0-9]{1,20}$/;
const queryString = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The binding cookie the browser sent for a request token, if any. */
const bindingOf = (req: Request) => {
  const cookies = parseCookies(req.get('cookie') ?? '');
  return (requestToken: string) => cookies[bindingCookieName(requestToken)];
};

/** Routes a browser visits: the start link, the OAuth callback and the page after it. No CRM token here. */
function browserRoutes(router: Router, deps: AuthRoutesDeps): void {
  const minutes = `${Math.round(deps.connectionTtlSeconds / 60)} minutes`;
  router.get('/v1/oauth/start', async (req, res) => {
    const opened = await deps.accounts.openStartLink(queryString(req.query.link) ?? '');
    if (opened.status !== 'opened') {
      const page = START_PAGES[opened.status];
      sendPage(res, page.status, page.title, page.text(minutes));
      return;
    }
    const secure = deps.publicUrl().startsWith('https:');
    const cookie = serializeCookie(opened.cookieName, opened.binding, { httpOnly: true, sameSite: 'lax', secure, path: '/v1/oauth', maxAge: deps.connectionTtlSeconds });
    res.set('set-cookie', cookie).set('cache-control', 'no-store').redirect(303, opened.authorizeUrl);
  });

  router.get('/v1/oauth/callback', async (req, res) => {
    const query = { oauth_token: queryString(req.query.oauth_token), oauth_verifier: queryString(req.query.oauth_verifier), denied: queryString(req.query.denied) };
    const outcome = await deps.accounts.completeConnection(query, bindingOf(req));
    if (outcome.status === 'connected') {
      const target = new URL(deps.crmConnectedUrl ?? `${deps.publicUrl()}/v1/oauth/connected`);
      target.searchParams.set('accountId', outcome.account.accountId);
      target.searchParams.set('screenName', outcome.account.screenName);
      res.redirect(303, target.toString());
      return;
    }
    const page = CALLBACK_PAGES[outcome.status];
    sendPage(res, page.status, page.title, page.text(outcome.status === 'failed' ? outcome.reason : minutes));
  });

  router.get('/v1/oauth/connected', (req, res) => {
    const screenName = queryString(req.query.screenName) ?? 'the account';
    sendPage(res, 200, 'Account connected', `@${screenName.replace(/^@/, '')} is connected. You can close this window.`);
  });
}

function accountRoutes(router: Router, deps: AuthRoutesDeps): void {
  router.post('/v1/connections', async (_req, res) => {
    res.status(201).json(await deps.accounts.startConnection());
  });

  router.get('/v1/accounts', async (_req, res) => {
    res.json({ items: await deps.accounts.list() });
  });

  router.get('/v1/accounts/:accountId', async (req, res) => {
    const account = await deps.accounts.find(accountIdParam(req));
    if (!account) throw new HttpError(404, 'account_not_connected', `account ${String(req.params.accountId)} is not connected in auth`);
    res.json(account);
  });

  router.put('/v1/accounts/:accountId/credentials', async (req, res) => {
    const body = bodyOf(req);
    const token = { key: requiredString(body, 'accessToken'), secret: requiredString(body, 'accessTokenSecret') };
    res.json(await deps.accounts.importCredentials(accountIdParam(req), token));
  });

  router.delete('/v1/accounts/:accountId', async (req, res) => {
    if (!(await deps.accounts.remove(accountIdParam(req)))) throw new HttpError(404, 'account_not_connected', `account ${String(req.params.accountId)} is not connected in auth`);
    res.status(204).end();
  });
}

function webhookRoutes(router: Router, deps: AuthRoutesDeps): void {
  const { webhooks } = deps;
  const owner = (req: Parameters<typeof bodyOf>[0]) => optionalString(bodyOf(req), 'ownerAccountId', ACCOUNT_ID);
  const webhookId = (value: unknown) => {
    const id = String(value);
    if (!/^[0-9]{1,20}$/.test(id)) throw new HttpError(400, 'invalid_webhook_id', '`webhookId` must be the platform webhook id (digits)');
    return id;
  };

  router.post('/v1/webhooks', async (req, res) => {
    res.status(201).json(await webhooks.register(owner(req)));
  });
  router.get('/v1/webhooks', async (_req, res) => {
    res.json({ envName: webhooks.envName, items: await webhooks.list() });
  });
  router.post('/v1/webhooks/check', async (_req, res) => {
    res.json(await deps.checkWebhooks());
  });
  router.post('/v1/webhooks/:webhookId/crc', async (req, res) => {
    res.json(await webhooks.recheck(webhookId(req.params.webhookId), owner(req)));
  });
  router.delete('/v1/webhooks/:webhookId', async (req, res) => {
    await webhooks.remove(webhookId(req.params.webhookId), owner(req));
    res.status(204).end();
  });

  router.put('/v1/accounts/:accountId/subscription', async (req, res) => {
    const { alreadySubscribed } = await webhooks.subscribe(accountIdParam(req));
    res.json({ subscribed: true, alreadySubscribed });
  });
  router.get('/v1/accounts/:accountId/subscription', async (req, res) => {
    res.json({ subscribed: await webhooks.isSubscribed(accountIdParam(req)) });
  });
  router.delete('/v1/accounts/:accountId/subscription', async (req, res) => {
    if (!(await webhooks.unsubscribe(accountIdParam(req)))) throw new HttpError(404, 'not_subscribed', `account ${String(req.params.accountId)} is not subscribed`);
    res.status(204).end();
  });
  router.get('/v1/subscriptions', async (_req, res) => {
    res.json({ envName: webhooks.envName, items: (await webhooks.listSubscriptions()).map((accountId) => ({ accountId })) });
  });
  router.get('/v1/subscriptions/count', async (_req, res) => {
    res.json(await webhooks.countSubscriptions());
  });
}

/** auth's HTTP API: the browser's OAuth routes, then everything the CRM calls with its bearer token. */
export function authRoutes(deps: AuthRoutesDeps): (app: Express) => void {
  return (app) => {
    const router = Router();
    browserRoutes(router, deps);
    router.use('/v1', requireBearerToken(deps.crmApiTokens));
    accountRoutes(router, deps);
    webhookRoutes(router, deps);
    actionRoutes(router, deps.executor);
    router.use(domainErrors(deps.logger));
    app.use(router);
  };
}
