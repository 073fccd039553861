import type { Express, Request, RequestHandler, Response } from 'express';
import { principalOf, type Principal } from '@crm/access';
import type { TicketingStore } from '../adapters/db/store';
import { isUuid } from '../domain/ids';
import { AccountNotFound, ContactNotFound, PartnerConfigNotFound, TicketNotFound } from '../operations/errors';
import type { OrderLinks } from '../operations/link-order';
import type { TicketList } from '../operations/list-tickets';
import { savePartnerConfig, type SavePartnerConfigDeps } from '../operations/save-partner-config';
import type { SearchQueries } from '../operations/search-queries';
import type { Replies } from '../operations/send-reply';
import { mountAccessRules, visibleAccounts } from './access-rules';
import { encodeCursor, encodeIdCursor } from './cursor';
import { domainErrors } from './errors';
import { idempotencyKeyOf, markReplayed } from './idempotency';
import { parseContactListQuery, parseHeldListQuery, parseTicketListQuery, platformIdParam } from './params';
import type { TicketRow } from '../adapters/db/ticket-queries';
import { searchQueryRoutes } from './search-query-routes';
import type { OrderRow } from '../adapters/db/ticket-orders';
import { accountJson, activityJson, contactJson, heldCountJson, heldExpiredJson, heldJson, orderAsUnknownClient, orderJson, orderOf, partnerConfigJson, ticketJson, type TicketView } from './presenters';

export interface RouteDeps {
  store: TicketingStore;
  /** Authentication, rate limit and audit (`accessControl` of @crm/access), mounted on /v1. */
  access: RequestHandler[];
  /** Saving a partner configuration (and releasing what it unblocks). */
  partnerConfigs: SavePartnerConfigDeps;
  /** Agents' replies from tickets. */
  replies: Pick<Replies, 'send'>;
  /** Tickets linked to orders, and tracking's availability for them. */
  orderLinks: Pick<OrderLinks, 'link' | 'unlink' | 'current' | 'liveView'>;
  /** The state of each account's search queries. */
  searchQueries: Pick<SearchQueries, 'states'>;
  view: TicketView;
  /** The ticket list and its searches. */
  ticketList: Pick<TicketList, 'page'>;
  /** A ticket's life: changes, notes, merges, live events, webhooks, actions (given how a ticket is shown). */
  life?: (showTicket: TicketShower) => (app: Express) => void;
}

/** How many timeline entries a contact's page shows (the newest). */
const CONTACT_TIMELINE_LIMIT = 500;

function ticketIdOf(req: Request<{ id: string }>): string {
  const { id } = req.params;
  if (!isUuid(id)) throw new TicketNotFound(id);
  return id;
}

const nextCursor = (more: boolean, last: { created_at_key: string; id: string } | undefined) => (more && last ? encodeCursor({ createdAt: last.created_at_key, id: last.id }) : null);

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
function ticketShower(deps: RouteDeps): TicketShower {
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

function ticketRoutes(app: Express, deps: RouteDeps): void {
  app.get('/v1/tickets', async (req: Request, res: Response) => {
    const viewer = principalOf(req);
    const filter = parseTicketListQuery(req.query as Record<string, unknown>, viewer.id);
    const { rows, more } = await deps.ticketList.page({ ...filter, ...visibleAccounts(req, filter.accountId) }, viewer.id);
    res.json({ items: rows.map((row) => ticketJson(row, deps.view, orderShown(viewer, orderOf(row)))), nextCursor: nextTicketCursor(more, rows.at(-1), filter.order) });
  });

  // The workspace's views: not under /v1/tickets/, whose paths name one ticket.
  app.get('/v1/ticket-counts', async (req: Request, res: Response) => {
    const accountId = platformIdParam(req.query as Record<string, unknown>, 'accountId');
    res.json(await deps.store.read.tickets.counts({ ...visibleAccounts(req, accountId), me: principalOf(req).id }));
  });

  const showTicket = ticketShower(deps);
  app.get('/v1/tickets/:id', async (req: Request<{ id: string }>, res: Response) => {
    res.json(await showTicket(ticketIdOf(req), principalOf(req)));
  });

  app.post('/v1/tickets/:id/replies', async (req: Request<{ id: string }>, res: Response) => {
    const { activityId, replayed } = await deps.replies.send(ticketIdOf(req), req.body, idempotencyKeyOf(req), principalOf(req).id);
    markReplayed(res, replayed);
    res.status(202).json({ activityId, status: 'pending' });
  });

  app.put('/v1/tickets/:id/order', async (req: Request<{ id: string }>, res: Response) => {
    const principal = principalOf(req);
    res.json(orderJson(await deps.orderLinks.link(ticketIdOf(req), req.body, (clientId) => principal.allowsTrackingClient(clientId)), deps.view));
  });

  // The console's map (who sees it: `seesTrackingOf`).
  app.get('/v1/tickets/:id/order/live', async (req: Request<{ id: string }>, res: Response) => {
    const principal = principalOf(req);
    res.json(await deps.orderLinks.liveView(ticketIdOf(req), (clientId) => seesTrackingOf(principal, clientId)));
  });

  app.delete('/v1/tickets/:id/order', async (req: Request<{ id: string }>, res: Response) => {
    await deps.orderLinks.unlink(ticketIdOf(req));
    res.status(204).end();
  });
}

function contactRoutes(app: Express, { store }: RouteDeps): void {
  app.get('/v1/contacts', async (req: Request, res: Response) => {
    const filter = parseContactListQuery(req.query as Record<string, unknown>);
    const { rows, more } = await store.read.tickets.contacts({ ...filter, ...visibleAccounts(req, filter.accountId) });
    res.json({ items: rows.map(contactJson), nextCursor: nextCursor(more, rows.at(-1)) });
  });

  app.get('/v1/contacts/:id', async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    const contact = isUuid(id) ? await store.read.tickets.contact(id) : null;
    if (!contact || !principalOf(req).allowsAccount(contact.account_id)) throw new ContactNotFound(id);
    res.json({ ...contactJson(contact), timeline: (await store.read.tickets.contactTimeline(contact.id, CONTACT_TIMELINE_LIMIT)).map(activityJson) });
  });
}

