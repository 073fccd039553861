import type { Express, Request, Response } from 'express';
import type { ChangeNotice } from '../adapters/db/crm-events';
import type { LiveEvents } from '../operations/live-events';
import { platformIdParam } from './params';

const KEEPALIVE_MS = 15_000;

/**
 * `GET /v1/events`: a server-sent-events stream of ticket changes (every CRM event type),
 * typing (`conversation.typing`, `conversation.typing_stopped`) and read state
 * (`conversation.read`), optionally for one account. Each event's `id` is the CRM event's id.
 */
export function liveRoutes(live: LiveEvents, streams: Set<Response>): (app: Express) => void {
  return (app) => {
    app.get('/v1/events', (req: Request, res: Response) => {
      const accountId = platformIdParam(req.query as Record<string, unknown>, 'accountId') ?? null;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
      res.write(': connected\n\n');
      const send = (notice: ChangeNotice) => res.write(`id: ${notice.id}\nevent: ${notice.type}\ndata: ${JSON.stringify(notice)}\n\n`);
      const unsubscribe = live.subscribe({ accountId, send });
      const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
      keepalive.unref();
      streams.add(res);
      res.on('close', () => {
        clearInterval(keepalive);
        unsubscribe();
        streams.delete(res);
      });
    });
  };
}
