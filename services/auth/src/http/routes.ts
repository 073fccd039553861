import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { Router, type Express, type Request, type RequestHandler } from 'express';
import { principalOf, requireScope } from '@crm/access';
import { Refusal } from '@crm/http';
import type { Logger } from '@crm/logging';
import { mask } from '@crm/secrets';
import type { AccountSummary } from '../adapters/accounts';
import type { AccountService } from '../operations/accounts';
import type { AgentChangesService } from '../operations/agent-changes';
import type { AgentAdmin } from '../operations/agents';
import type { AppCredit } from '../operations/credit';
import type { ActionExecutor } from '../operations/executor';
import type { SessionService } from '../operations/sessions';
import type { UsageMeter } from '../operations/usage';
import type { WebhookAdmin, WebhookCheck } from '../operations/webhooks';
import { actionRoutes } from './action-routes';
import { agentRoutes } from './agent-routes';
import { domainErrors } from './errors';
import { bindingCookieName } from '../adapters/connection-requests';
import { CALLBACK_PAGES, sendPage, START_PAGES } from './pages';
import { allowedAccountIdParam, bodyOf, optionalString, requiredString } from './params';
import { sessionRoutes } from './session-routes';
import { usageRoutes } from './usage-routes';

export interface AuthRoutesDeps {
  accounts: AccountService;
  webhooks: WebhookAdmin;
  executor: ActionExecutor;
  /** The accounts' platform spend and budgets. */
  meter: UsageMeter;
  sessions: SessionService;
  agents: AgentAdmin;
  agentChanges: AgentChangesService;
  /** Runs the webhook check (publishing webhook.invalid), or joins the one already running. */
  checkWebhooks: () => Promise<WebhookCheck>;
  /** The app's credit on the platform: its state, and a check now. */
  credit: AppCredit;
  logger: Logger;
  /** Authentication, rate limit and audit (`accessControl` of @crm/access, serving ticket-limited principals: see `outsideTicketScope`), mounted on /v1. */
  access: RequestHandler[];
  /** Where a browser goes after a connection succeeded; auth's own page when null. */
  crmConnectedUrl: string | null;
  /** auth's own address as browsers reach it. */
  publicUrl: () => string;
  connectionTtlSeconds: number;
}