function partnerConfigRoutes(app: Express, deps: RouteDeps): void {
  const { read } = deps.store;
  app.get('/v1/partner-configs', async (req: Request, res: Response) => {
    const principal = principalOf(req);
    res.json({ items: (await read.partnerConfigs.rows()).filter((row) => principal.allowsAccount(row.page_id)).map(partnerConfigJson) });
  });

  app.get('/v1/partner-configs/:pageId', async (req: Request<{ pageId: string }>, res: Response) => {
    const pageId = platformIdParam(req.params, 'pageId')!;
    const row = await read.partnerConfigs.row(pageId);
    if (!row) throw new PartnerConfigNotFound(pageId);
    res.json(partnerConfigJson(row));
  });

  app.put('/v1/partner-configs/:pageId', async (req: Request<{ pageId: string }>, res: Response) => {
    const { created, row } = await savePartnerConfig(deps.partnerConfigs, platformIdParam(req.params, 'pageId')!, req.body);
    res.status(created ? 201 : 200).json(partnerConfigJson(row));
  });

  app.get('/v1/held-deliveries', async (req: Request, res: Response) => {
    const filter = parseHeldListQuery(req.query as Record<string, unknown>);
    // A credential limited to some accounts names one of its own: held deliveries of others are not its to see.
    if (principalOf(req).accountIds !== null && (filter.accountId === undefined || !principalOf(req).allowsAccount(filter.accountId))) throw new AccountNotFound(filter.accountId ?? '(none given)');
    const [{ rows, more }, counts, expired] = await Promise.all([read.held.list(filter), read.held.count(filter.accountId), read.held.expired(filter.accountId)]);
    const last = rows.at(-1);
    res.json({ accounts: counts.map(heldCountJson), expired: expired.map(heldExpiredJson), items: rows.map(heldJson), nextCursor: more && last ? encodeIdCursor(last.id) : null });
  });
}

function accountRoutes(app: Express, { store }: RouteDeps): void {
  app.get('/v1/accounts', async (req: Request, res: Response) => {
    const principal = principalOf(req);
    res.json({ items: (await store.read.accounts.list()).filter((account) => principal.allowsAccount(account.account_id)).map(accountJson) });
  });

  app.get('/v1/accounts/:accountId', async (req: Request<{ accountId: string }>, res: Response) => {
    const accountId = platformIdParam(req.params, 'accountId')!;
    const account = await store.read.accounts.find(accountId);
    if (!account) throw new AccountNotFound(accountId);
    res.json(accountJson(account));
  });
}

/** The CRM-facing API of ticketing; every /v1 route needs an API credential with the scope the request needs. */
export function ticketingRoutes(deps: RouteDeps): (app: Express) => void {
  return (app) => {
    mountAccessRules(app, deps.access, deps.store);
    ticketRoutes(app, deps);
    contactRoutes(app, deps);
    partnerConfigRoutes(app, deps);
    searchQueryRoutes(app, deps);
    accountRoutes(app, deps);
    deps.life?.(ticketShower(deps))(app);
    app.use(domainErrors());
  };
}
