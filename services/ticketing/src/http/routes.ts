import type { Express, RequestHandler } from 'express';
import { principalOf, whoAmI } from '@crm/access';
import type { ActorDirectory } from '../adapters/db/actors';
import type { LiveEvents } from '../operations/live-events';
import type { Merges } from '../operations/merges';
import type { Presence } from '../operations/presence';
import type { TicketActions } from '../operations/ticket-actions';
import type { TicketChanges } from '../operations/ticket-changes';
import type { WebhookEndpoints } from '../operations/webhooks';
import { accountRoutes, partnerConfigRoutes, type AccountRouteDeps } from './account-routes';
import { contactRoutes } from './contact-routes';
import { domainErrors } from './errors';
import { eventStreamRoute, type EventStreams } from './live-routes';
import { presenceRoute } from './presence-routes';
import { TicketReach } from './reach';
import { mountRoutes, type Route } from './route-table';
import { bulkChangeRoute, ticketChangeRoutes } from './ticket-change-routes';
import { ticketListRoutes, ticketRoutes, ticketShower, type TicketRouteDeps } from './ticket-routes';
import { webhookRoutes } from './webhook-routes';

export interface RouteDeps extends TicketRouteDeps, AccountRouteDeps {
  /** Authentication, rate limit and audit (`accessControl` of @crm/access), mounted on /v1. */
  access: RequestHandler[];
  /** The names of the principals that write, remembered before each write for the timeline. */
  actors: ActorDirectory;
  changes: TicketChanges;
  merges: Merges;
  actions: TicketActions;
  presence: Presence;
  webhookEndpoints: WebhookEndpoints;
  /** Committed changes as event streams hear them, and the streams open in this process. */
  live: LiveEvents;
  streams: EventStreams;
}

/**
 * Every route of the API with the scope it needs: the one list. A session limited to tickets
 * (a launch link) reaches the routes marked `ticketLimited` only; a route naming a ticket
 * (`reach.ticket`) is answered 404 for a ticket the caller may not reach.
 */
