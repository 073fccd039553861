import type { Express, Request, Response } from 'express';
import { Refusal } from '@crm/http';
import type { Upstream, UpstreamAnswer } from '../adapters/upstream';
import { mergeAccounts } from '../domain/accounts';
import { relayedRefusal, sessionEnded, type SessionSettings } from './session';

export interface Upstreams {
  ticketing: Upstream;
  auth: Upstream;
}

/**
 * Calls a service as the signed-in agent: with the session's token, so the service checks the
 * agent's own rights, limits and rate limit, and names the agent in its audit log. A 401 means
 * auth no longer accepts the session (signed out, revoked, expired): the console's session ends too.
 */
export function asAgent(req: Request, res: Response, settings: SessionSettings) {
  const session = req.session!;
  return async (upstream: Upstream, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<UpstreamAnswer> => {
    const answer = await upstream.call(session.token, method, path, body, headers);
    if (answer.status === 401) throw sessionEnded(res, settings, Boolean(session.ticketId));
    return answer;
  };
}

const ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** A path parameter checked before it goes into another service's URL. */
function param(req: Request, name: string): string {
  const value = req.params[name];
  if (typeof value !== 'string' || !ID.test(value)) throw new Refusal('invalid', 'invalid_parameter', `\`${name}\` must be 1-128 of A-Z a-z 0-9 . _ : -`);
  return encodeURIComponent(value);
}

/** Relays a service's answer: a success with its status and JSON body, a refusal as the same refusal. */
function relay(res: Response, answer: UpstreamAnswer): void {
  if (answer.status >= 400) throw relayedRefusal(answer, 'upstream_refused', `the service refused the request (${answer.status})`);
  if (answer.status === 204) {
    res.status(204).end();
    return;
  }
  const retryAfter = answer.headers.get('retry-after');
  if (retryAfter) res.set('retry-after', retryAfter);
  res.status(answer.status).json(answer.body ?? {});
}

function bodyOf(req: Request): unknown {
  if (!req.is('application/json')) throw new Refusal('unsupported_media_type', 'unsupported_media_type', 'send a JSON body (content-type: application/json)');
  return req.body;
}

const TICKET_FILTERS = ['accountId', 'queue', 'folder', 'contactId', 'status', 'assignee', 'priority', 'tag', 'breached', 'order', 'q', 'cursor', 'limit'];

function ticketQuery(req: Request, filters: readonly string[] = TICKET_FILTERS): string {
  const query = new URLSearchParams();
  for (const key of filters) {
    const value = req.query[key];
    if (typeof value === 'string' && value !== '') query.set(key, value);
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

const PROTOCOLS = ['oauth1', 'oauth2'];

/** The connection's protocol for auth (`?protocol=oauth2`); none: auth's default, OAuth 1.0a. */
function protocolQuery(req: Request): string {
  const protocol = req.query.protocol;
  if (protocol === undefined) return '';
  if (typeof protocol !== 'string' || !PROTOCOLS.includes(protocol)) throw new Refusal('invalid', 'invalid_parameter', '`protocol` must be oauth1 or oauth2');
  return `?protocol=${protocol}`;
}

/** Accounts, connections and partner configurations (the configuration page). */
export function configurationRoutes(app: Express, { ticketing, auth }: Upstreams, settings: SessionSettings): void {
  const agent = (req: Request, res: Response) => asAgent(req, res, settings);
  app.get('/api/accounts', async (req, res) => {
    const call = agent(req, res);
    const [authAccounts, ticketingAccounts, configs, webhooks] = await Promise.all([
      call(auth, 'GET', '/v1/accounts'),
      call(ticketing, 'GET', '/v1/accounts'),
      call(ticketing, 'GET', '/v1/partner-configs'),
      // Only an admin sees the webhook environment; anyone else's list shows no webhook state.
      call(auth, 'GET', '/v1/webhooks'),
    ]);
    for (const answer of [authAccounts, ticketingAccounts, configs]) if (answer.status !== 200) return relay(res, answer);
    res.json({ items: mergeAccounts(authAccounts.body, ticketingAccounts.body, configs.body, webhooks.status === 200 ? webhooks.body : null) });
  });
  app.post('/api/connections', async (req, res) => relay(res, await agent(req, res)(auth, 'POST', `/v1/connections${protocolQuery(req)}`)));
  app.get('/api/partner-configs/:pageId', async (req, res) => relay(res, await agent(req, res)(ticketing, 'GET', `/v1/partner-configs/${param(req, 'pageId')}`)));
  app.put('/api/partner-configs/:pageId', async (req, res) => relay(res, await agent(req, res)(ticketing, 'PUT', `/v1/partner-configs/${param(req, 'pageId')}`, bodyOf(req))));
  app.get('/api/partner-configs/:pageId/search-queries', async (req, res) => relay(res, await agent(req, res)(ticketing, 'GET', `/v1/partner-configs/${param(req, 'pageId')}/search-queries`)));
  app.post('/api/partner-configs/:pageId/route-test', async (req, res) =>
    relay(res, await agent(req, res)(ticketing, 'POST', `/v1/partner-configs/${param(req, 'pageId')}/route-test`, bodyOf(req))),
  );
  app.post('/api/partner-configs/:pageId/order-reference-test', async (req, res) =>
    relay(res, await agent(req, res)(ticketing, 'POST', `/v1/partner-configs/${param(req, 'pageId')}/order-reference-test`, bodyOf(req))),
  );
}

/**
 * The agents and teams (auth's): whoever may read tickets lists them (the pickers); the Agents
 * page's changes are relayed as the signed-in agent too, so auth lets an admin only make them.
 */
export function agentRoutes(app: Express, { auth }: Upstreams, settings: SessionSettings): void {
  const call = (req: Request, res: Response, method: string, path: string, body?: unknown) => asAgent(req, res, settings)(auth, method, path, body);
  app.get('/api/agents', async (req, res) => relay(res, await call(req, res, 'GET', '/v1/agents')));
  app.post('/api/agents', async (req, res) => relay(res, await call(req, res, 'POST', '/v1/agents', bodyOf(req))));
  app.patch('/api/agents/:agentId', async (req, res) => relay(res, await call(req, res, 'PATCH', `/v1/agents/${param(req, 'agentId')}`, bodyOf(req))));
  app.put('/api/agents/:agentId/password', async (req, res) => relay(res, await call(req, res, 'PUT', `/v1/agents/${param(req, 'agentId')}/password`, bodyOf(req))));
  app.put('/api/me/password', async (req, res) => relay(res, await call(req, res, 'PUT', '/v1/me/password', bodyOf(req))));
  app.get('/api/teams', async (req, res) => relay(res, await call(req, res, 'GET', '/v1/teams')));
  app.put('/api/teams/:teamId', async (req, res) => relay(res, await call(req, res, 'PUT', `/v1/teams/${param(req, 'teamId')}`, bodyOf(req))));
}

const USAGE_FILTERS = ['accountId', 'from', 'to'];

/**
 * Usage and budgets (auth's metering of platform calls): what each account spent per day and
 * kind of call, its monthly budget, and whether the platform's credit is spent. auth decides who
 * may read and change them (usage and budgets are an admin's); the console relays as the agent.
 */
export function usageRoutes(app: Express, { auth }: Upstreams, settings: SessionSettings): void {
  const call = (req: Request, res: Response, method: string, path: string, body?: unknown) => asAgent(req, res, settings)(auth, method, path, body);
  app.get('/api/usage', async (req, res) => relay(res, await call(req, res, 'GET', `/v1/usage${ticketQuery(req, USAGE_FILTERS)}`)));
  // The CSV is a file the browser downloads (a plain link): relayed as text, not JSON.
  app.get('/api/usage.csv', async (req, res) => {
    const answer = await auth.download(req.session!.token, `/v1/usage.csv${ticketQuery(req, USAGE_FILTERS)}`);
    if (answer.status === 401) throw sessionEnded(res, settings, Boolean(req.session!.ticketId));
    if (answer.status >= 400) throw relayedRefusal(answer, 'upstream_refused', `auth refused the usage file (${answer.status})`);
    res.status(200).set({ 'content-type': answer.headers.get('content-type') ?? 'text/csv; charset=utf-8', 'content-disposition': answer.headers.get('content-disposition') ?? 'attachment; filename="usage.csv"', 'cache-control': 'no-store' });
    res.send(answer.text);
  });
  app.get('/api/accounts/:accountId/budget', async (req, res) => relay(res, await call(req, res, 'GET', `/v1/accounts/${param(req, 'accountId')}/budget`)));
  app.put('/api/accounts/:accountId/budget', async (req, res) => relay(res, await call(req, res, 'PUT', `/v1/accounts/${param(req, 'accountId')}/budget`, bodyOf(req))));
  app.delete('/api/accounts/:accountId/budget', async (req, res) => relay(res, await call(req, res, 'DELETE', `/v1/accounts/${param(req, 'accountId')}/budget`)));
  app.get('/api/app/status', async (req, res) => {
    res.set('cache-control', 'no-store');
    relay(res, await call(req, res, 'GET', '/v1/app/status'));
  });
  app.post('/api/app/credit-check', async (req, res) => relay(res, await call(req, res, 'POST', '/v1/app/credit-check')));
}

/** ticketing's Idempotency-Key, passed on so a retried reply or action is sent once. */
function idempotencyOf(req: Request): Record<string, string> {
  const key = req.get('idempotency-key');
  return key ? { 'idempotency-key': key } : {};
}

const PROFILE_TTL_MS = 5 * 60_000;
const PROFILE_CACHE_SIZE = 500;

/**
 * The platform's profiles of customers, kept a few minutes: the sidebar asks on every ticket
 * opened, and each lookup spends the account's platform rate limit. Only answers auth gave for
 * a ticket the agent was allowed to read are kept.
 */
export class ProfileCache {
  private readonly entries = new Map<string, { at: number; answer: UpstreamAnswer }>();
  constructor(private readonly now: () => number = Date.now) {}

  get(key: string): UpstreamAnswer | null {
    const entry = this.entries.get(key);
    if (!entry || this.now() - entry.at > PROFILE_TTL_MS) return null;
    return entry.answer;
  }

  set(key: string, answer: UpstreamAnswer): void {
    if (this.entries.size >= PROFILE_CACHE_SIZE) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { at: this.now(), answer });
  }
}

/** Tickets: list, the views' counts, detail, replies, changes, notes, merges, the linked order and its live view. */
export function ticketRoutes(app: Express, { ticketing, auth }: Upstreams, settings: SessionSettings, profiles = new ProfileCache()): void {
  const ticketPath = (req: Request, rest = '') => `/v1/tickets/${param(req, 'id')}${rest}`;
  const call = (req: Request, res: Response, method: string, path: string, body?: unknown, headers?: Record<string, string>) => asAgent(req, res, settings)(ticketing, method, path, body, headers);
  app.get('/api/tickets', async (req, res) => relay(res, await call(req, res, 'GET', `/v1/tickets${ticketQuery(req)}`)));
  app.get('/api/ticket-counts', async (req, res) => relay(res, await call(req, res, 'GET', `/v1/ticket-counts${ticketQuery(req, ['accountId'])}`)));
  app.get('/api/tickets/:id', async (req, res) => relay(res, await call(req, res, 'GET', ticketPath(req))));
  app.patch('/api/tickets/:id', async (req, res) => relay(res, await call(req, res, 'PATCH', ticketPath(req), bodyOf(req))));
  app.post('/api/tickets/:id/replies', async (req, res) => relay(res, await call(req, res, 'POST', ticketPath(req, '/replies'), bodyOf(req), idempotencyOf(req))));
  app.post('/api/tickets/:id/notes', async (req, res) => relay(res, await call(req, res, 'POST', ticketPath(req, '/notes'), bodyOf(req))));
  // An image for a DM reply: uploaded to the platform through auth as the ticket's account (the agent reads the ticket first).
  app.post('/api/tickets/:id/media', async (req, res) => {
    const body = bodyOf(req);
    const ticket = await call(req, res, 'GET', ticketPath(req));
    if (ticket.status !== 200) return relay(res, ticket);
    const { accountId } = ticket.body as { accountId: string };
    const answer = await asAgent(req, res, settings)(auth, 'POST', `/v1/accounts/${encodeURIComponent(accountId)}/media`, body, idempotencyOf(req));
    if (answer.status !== 200) return relay(res, answer);
    res.json({ mediaId: (answer.body as { platformId: string }).platformId });
  });
  // Who is on the ticket (viewing, typing, left): ticketing tells every event stream that hears it.
  app.put('/api/tickets/:id/presence', async (req, res) => relay(res, await call(req, res, 'PUT', ticketPath(req, '/presence'), bodyOf(req))));
  app.post('/api/tickets/:id/merge', async (req, res) => relay(res, await call(req, res, 'POST', ticketPath(req, '/merge'), bodyOf(req))));
  app.post('/api/tickets/:id/actions', async (req, res) => relay(res, await call(req, res, 'POST', ticketPath(req, '/actions'), bodyOf(req), idempotencyOf(req))));
  app.post('/api/tickets/:id/unmerge', async (req, res) => relay(res, await call(req, res, 'POST', ticketPath(req, '/unmerge'), bodyOf(req))));
  // The sidebar's customer profile: the platform's, through auth, for the account the ticket belongs to.
  app.get('/api/tickets/:id/customer', async (req, res) => {
    const ticket = await call(req, res, 'GET', ticketPath(req));
    if (ticket.status !== 200) return relay(res, ticket);
    const { accountId, contact } = ticket.body as { accountId: string; contact: { screenName?: string | null } | null };
    if (!contact?.screenName) throw new Refusal('not_found', 'no_customer_profile', 'this ticket names no customer on the platform');
    const key = `${accountId}:${contact.screenName.toLowerCase()}`;
    const cached = profiles.get(key);
    if (cached) return relay(res, cached);
    const answer = await asAgent(req, res, settings)(auth, 'GET', `/v1/accounts/${encodeURIComponent(accountId)}/users/${encodeURIComponent(contact.screenName)}`);
    if (answer.status === 200) profiles.set(key, answer);
    relay(res, answer);
  });
  app.put('/api/tickets/:id/order', async (req, res) => relay(res, await call(req, res, 'PUT', ticketPath(req, '/order'), bodyOf(req))));
  app.delete('/api/tickets/:id/order', async (req, res) => relay(res, await call(req, res, 'DELETE', ticketPath(req, '/order'))));
  // The map pop-up: ticketing answers the live view of the ticket's own order, checked against the agent's rights.
  app.get('/api/tickets/:id/order/live', async (req, res) => {
    res.set('cache-control', 'no-store');
    relay(res, await call(req, res, 'GET', ticketPath(req, '/order/live')));
  });
}
