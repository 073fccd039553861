import type { Express, Request, Response } from 'express';
import type { TicketingStore } from '../adapters/db/store';
import { PartnerConfigNotFound } from '../operations/errors';
import type { SearchQueries } from '../operations/search-queries';
import { platformIdParam } from './params';

/** `GET /v1/partner-configs/:pageId/search-queries`: each configured query with its last run, last error, matches and next run. */
export function searchQueryRoutes(app: Express, deps: { store: TicketingStore; searchQueries: Pick<SearchQueries, 'states'> }): void {
  app.get('/v1/partner-configs/:pageId/search-queries', async (req: Request<{ pageId: string }>, res: Response) => {
    const pageId = platformIdParam(req.params, 'pageId')!;
    const row = await deps.store.read.partnerConfigs.row(pageId);
    if (!row) throw new PartnerConfigNotFound(pageId);
    res.json({ items: await deps.searchQueries.states({ ...row.config, pageId }) });
  });
}
