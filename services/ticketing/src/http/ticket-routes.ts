import type { RequestHandler } from 'express';
import { principalOf, type Principal } from '@crm/access';
import type { TicketingStore } from '../adapters/db/store';
import type { TicketRow } from '../adapters/db/ticket-queries';
import type { OrderRow } from '../adapters/db/ticket-orders';
import { TicketNotFound } from '../operations/errors';
import type { OrderLinks } from '../operations/link-order';
import type { TicketList } from '../operations/list-tickets';
import type { Replies } from '../operations/send-reply';
import { encodeCursor } from './cursor';
import { idempotencyKeyOf, markReplayed } from './idempotency';
import { parseTicketListQuery, platformIdParam } from './params';
import { activityJson, orderAsUnknownClient, orderJson, orderOf, ticketJson, type TicketView } from './presenters';
import { visibleAccounts, type TicketHandler } from './reach';

export interface TicketRouteDeps {
  store: TicketingStore;
  /** Agents' replies from tickets. */
  replies: Pick<Replies, 'send'>;
  /** Tickets linked to orders, and tracking's availability for them. */
  orderLinks: Pick<OrderLinks, 'link' | 'unlink' | 'current' | 'liveView'>;
  view: TicketView;
  /** The ticket list and its searches. */
  ticketList: Pick<TicketList, 'page'>;
}

/** The next page of tickets, in the order of the list. */
const nextTicketCursor = (more: boolean, last: TicketRow | undefined, order: 'lastActivity' | undefined) =>
  more && last ? encodeCursor(order === 'lastActivity' ? { createdAt: last.last_activity_key, id: last.id, order } : { createdAt: last.created_at_key, id: last.id }) : null;

/** A ticket as `GET /v1/tickets/:id` shows it to `viewer`. */
export type TicketShower = (id: string, viewer: Principal) => Promise<unknown>;

/**
 * Whether the viewer may see what tracking says of an order of this client: a session limited
 * to tickets sees its tickets' orders; any other needs the tracking client.
 */
const seesTrackingOf = (viewer: Principal, clientId: string) => viewer.ticketIds !== null || viewer.allowsTrackingClient(clientId);

/** The order as the viewer is shown it: a client it may not see as tracking answers an unknown one (and tracking is not asked). */
function orderShown(viewer: Principal, order: OrderRow | null): OrderRow | null {
  return order && !seesTrackingOf(viewer, order.client_id) ? orderAsUnknownClient(order) : order;
}

/** A ticket as `GET /v1/tickets/:id` shows it: with its order (checked again when old) and timeline. */
export function ticketShower(deps: Pick<TicketRouteDeps, 'store' | 'orderLinks' | 'view'>): TicketShower {
  const queries = deps.store.read.tickets;
  return async (id, viewer) => {
    const ticket = await queries.ticket(id);
    if (!ticket) throw new TicketNotFound(id);
    const stored = orderOf(ticket);
    const shown = orderShown(viewer, stored);
    const [order, activities] = await Promise.all([shown === stored ? deps.orderLinks.current(ticket.id, stored) : shown, queries.ticketActivities(ticket.id)]);
    return { ...ticketJson(ticket, deps.view, order), activities: activities.map(activityJson) };
  };
}

/** The ticket list and the workspace's counts. */
export function ticketListRoutes(deps: TicketRouteDeps): { list: RequestHandler; counts: RequestHandler } {
  return {
    list: async (req, res) => {
      const viewer = principalOf(req);
      const filter = parseTicketListQuery(req.query as Record<string, unknown>, viewer.id);
      const { rows, more } = await deps.ticketList.page({ ...filter, ...visibleAccounts(req, filter.accountId) }, viewer.id);
      res.json({ items: rows.map((row) => ticketJson(row, deps.view, orderShown(viewer, orderOf(row)))), nextCursor: nextTicketCursor(more, rows.at(-1), filter.order) });
    },
    counts: async (req, res) => {
      const accountId = platformIdParam(req.query as Record<string, unknown>, 'accountId');
      res.json(await deps.store.read.tickets.counts({ ...visibleAccounts(req, accountId), me: principalOf(req).id }));
    },
  };
}

/** One ticket: shown, replied on, linked to an order, and that order's live map. */
export function ticketRoutes(deps: TicketRouteDeps, showTicket: TicketShower): Record<'show' | 'reply' | 'linkOrder' | 'liveOrder' | 'unlinkOrder', TicketHandler> {
  return {
    show: async (id, req, res) => {
      res.json(await showTicket(id, principalOf(req)));
    },
    reply: async (id, req, res) => {
      const { activityId, replayed } = await deps.replies.send(id, req.body, idempotencyKeyOf(req), principalOf(req).id);
      markReplayed(res, replayed);
      res.status(202).json({ activityId, status: 'pending' });
    },
    linkOrder: async (id, req, res) => {
      const principal = principalOf(req);
      res.json(orderJson(await deps.orderLinks.link(id, req.body, (clientId) => principal.allowsTrackingClient(clientId), principal.id), deps.view));
    },
    // The console's map (who sees it: `seesTrackingOf`).
    liveOrder: async (id, req, res) => {
      const principal = principalOf(req);
      res.json(await deps.orderLinks.liveView(id, (clientId) => seesTrackingOf(principal, clientId)));
    },
    unlinkOrder: async (id, req, res) => {
      await deps.orderLinks.unlink(id, principalOf(req).id);
      res.status(204).end();
    },
  };
}
