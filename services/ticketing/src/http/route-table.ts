import type { Express, RequestHandler } from 'express';
import { principalOf, requireScope } from '@crm/access';
import type { Scope } from '@crm/contracts';
import { Refusal } from '@crm/http';

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** One endpoint of the API with what a principal needs to reach it, declared beside its handler. */
export interface Route {
  method: Method;
  /** Express's form of the OpenAPI document's path (`:id` for `{id}`). */
  path: string;
  /** The scope the request needs; null: any valid token. */
  scope: Scope | null;
  /**
   * Whether a session limited to tickets (a launch link) reaches it; any other route answers it
   * 403 `outside_ticket_scope`. A route naming a ticket reaches only the session's own (`TicketReach`).
   */
  ticketLimited?: true;
  handler: RequestHandler;
}

const WRITES: ReadonlySet<Method> = new Set(['post', 'put', 'patch', 'delete']);

const outsideTicketScope: RequestHandler = (req, _res, next) => {
  if (principalOf(req).ticketIds !== null) throw new Refusal('forbidden', 'outside_ticket_scope', 'this session was opened for one ticket and reaches only that ticket and the event stream');
  next();
};

/**
 * Mounts each route on the app after what it declares: first whether a ticket-limited session
 * reaches it (403), then its scope (403 `missing_scope`), then, before a write, `beforeWrite`.
 */
export function mountRoutes(app: Express, routes: readonly Route[], beforeWrite: RequestHandler): void {
  for (const route of routes) {
    const guards: RequestHandler[] = [];
    if (!route.ticketLimited) guards.push(outsideTicketScope);
    if (route.scope !== null) guards.push(requireScope(route.scope));
    if (WRITES.has(route.method)) guards.push(beforeWrite);
    app[route.method](route.path, ...guards, route.handler);
  }
}
