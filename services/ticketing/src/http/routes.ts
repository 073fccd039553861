import type { Express, Request, Response } from 'express';
import { withTransaction, type Pool } from '@crm/db';
import { HttpError, requireBearerToken } from '@crm/http';
import type { Logger } from '@crm/logging';
import { findAccount, listAccounts } from '../adapters/db/accounts';
import { countHeld, listHeld } from '../adapters/db/held-deliveries';
import { lockAccountExclusive } from '../adapters/db/locks';
import { findPartnerConfigRow, listPartnerConfigRows, savePartnerConfig } from '../adapters/db/partner-configs';
import { findContact, findTicket, listContactActivities, listContacts, listTicketActivities, listTickets } from '../adapters/db/ticket-queries';
import { checkPartnerConfig, withDefaults, type ConfigDefaults, type PartnerConfigInput } from '../domain/partner-config';
import type { OrderLinks } from '../operations/order-links';
import type { Replies } from '../operations/replies';
import { encodeCursor, encodeIdCursor, isUuid } from './cursor';
import { parseContactListQuery, parseHeldListQuery, parseTicketListQuery, platformIdParam } from './params';
import { accountJson, activityJson, contactJson, heldCountJson, heldJson, orderJson, orderOf, partnerConfigJson, ticketJson, type TicketView } from './presenters';

export interface RouteDeps {
  pool: Pool;
  apiTokens: string[];
  logger: Logger;
  /** Fills in what a partner configuration leaves out. */
  defaults: ConfigDefaults;
  /** Processes the held deliveries of an account once it has a configuration. */
  releaseHeld: (accountId: string) => Promise<number>;
  /** Agents' replies from tickets. */
  replies: Pick<Replies, 'send'>;
  /** Tickets linked to orders, and tracking's availability for them. */
  orderLinks: Pick<OrderLinks, 'link' | 'unlink' | 'current'>;
  view: TicketView;
}

/** How many timeline entries a contact's page shows (the newest). */
const CONTACT_TIMELINE_LIMIT = 500;

function ticketIdOf(req: Request<{ id: string }>): string {
  const { id } = req.params;
  if (!isUuid(id)) throw new HttpError(404, 'ticket_not_found', `no ticket with id '${id.slice(0, 100)}'`);
  return id;
}

const nextCursor = (more: boolean, last: { created_at_key: string; id: string } | undefined) => (more && last ? encodeCursor({ createdAt: last.created_at_key, id: last.id }) : null);

