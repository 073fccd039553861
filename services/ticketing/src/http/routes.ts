import type { Express, Request, Response } from 'express';
import type { Pool } from '@crm/db';
import { HttpError, requireBearerToken } from '@crm/http';
import { findTicket, listActivities, listTickets } from '../adapters/db/ticket-queries';
import { encodeCursor, isUuid } from './cursor';
import { parseTicketListQuery } from './params';
import { activityJson, ticketJson } from './presenters';

export interface RouteDeps {
  pool: Pool;
  apiTokens: string[];
}

/** The CRM-facing API of ticketing (ARCHITECTURE section 7); every /v1 route needs a bearer token. */
export function ticketingRoutes({ pool, apiTokens }: RouteDeps): (app: Express) => void {
  return (app) => {
    app.use('/v1', requireBearerToken(apiTokens));

    app.get('/v1/tickets', async (req: Request, res: Response) => {
      const filter = parseTicketListQuery(req.query as Record<string, unknown>);
      const { rows, more } = await listTickets(pool, filter);
      const last = rows[rows.length - 1];
      res.json({
        items: rows.map(ticketJson),
        nextCursor: more && last ? encodeCursor({ createdAt: last.created_at_key, id: last.id }) : null,
      });
    });

    app.get('/v1/tickets/:id', async (req: Request<{ id: string }>, res: Response) => {
      const { id } = req.params;
      const ticket = isUuid(id) ? await findTicket(pool, id) : null;
      if (!ticket) throw new HttpError(404, 'ticket_not_found', `no ticket with id '${id.slice(0, 100)}'`);
      const activities = await listActivities(pool, ticket.id);
      res.json({ ...ticketJson(ticket), activities: activities.map(activityJson) });
    });
  };
}
