import type { Express, Request, RequestHandler } from 'express';
import { principalOf, requireScope, whoAmI, type Principal } from '@crm/access';
import { Refusal } from '@crm/http';
import { ActorDirectory } from '../adapters/db/actors';
import type { TicketingStore } from '../adapters/db/store';
import { isUuid } from '../domain/ids';
import { AccountNotFound, PartnerConfigNotFound, TicketNotFound } from '../operations/errors';

/**
 * Which scope a /v1 request needs: webhook endpoints (every account's events) `admin`;
 * partner configurations and held deliveries `accounts:manage` to change; every other change
 * `tickets:write`; reading `tickets:read`.
 */
function scopeFor(req: Request): RequestHandler {
  if (req.path.startsWith('/webhook-endpoints')) return requireScope('admin');
  // Saying one is looking at a ticket (or typing) changes nothing: whoever may read it may.
  if (PRESENCE_PATH.test(req.path)) return requireScope('tickets:read');
  if (req.method === 'GET' || req.method === 'HEAD') return req.path.startsWith('/held-deliveries') ? requireScope('accounts:manage') : requireScope('tickets:read');
  if (req.path.startsWith('/partner-configs') && !req.path.endsWith('/route-test')) return requireScope('accounts:manage');
  return requireScope('tickets:write');
}

const PRESENCE_PATH = /^\/tickets\/[^/]+\/presence$/;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The account of a ticket, for the visibility checks; null when there is no such ticket. */
async function accountOfTicket(store: TicketingStore, id: unknown): Promise<string | null> {
  if (typeof id !== 'string' || !isUuid(id)) return null;
  return (await store.read.tickets.ticket(id))?.account_id ?? null;
}

/**
 * Every ticket named must be one the principal may reach, else 404 as if it did not exist: for
 * a ticket-limited principal (a launch session) one of its tickets; for any other, a ticket of
 * an account it may see.
 */
async function requireVisibleTickets(store: TicketingStore, principal: Principal, ids: unknown[]): Promise<void> {
  for (const id of ids) {
    if (principal.ticketIds !== null) {
      if (!principal.allowsTicket(String(id))) throw new TicketNotFound(String(id));
      continue;
    }
    if (principal.accountIds === null) continue;
    const accountId = await accountOfTicket(store, id);
    if (accountId !== null && !principal.allowsAccount(accountId)) throw new TicketNotFound(String(id));
  }
}

/**
 * A ticket-limited principal reaches `GET /v1/events` and `/v1/tickets/:id` with its
 * sub-routes (which ticket: `requireVisibleTickets`); anything else is 403.
 */
const TICKET_LIMITED_REACH = [/^\/events$/, /^\/tickets\/[^/]+(\/.*)?$/];

function requireTicketScope(req: Request): void {
  if (principalOf(req).ticketIds === null) return;
  const reached = TICKET_LIMITED_REACH.some((path) => path.test(req.path)) && (req.method === 'GET' || req.method === 'HEAD' || !req.path.startsWith('/events'));
  if (!reached) throw new Refusal('forbidden', 'outside_ticket_scope', 'this session was opened for one ticket and reaches only that ticket and the event stream');
}

const idsIn = (body: unknown, field: 'ids' | 'sourceIds'): unknown[] => {
  const value = (body as Record<string, unknown> | null)?.[field];
  return Array.isArray(value) ? value : [];
};

/**
 * Mounts what API credentials allow on /v1, before the routes: authentication (`access`), the
 * scope each request needs, and account limits: a ticket, partner configuration or account of
 * another account is answered 404, as if it did not exist. Lists filter by `visibleAccounts`.
 */
export function mountAccessRules(app: Express, access: RequestHandler[], store: TicketingStore): void {
  app.use('/v1', ...access);
  app.get('/v1/me', whoAmI);
  app.use('/v1', (req, res, next) => {
    requireTicketScope(req);
    scopeFor(req)(req, res, next);
  });
  // Before any write: the principal's name, so the timeline names who made each entry.
  const actors = new ActorDirectory(store.pool);
  app.use('/v1', async (req, _res, next) => {
    const { id, grant } = principalOf(req);
    if (WRITES.has(req.method)) await actors.remember(id, grant.name);
    next();
  });
  app.use('/v1/tickets/:id', async (req, _res, next) => {
    await requireVisibleTickets(store, principalOf(req), [req.params.id, ...idsIn(req.body, 'sourceIds')]);
    next();
  });
  // Unmerging a merged ticket changes (and answers) the ticket it was merged into: that one must be reachable too.
  app.post('/v1/tickets/:id/unmerge', async (req, _res, next) => {
    const principal = principalOf(req);
    if (principal.ticketIds !== null) {
      const mergedInto = isUuid(req.params.id) ? ((await store.read.tickets.ticket(req.params.id))?.merged_into ?? null) : null;
      if (mergedInto !== null) await requireVisibleTickets(store, principal, [mergedInto]);
    }
    next();
  });
  app.patch('/v1/tickets', async (req, _res, next) => {
    await requireVisibleTickets(store, principalOf(req), idsIn(req.body, 'ids'));
    next();
  });
  app.use('/v1/partner-configs/:pageId', (req, _res, next) => {
    if (!principalOf(req).allowsAccount(String(req.params.pageId))) throw new PartnerConfigNotFound(String(req.params.pageId));
    next();
  });
  app.use('/v1/accounts/:accountId', (req, _res, next) => {
    if (!principalOf(req).allowsAccount(String(req.params.accountId))) throw new AccountNotFound(String(req.params.accountId));
    next();
  });
}

/** A list's accounts: the one asked for (none when it may not be seen), else every account the credential may see. */
export function visibleAccounts(req: Request, asked: string | undefined): { accountId?: string; accountIds?: string[] } {
  const allowed = principalOf(req).accountIds;
  if (allowed === null) return asked === undefined ? {} : { accountId: asked };
  return { accountIds: asked === undefined ? [...allowed] : allowed.filter((id) => id === asked) };
}