/** The CRM-facing API of ticketing (docs/architecture.md, "CRM-facing HTTP"); every /v1 route needs a bearer token. */
export function ticketingRoutes(deps: RouteDeps): (app: Express) => void {
  const { pool, logger } = deps;
  return (app) => {
    app.use('/v1', requireBearerToken(deps.apiTokens));

    app.get('/v1/tickets', async (req: Request, res: Response) => {
      const { rows, more } = await listTickets(pool, parseTicketListQuery(req.query as Record<string, unknown>));
      res.json({ items: rows.map((row) => ticketJson(row, deps.view)), nextCursor: nextCursor(more, rows.at(-1)) });
    });

    app.get('/v1/tickets/:id', async (req: Request<{ id: string }>, res: Response) => {
      const id = ticketIdOf(req);
      const ticket = await findTicket(pool, id);
      if (!ticket) throw new HttpError(404, 'ticket_not_found', `no ticket with id '${id}'`);
      const [order, activities] = await Promise.all([deps.orderLinks.current(ticket.id, orderOf(ticket)), listTicketActivities(pool, ticket.id)]);
      res.json({ ...ticketJson(ticket, deps.view, order), activities: activities.map(activityJson) });
    });

    app.post('/v1/tickets/:id/replies', async (req: Request<{ id: string }>, res: Response) => {
      const { activityId } = await deps.replies.send(ticketIdOf(req), req.body);
      res.status(202).json({ activityId, status: 'pending' });
    });

    app.put('/v1/tickets/:id/order', async (req: Request<{ id: string }>, res: Response) => {
      res.json(orderJson(await deps.orderLinks.link(ticketIdOf(req), req.body), deps.view));
    });

    app.delete('/v1/tickets/:id/order', async (req: Request<{ id: string }>, res: Response) => {
      await deps.orderLinks.unlink(ticketIdOf(req));
      res.status(204).end();
    });

    app.get('/v1/contacts', async (req: Request, res: Response) => {
      const { rows, more } = await listContacts(pool, parseContactListQuery(req.query as Record<string, unknown>));
      res.json({ items: rows.map(contactJson), nextCursor: nextCursor(more, rows.at(-1)) });
    });

    app.get('/v1/contacts/:id', async (req: Request<{ id: string }>, res: Response) => {
      const { id } = req.params;
      const contact = isUuid(id) ? await findContact(pool, id) : null;
      if (!contact) throw new HttpError(404, 'contact_not_found', `no contact with id '${id.slice(0, 100)}'`);
      res.json({ ...contactJson(contact), timeline: (await listContactActivities(pool, contact.id, CONTACT_TIMELINE_LIMIT)).map(activityJson) });
    });

    app.get('/v1/partner-configs', async (_req: Request, res: Response) => {
      res.json({ items: (await listPartnerConfigRows(pool)).map(partnerConfigJson) });
    });

    app.get('/v1/partner-configs/:pageId', async (req: Request<{ pageId: string }>, res: Response) => {
      const pageId = platformIdParam(req.params, 'pageId')!;
      const row = await findPartnerConfigRow(pool, pageId);
      if (!row) throw new HttpError(404, 'partner_config_not_found', `no partner configuration for page '${pageId}'`);
      res.json(partnerConfigJson(row));
    });

    app.put('/v1/partner-configs/:pageId', async (req: Request<{ pageId: string }>, res: Response) => {
      const pageId = platformIdParam(req.params, 'pageId')!;
      const body: unknown = req.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new HttpError(400, 'invalid_partner_config', 'send the configuration as a JSON object with content-type application/json');
      }
      const problems = checkPartnerConfig(body);
      if (problems.length > 0) throw new HttpError(400, 'invalid_partner_config', problems.join('; '));
      const input = body as PartnerConfigInput;
      if (input.pageId !== undefined && input.pageId !== pageId) throw new HttpError(400, 'invalid_partner_config', `/pageId ${input.pageId} does not match the page ${pageId} of the path`);

      const config = withDefaults(pageId, input, deps.defaults);
      // Exclusive on the account: deliveries deciding between holding and processing wait, so none is held after this commits unseen by the release.
      const created = await withTransaction(pool, async (client) => {
        await lockAccountExclusive(client, pageId);
        return savePartnerConfig(client, config);
      });
      logger.info('partner configuration stored', { pageId, created });
      deps.releaseHeld(pageId).then(
        (released) => released > 0 && logger.info('held deliveries released', { pageId, released }),
        (error: unknown) => logger.error('releasing held deliveries failed; the periodic release tries again', { pageId, reason: (error as Error).message }),
      );
      res.status(created ? 201 : 200).json(partnerConfigJson((await findPartnerConfigRow(pool, pageId))!));
    });

    app.get('/v1/held-deliveries', async (req: Request, res: Response) => {
      const filter = parseHeldListQuery(req.query as Record<string, unknown>);
      const [{ rows, more }, counts] = await Promise.all([listHeld(pool, filter), countHeld(pool, filter.accountId)]);
      const last = rows.at(-1);
      res.json({ accounts: counts.map(heldCountJson), items: rows.map(heldJson), nextCursor: more && last ? encodeIdCursor(last.id) : null });
    });

    app.get('/v1/accounts', async (_req: Request, res: Response) => {
      res.json({ items: (await listAccounts(pool)).map(accountJson) });
    });

    app.get('/v1/accounts/:accountId', async (req: Request<{ accountId: string }>, res: Response) => {
      const accountId = platformIdParam(req.params, 'accountId')!;
      const account = await findAccount(pool, accountId);
      if (!account) throw new HttpError(404, 'account_not_found', `ticketing has heard nothing of account '${accountId}'`);
      res.json(accountJson(account));
    });
  };
}
