import type { Express, Request, Response } from 'express';
import type { Pool } from '@crm/db';
import { HttpError } from '@crm/http';
import { loadPartnerConfig } from '../adapters/db/partner-configs';
import type { SearchQueries } from '../operations/search-queries';
import { platformIdParam } from './params';

/** `GET /v1/partner-configs/:pageId/search-queries`: each configured query with its last run, last error, matches and next run. */
export function searchQueryRoutes(app: Express, deps: { pool: Pool; searchQueries: Pick<SearchQueries, 'states'> }): void {
  app.get('/v1/partner-configs/:pageId/search-queries', async (req: Request<{ pageId: string }>, res: Response) => {
    const pageId = platformIdParam(req.params, 'pageId')!;
    const config = await loadPartnerConfig(deps.pool, pageId);
    if (!config) throw new HttpError(404, 'partner_config_not_found', `no partner configuration for page '${pageId}'`);
    res.json({ items: await deps.searchQueries.states(config) });
  });
}
