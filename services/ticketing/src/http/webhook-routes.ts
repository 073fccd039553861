import type { Request, RequestHandler } from 'express';
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
export function webhookRoutes(endpoints: WebhookEndpoints): Record<'register' | 'list' | 'show' | 'remove' | 'failures' | 'replay', RequestHandler> {
  const idOf = (req: Request) => String(req.params.id);
  return {
    register: async (req, res) => {
      const { endpoint, secret } = await endpoints.register(req.body);
      res.status(201).json({ ...endpointJson(endpoint), secret });
    },
    list: async (_req, res) => {
      res.json({ items: (await endpoints.list()).map(endpointJson) });
    },
    show: async (req, res) => {
      res.json(endpointJson(await endpoints.get(idOf(req))));
    },
    remove: async (req, res) => {
      await endpoints.remove(idOf(req));
      res.status(204).end();
    },
    failures: async (req, res) => {
      res.json({ items: (await endpoints.failures(idOf(req))).map(failureJson) });
    },
    replay: async (req, res) => {
      await endpoints.replay(idOf(req), req.body);
      res.status(202).json({ status: 'pending' });
    },
  };
}
