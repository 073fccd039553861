import type { Express, Request, Response } from 'express';
import { requireBearerToken } from '@crm/http';
import type { Logger } from '@crm/logging';
import type { ClientsStore } from '../adapters/clients-store';
import { TrackingError } from '../domain/errors';
import type { TaskLookups } from '../lookups';
import { domainErrors } from './errors';
import { clientIdParam, clientSettingsBody, includeParam, taskIdParam } from './params';

export interface RouteDeps {
  lookups: TaskLookups;
  clients: ClientsStore;
  apiTokens: string[];
  logger: Logger;
}

type ClientParams = { clientId: string };
type TaskParams = { clientId: string; taskId: string };

/** The CRM-facing API of tracking (docs/architecture.md, "CRM-facing HTTP"); every /v1 route needs a bearer token. */
export function trackingRoutes({ lookups, clients, apiTokens, logger }: RouteDeps): (app: Express) => void {
  return (app) => {
    app.use('/v1', requireBearerToken(apiTokens));

    app.put('/v1/clients/:clientId', async (req: Request<ClientParams>, res: Response) => {
      const clientId = clientIdParam(req.params.clientId);
      const settings = clientSettingsBody(req.body);
      const { client, created } = await clients.save(clientId, settings);
      lookups.forget(clientId);
      logger.info(created ? 'tracking client added' : 'tracking client updated', { clientId, enabled: client.enabled, keyChanged: settings.apiKey !== undefined });
      res.status(created ? 201 : 200).json(client);
    });

    app.get('/v1/clients/:clientId', async (req: Request<ClientParams>, res: Response) => {
      const clientId = clientIdParam(req.params.clientId);
      const client = await clients.find(clientId);
      if (!client) throw new TrackingError('client_not_found', `tracking is not set up for client '${clientId}'`);
      res.json(client);
    });

    app.get('/v1/clients/:clientId/tasks/:taskId', async (req: Request<TaskParams>, res: Response) => {
      const clientId = clientIdParam(req.params.clientId);
      const taskId = taskIdParam(req.params.taskId);
      res.json(await lookups.task(clientId, taskId, includeParam(req.query as Record<string, unknown>)));
    });

    app.get('/v1/clients/:clientId/tasks/:taskId/live', async (req: Request<TaskParams>, res: Response) => {
      const clientId = clientIdParam(req.params.clientId);
      const taskId = taskIdParam(req.params.taskId);
      res.json(await lookups.live(clientId, taskId));
    });

    app.post('/v1/clients/:clientId/tasks', async (req: Request<ClientParams>, res: Response) => {
      const clientId = clientIdParam(req.params.clientId);
      const result = await lookups.create(clientId, req.body);
      res.status(result.created ? 201 : 200).json(result);
    });

    app.use('/v1', domainErrors);
  };
}
