import type { Express, Request, Response } from 'express';
import type { EndpointRow, FailureRow } from '../adapters/db/webhooks';
import type { WebhookEndpoints } from '../operations/webhooks';

const endpointJson = (row: EndpointRow) => ({
  id: row.id,
  url: row.url,
  description: row.description,
  eventTypes: row.event_types,
  createdAt: row.created_at.toISOString(),
});

const failureJson = (row: FailureRow) => ({
  id: String(row.id),
  eventId: row.event_id,
  eventType: row.event_type,
  attempts: row.attempts,
  lastError: row.last_error,
  createdAt: row.created_at.toISOString(),
});

/** The CRM's webhook endpoints: the signing secret is in the creation's answer only. */
export function webhookRoutes(endpoints: WebhookEndpoints): (app: Express) => void {
  return (app) => {
    app.post('/v1/webhook-endpoints', async (req: Request, res: Response) => {
      const { endpoint, secret } = await endpoints.register(req.body);
      res.status(201).json({ ...endpointJson(endpoint), secret });
    });

    app.get('/v1/webhook-endpoints', async (_req: Request, res: Response) => {
      res.json({ items: (await endpoints.list()).map(endpointJson) });
    });

    app.get('/v1/webhook-endpoints/:id', async (req: Request<{ id: string }>, res: Response) => {
      res.json(endpointJson(await endpoints.get(req.params.id)));
    });

    app.delete('/v1/webhook-endpoints/:id', async (req: Request<{ id: string }>, res: Response) => {
      await endpoints.remove(req.params.id);
      res.status(204).end();
    });

    app.get('/v1/webhook-endpoints/:id/failures', async (req: Request<{ id: string }>, res: Response) => {
      res.json({ items: (await endpoints.failures(req.params.id)).map(failureJson) });
    });

    app.post('/v1/webhook-endpoints/:id/replay', async (req: Request<{ id: string }>, res: Response) => {
      await endpoints.replay(req.params.id, req.body);
      res.status(202).json({ status: 'pending' });
    });
  };
}
