import type { Express, Request, Response } from 'express';
import { HttpError } from '@crm/http';
import type { Upstream, UpstreamAnswer } from '../adapters/upstream';
import { mergeAccounts } from '../domain/accounts';

export interface Upstreams {
  ticketing: Upstream;
  auth: Upstream;
  tracking: Upstream;
}

const ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** A path parameter checked before it goes into another service's URL. */
function param(req: Request, name: string): string {
  const value = req.params[name];
  if (typeof value !== 'string' || !ID.test(value)) throw new HttpError(400, 'invalid_parameter', `\`${name}\` must be 1-128 of A-Z a-z 0-9 . _ : -`);
  return encodeURIComponent(value);
}

/** Relays a service's answer: its status and JSON body (errors keep `{"error":{"code","message"}}`). */
function relay(res: Response, answer: UpstreamAnswer): void {
  if (answer.status === 204) {
    res.status(204).end();
    return;
  }
  const retryAfter = answer.headers.get('retry-after');
  if (retryAfter) res.set('retry-after', retryAfter);
  res.status(answer.status).json(answer.body ?? {});
}

function bodyOf(req: Request): unknown {
  if (!req.is('application/json')) throw new HttpError(415, 'unsupported_media_type', 'send a JSON body (content-type: application/json)');
  return req.body;
}

const TICKET_FILTERS = ['accountId', 'queue', 'folder', 'status', 'q', 'cursor', 'limit'];

function ticketQuery(req: Request): string {
  const query = new URLSearchParams();
  for (const key of TICKET_FILTERS) {
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
  if (typeof protocol !== 'string' || !PROTOCOLS.includes(protocol)) throw new HttpError(400, 'invalid_parameter', '`protocol` must be oauth1 or oauth2');
  return `?protocol=${protocol}`;
}

/** Accounts, connections and partner configurations (the configuration page). */
export function configurationRoutes(app: Express, { ticketing, auth }: Upstreams): void {
  app.get('/api/accounts', async (_req, res) => {
    const [authAccounts, ticketingAccounts, configs, webhooks] = await Promise.all([
      auth.call('GET', '/v1/accounts'),
      ticketing.call('GET', '/v1/accounts'),
      ticketing.call('GET', '/v1/partner-configs'),
      auth.call('GET', '/v1/webhooks'),
    ]);
    for (const answer of [authAccounts, ticketingAccounts, configs]) if (answer.status !== 200) return relay(res, answer);
    res.json({ items: mergeAccounts(authAccounts.body, ticketingAccounts.body, configs.body, webhooks.status === 200 ? webhooks.body : null) });
  });
  app.post('/api/connections', async (req, res) => relay(res, await auth.call('POST', `/v1/connections${protocolQuery(req)}`)));
  app.get('/api/partner-configs/:pageId', async (req, res) => relay(res, await ticketing.call('GET', `/v1/partner-configs/${param(req, 'pageId')}`)));
  app.put('/api/partner-configs/:pageId', async (req, res) => relay(res, await ticketing.call('PUT', `/v1/partner-configs/${param(req, 'pageId')}`, bodyOf(req))));
  app.post('/api/partner-configs/:pageId/route-test', async (req, res) => {
    const answer = await ticketing.call('POST', `/v1/partner-configs/${param(req, 'pageId')}/route-test`, bodyOf(req));
    if (answer.status === 404 && (answer.body as { error?: { code?: string } } | null)?.error?.code === 'not_found') {
      throw new HttpError(501, 'route_test_unavailable', 'the rule tester is not available: ticketing has no route-test endpoint yet');
    }
    relay(res, answer);
  });
}

/** Tickets: list, detail, replies, changes, notes, merges, the linked order. */
export function ticketRoutes(app: Express, { ticketing }: Upstreams): void {
  const ticketPath = (req: Request, rest = '') => `/v1/tickets/${param(req, 'id')}${rest}`;
  app.get('/api/tickets', async (req, res) => relay(res, await ticketing.call('GET', `/v1/tickets${ticketQuery(req)}`)));
  app.get('/api/tickets/:id', async (req, res) => relay(res, await ticketing.call('GET', ticketPath(req))));
  app.patch('/api/tickets/:id', async (req, res) => relay(res, await ticketing.call('PATCH', ticketPath(req), bodyOf(req))));
  app.post('/api/tickets/:id/replies', async (req, res) => relay(res, await ticketing.call('POST', ticketPath(req, '/replies'), bodyOf(req))));
  app.post('/api/tickets/:id/notes', async (req, res) => relay(res, await ticketing.call('POST', ticketPath(req, '/notes'), bodyOf(req))));
  app.post('/api/tickets/:id/merge', async (req, res) => relay(res, await ticketing.call('POST', ticketPath(req, '/merge'), bodyOf(req))));
  app.put('/api/tickets/:id/order', async (req, res) => relay(res, await ticketing.call('PUT', ticketPath(req, '/order'), bodyOf(req))));
  app.delete('/api/tickets/:id/order', async (req, res) => relay(res, await ticketing.call('DELETE', ticketPath(req, '/order'))));
}

/** The map pop-up's live view. */
export function trackingRoutes(app: Express, { tracking }: Upstreams): void {
  app.get('/api/tracking/clients/:clientId/tasks/:taskId/live', async (req, res) => {
    res.set('cache-control', 'no-store');
    relay(res, await tracking.call('GET', `/v1/clients/${param(req, 'clientId')}/tasks/${param(req, 'taskId')}/live`));
  });
}