const ACCOUNT_ID = /^[0-9]{1,20}$/;
const queryString = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The binding cookie the browser sent for a request token (OAuth 1.0a) or state (OAuth 2.0), if any. */
const bindingOf = (req: Request) => {
  const cookies = parseCookies(req.get('cookie') ?? '');
  return (requestKey: string) => cookies[bindingCookieName(requestKey)];
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

  // One callback for both protocols: OAuth 1.0a comes back with oauth_token, OAuth 2.0 with state (and code or error).
  router.get('/v1/oauth/callback', async (req, res) => {
    const names = ['oauth_token', 'oauth_verifier', 'denied', 'state', 'code', 'error'] as const;
    const query = Object.fromEntries(names.map((name) => [name, queryString(req.query[name])]));
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
  const notConnected = (accountId: string) => new Refusal('not_found', 'account_not_connected', `account ${accountId} is not connected in auth`);

  router.post('/v1/connections', requireScope('accounts:manage'), async (req, res) => {
    // The document allows only oauth1 and oauth2 (400 otherwise).
    res.status(201).json(await deps.accounts.startConnection(req.query.protocol === 'oauth2' ? 'oauth2' : 'oauth1'));
  });

  router.get('/v1/accounts', requireScope('tickets:read'), async (req, res) => {
    const principal = principalOf(req);
    res.json({ items: (await deps.accounts.list()).filter((account) => principal.allowsAccount(account.accountId)).map(presentAccount) });
  });

  router.get('/v1/accounts/:accountId', requireScope('tickets:read'), async (req, res) => {
    const accountId = allowedAccountIdParam(req);
    const account = await deps.accounts.find(accountId);
    if (!account) throw notConnected(accountId);
    res.json(presentAccount(account));
  });

  router.put('/v1/accounts/:accountId/credentials', requireScope('accounts:manage'), async (req, res) => {
    const accountId = allowedAccountIdParam(req);
    const body = bodyOf(req);
    const token = { key: requiredString(body, 'accessToken'), secret: requiredString(body, 'accessTokenSecret') };
    res.json(presentAccount(await deps.accounts.importCredentials(accountId, token)));
  });

  router.delete('/v1/accounts/:accountId', requireScope('accounts:manage'), async (req, res) => {
    const accountId = allowedAccountIdParam(req);
    if (!(await deps.accounts.remove(accountId))) throw notConnected(accountId);
    res.status(204).end();
  });
}

/** An account as the CRM sees it: the consumer key masked like the token (`abcd…wxyz`). */
function presentAccount(account: AccountSummary): AccountSummary {
  return { ...account, consumerKey: mask(account.consumerKey) };
}

function webhookRoutes(router: Router, deps: AuthRoutesDeps): void {
  const { webhooks } = deps;
  const owner = (req: Parameters<typeof bodyOf>[0]) => optionalString(bodyOf(req), 'ownerAccountId', ACCOUNT_ID);
  const webhookId = (value: unknown) => {
    const id = String(value);
    if (!/^[0-9]{1,20}$/.test(id)) throw new Refusal('invalid', 'invalid_webhook_id', '`webhookId` must be the platform webhook id (digits)');
    return id;
  };

  // The webhook environment is shared by every account: only admin changes or reads it.
  const admin = requireScope('admin');
  const manage = requireScope('accounts:manage');
  router.post('/v1/webhooks', admin, async (req, res) => {
    res.status(201).json(await webhooks.register(owner(req)));
  });
  router.get('/v1/webhooks', admin, async (_req, res) => {
    res.json({ envName: webhooks.envName, items: await webhooks.list() });
  });
  router.post('/v1/webhooks/check', admin, async (_req, res) => {
    res.json(await deps.checkWebhooks());
  });
  router.post('/v1/webhooks/:webhookId/crc', admin, async (req, res) => {
    res.json(await webhooks.recheck(webhookId(req.params.webhookId), owner(req)));
  });
  router.delete('/v1/webhooks/:webhookId', admin, async (req, res) => {
    await webhooks.remove(webhookId(req.params.webhookId), owner(req));
    res.status(204).end();
  });

  router.put('/v1/accounts/:accountId/subscription', manage, async (req, res) => {
    const { alreadySubscribed } = await webhooks.subscribe(allowedAccountIdParam(req));
    res.json({ subscribed: true, alreadySubscribed });
  });
  router.get('/v1/accounts/:accountId/subscription', manage, async (req, res) => {
    res.json({ subscribed: await webhooks.isSubscribed(allowedAccountIdParam(req)) });
  });
  router.delete('/v1/accounts/:accountId/subscription', manage, async (req, res) => {
    if (!(await webhooks.unsubscribe(allowedAccountIdParam(req)))) throw new Refusal('not_found', 'not_subscribed', `account ${String(req.params.accountId)} is not subscribed`);
    res.status(204).end();
  });
  router.get('/v1/subscriptions', admin, async (_req, res) => {
    res.json({ envName: webhooks.envName, items: (await webhooks.listSubscriptions()).map((accountId) => ({ accountId })) });
  });
  router.get('/v1/subscriptions/count', admin, async (_req, res) => {
    res.json(await webhooks.countSubscriptions());
  });
}

/** The app's own state on the platform: whether it is out of credit (for the console's banner), and a check now (admin). */
function appRoutes(router: Router, credit: AppCredit): void {
  const view = (state: Awaited<ReturnType<AppCredit['status']>>) => ({ outOfCredit: state.outOfCredit, since: state.since?.toISOString() ?? null, heldCommands: state.heldCommands });
  router.get('/v1/app/status', requireScope('tickets:read'), async (_req, res) => {
    res.json(view(await credit.status()));
  });
  router.post('/v1/app/credit-check', requireScope('admin'), async (_req, res) => {
    res.json(view(await credit.check()));
  });
}

/** A launch session (limited to tickets) reaches nothing of auth but its own sign-out: 403, as every service but ticketing answers it. */
const outsideTicketScope: RequestHandler = (req, _res, next) => {
  if (principalOf(req).ticketIds !== null) throw new Refusal('forbidden', 'outside_ticket_scope', 'this session was opened for one ticket and reaches nothing else here');
  next();
};

/** auth's HTTP API: the browser's OAuth routes, then everything the CRM calls with its bearer token. */
export function authRoutes(deps: AuthRoutesDeps): (app: Express) => void {
  return (app) => {
    const router = Router();
    browserRoutes(router, deps);
    router.use('/v1', ...deps.access);
    sessionRoutes(router, deps.sessions);
    router.use('/v1', outsideTicketScope);
    accountRoutes(router, deps);
    agentRoutes(router, deps.agents, deps.agentChanges);
    webhookRoutes(router, deps);
    appRoutes(router, deps.credit);
    actionRoutes(router, deps.executor);
    usageRoutes(router, deps.meter);
    router.use(domainErrors(deps.logger));
    app.use(router);
  };
}