function routeTable(deps: RouteDeps): Route[] {
  const reach = new TicketReach(deps.store);
  const showTicket = ticketShower(deps);
  const list = ticketListRoutes(deps);
  const ticket = ticketRoutes(deps, showTicket);
  const change = ticketChangeRoutes({ ...deps, showTicket, reach });
  const contacts = contactRoutes(deps.store);
  const configs = partnerConfigRoutes(deps);
  const accounts = accountRoutes(deps);
  const webhooks = webhookRoutes(deps.webhookEndpoints);
  return [
    { method: 'get', path: '/v1/me', scope: null, ticketLimited: true, handler: whoAmI },
    { method: 'get', path: '/v1/tickets', scope: 'tickets:read', handler: list.list },
    { method: 'patch', path: '/v1/tickets', scope: 'tickets:write', handler: bulkChangeRoute({ ...deps, showTicket, reach }) },
    // The workspace's views: not under /v1/tickets/, whose paths name one ticket.
    { method: 'get', path: '/v1/ticket-counts', scope: 'tickets:read', handler: list.counts },
    { method: 'get', path: '/v1/tickets/:id', scope: 'tickets:read', ticketLimited: true, handler: reach.ticket(ticket.show) },
    { method: 'patch', path: '/v1/tickets/:id', scope: 'tickets:write', ticketLimited: true, handler: reach.ticket(change.change) },
    { method: 'post', path: '/v1/tickets/:id/replies', scope: 'tickets:write', ticketLimited: true, handler: reach.ticket(ticket.reply) },
    { method: 'put', path: '/v1/tickets/:id/order', scope: 'tickets:write', ticketLimited: true, handler: reach.ticket(ticket.linkOrder) },
    { method: 'delete', path: '/v1/tickets/:id/order', scope: 'tickets:write', ticketLimited: true, handler: reach.ticket(ticket.unlinkOrder) },
    { method: 'get', path: '/v1/tickets/:id/order/live', scope: 'tickets:read', ticketLimited: true, handler: reach.ticket(ticket.liveOrder) },
    // Saying one is looking at a ticket (or typing) changes nothing: whoever may read it may.
    { method: 'put', path: '/v1/tickets/:id/presence', scope: 'tickets:read', ticketLimited: true, handler: reach.ticket(presenceRoute(deps.presence)) },
    { method: 'post', path: '/v1/tickets/:id/notes', scope: 'tickets:write', ticketLimited: true, handler: reach.ticket(change.addNote) },
    { method: 'post', path: '/v1/tickets/:id/merge', scope: 'tickets:write', ticketLimited: true, handler: reach.ticket(change.merge) },
    { method: 'post', path: '/v1/tickets/:id/unmerge', scope: 'tickets:write', ticketLimited: true, handler: reach.ticket(change.unmerge) },
    { method: 'post', path: '/v1/tickets/:id/actions', scope: 'tickets:write', ticketLimited: true, handler: reach.ticket(change.requestAction) },
    { method: 'get', path: '/v1/events', scope: 'tickets:read', ticketLimited: true, handler: eventStreamRoute(deps.live, deps.streams) },
    // Webhook endpoints hear every account's events: admin only.
    { method: 'post', path: '/v1/webhook-endpoints', scope: 'admin', handler: webhooks.register },
    { method: 'get', path: '/v1/webhook-endpoints', scope: 'admin', handler: webhooks.list },
    { method: 'get', path: '/v1/webhook-endpoints/:id', scope: 'admin', handler: webhooks.show },
    { method: 'delete', path: '/v1/webhook-endpoints/:id', scope: 'admin', handler: webhooks.remove },
    { method: 'get', path: '/v1/webhook-endpoints/:id/failures', scope: 'admin', handler: webhooks.failures },
    { method: 'post', path: '/v1/webhook-endpoints/:id/replay', scope: 'admin', handler: webhooks.replay },
    { method: 'get', path: '/v1/contacts', scope: 'tickets:read', handler: contacts.list },
    { method: 'get', path: '/v1/contacts/:id', scope: 'tickets:read', handler: contacts.show },
    { method: 'get', path: '/v1/partner-configs', scope: 'tickets:read', handler: configs.list },
    { method: 'get', path: '/v1/partner-configs/:pageId', scope: 'tickets:read', handler: configs.show },
    { method: 'put', path: '/v1/partner-configs/:pageId', scope: 'accounts:manage', handler: configs.save },
    // Trying rules on a sample changes nothing of the configuration.
    { method: 'post', path: '/v1/partner-configs/:pageId/route-test', scope: 'tickets:write', handler: configs.testRouting },
    { method: 'post', path: '/v1/partner-configs/:pageId/order-reference-test', scope: 'tickets:write', handler: configs.testOrderReferences },
    { method: 'get', path: '/v1/partner-configs/:pageId/search-queries', scope: 'tickets:read', handler: configs.searchQueries },
    { method: 'get', path: '/v1/held-deliveries', scope: 'accounts:manage', handler: accounts.held },
    { method: 'get', path: '/v1/accounts', scope: 'tickets:read', handler: accounts.list },
    { method: 'get', path: '/v1/accounts/:accountId', scope: 'tickets:read', handler: accounts.show },
  ];
}

/** The CRM-facing API of ticketing: authentication on /v1, then every route after what it declares it needs. */
export function ticketingRoutes(deps: RouteDeps): (app: Express) => void {
  // Before any write: the principal's name, so the timeline names who made each entry.
  const rememberActor: RequestHandler = async (req, _res, next) => {
    const { id, grant } = principalOf(req);
    await deps.actors.remember(id, grant.name);
    next();
  };
  return (app) => {
    app.use('/v1', ...deps.access);
    mountRoutes(app, routeTable(deps), rememberActor);
    app.use(domainErrors());
  };
}
