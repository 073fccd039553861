import type { Express, Request, RequestHandler, Response } from 'express';
import { principalOf, requireScope } from '@crm/access';
import type { Logger } from '@crm/logging';
import type { ClientsStore } from '../adapters/clients-store';
import { TrackingError } from '../domain/errors';
import type { TaskLookups } from '../lookups';
import type { TaskFollowing } from '../operations/follow-tasks';
import { takePush } from '../operations/take-push';
import type { TaskWatch } from '../operations/watch-tasks';
import { PUSH_SIGNATURE_HEADER } from '../domain/push-signature';
import { domainErrors } from './errors';
import { clientIdParam, clientSettingsBody, followerParam, includeParam, taskIdParam } from './params';

export interface RouteDeps {
  lookups: TaskLookups;
  clients: ClientsStore;
  /** Authentication, rate limit and audit (`accessControl` of @crm/access), mounted on /v1. */
  access: RequestHandler[];
  following: TaskFollowing;
  watch: TaskWatch;
  logger: Logger;
}

type ClientParams = { clientId: string };
type TaskParams = { clientId: string; taskId: string };
type FollowerParams = TaskParams & { follower: string };

/** `:clientId` of a client the credential may see; another is answered as not set up (404), as if it did not exist. */
function visibleClientId(req: Request<ClientParams>): string {
  const clientId = clientIdParam(req.params.clientId);
  if (!principalOf(req).allowsTrackingClient(clientId)) throw new TrackingError('client_not_found', `tracking is not set up for client '${clientId}'`);
  return clientId;
}

/** The CRM-facing API of tracking (docs/architecture.md, "CRM-facing HTTP"); every /v1 route needs an API credential with the scope it names. */
export function trackingRoutes(deps: RouteDeps): (app: Express) => void {
  const { lookups, clients, access, logger } = deps;
  return (app) => {
    providerPushRoute(app, deps);
    app.use('/v1', ...access);
    const manage = requireScope('tracking:manage');
    const read = requireScope('tickets:read');

    app.put('/v1/clients/:clientId', manage, async (req: Request<ClientParams>, res: Response) => {
      const clientId = visibleClientId(req);
      const settings = clientSettingsBody(req.body);
      const { client, created } = await clients.save(clientId, settings);
      lookups.forget(clientId);
      logger.info(created ? 'tracking client added' : 'tracking client updated', { clientId, enabled: client.enabled, keyChanged: settings.apiKey !== undefined });
      res.status(created ? 201 : 200).json(client);
    });

    app.get('/v1/clients/:clientId', manage, async (req: Request<ClientParams>, res: Response) => {
      const clientId = visibleClientId(req);
      const client = await clients.find(clientId);
      if (!client) throw new TrackingError('client_not_found', `tracking is not set up for client '${clientId}'`);
      res.json(client);
    });

    app.get('/v1/clients/:clientId/tasks/:taskId', read, async (req: Request<TaskParams>, res: Response) => {
      const clientId = visibleClientId(req);
      const taskId = taskIdParam(req.params.taskId);
      res.json(await lookups.task(clientId, taskId, includeParam(req.query as Record<string, unknown>)));
    });

    app.get('/v1/clients/:clientId/tasks/:taskId/live', read, async (req: Request<TaskParams>, res: Response) => {
      const clientId = visibleClientId(req);
      const taskId = taskIdParam(req.params.taskId);
      res.json(await lookups.live(clientId, taskId));
    });

    app.post('/v1/clients/:clientId/tasks', manage, async (req: Request<ClientParams>, res: Response) => {
      const clientId = visibleClientId(req);
      const result = await lookups.create(clientId, req.body);
      res.status(result.created ? 201 : 200).json(result);
    });

    followerRoutes(app, deps);
    app.use('/v1', domainErrors);
  };
}

/** Following a task for a follower (a ticket): a write on the follower's behalf, so `tickets:write`. */
function followerRoutes(app: Express, { following }: RouteDeps): void {
  const write = requireScope('tickets:write');
  const ids = (req: Request<FollowerParams>) => [visibleClientId(req as Request<ClientParams>), taskIdParam(req.params.taskId), followerParam(req.params.follower)] as const;
  app.put('/v1/clients/:clientId/tasks/:taskId/followers/:follower', write, async (req: Request<FollowerParams>, res: Response) => {
    res.json(await following.follow(...ids(req)));
  });
  app.delete('/v1/clients/:clientId/tasks/:taskId/followers/:follower', write, async (req: Request<FollowerParams>, res: Response) => {
    res.json(await following.unfollow(...ids(req)));
  });
}

/** The provider's signed task pushes (no API credential: the signature is the proof). */
function providerPushRoute(app: Express, { clients, watch, logger }: RouteDeps): void {
  app.post('/provider/clients/:clientId/task-pushes', async (req: Request<ClientParams>, res: Response) => {
    const clientId = clientIdParam(req.params.clientId);
    const observed = await takePush({ clients, watch, logger }, { clientId, rawBody: req.rawBody, body: req.body, signature: req.get(PUSH_SIGNATURE_HEADER) });
    res.status(202).json({ accepted: true, followed: observed !== 'not_followed' });
  });
}
