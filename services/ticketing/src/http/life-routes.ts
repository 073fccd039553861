import type { Express, Request, Response } from 'express';
import { principalOf as viewerOf } from '@crm/access';
import type { TicketingStore } from '../adapters/db/store';
import type { Merges } from '../operations/merges';
import type { TicketActions } from '../operations/ticket-actions';
import { testRouting } from '../operations/route-test';
import type { TicketChanges } from '../operations/ticket-changes';
import { idempotencyKeyOf, markReplayed } from './idempotency';
import { platformIdParam } from './params';
import { activityJson } from './presenters';
import { actorNameOf, principalOf } from './principal';
import type { TicketShower } from './routes';

export interface LifeRouteDeps {
  store: TicketingStore;
  changes: TicketChanges;
  merges: Merges;
  actions: TicketActions;
  /** The ticket as `GET /v1/tickets/:id` shows it (404 when missing). */
  showTicket: TicketShower;
  /** Routes mounted after these (live events, webhooks, actions). */
  more?: ((app: Express) => void)[];
}

/** A ticket's life over HTTP: workflow and field changes (one or in bulk), notes, merges, the rule tester. */
export function lifeRoutes(deps: LifeRouteDeps): (app: Express) => void {
  return (app) => {
    app.patch('/v1/tickets', async (req: Request, res: Response) => {
      const ids = await deps.changes.bulk(req.body, principalOf(req));
      res.json({ items: await Promise.all(ids.map((id) => deps.showTicket(id, viewerOf(req)))) });
    });

    app.patch('/v1/tickets/:id', async (req: Request<{ id: string }>, res: Response) => {
      await deps.changes.change(req.params.id, req.body, principalOf(req));
      res.json(await deps.showTicket(req.params.id, viewerOf(req)));
    });

    app.post('/v1/tickets/:id/notes', async (req: Request<{ id: string }>, res: Response) => {
      const entry = await deps.changes.addNote(req.params.id, req.body, principalOf(req));
      res.status(201).json(noteJson(req.params.id, entry, principalOf(req), actorNameOf(req)));
    });

    app.post('/v1/tickets/:id/merge', async (req: Request<{ id: string }>, res: Response) => {
      await deps.merges.merge(req.params.id, req.body, principalOf(req));
      res.json(await deps.showTicket(req.params.id, viewerOf(req)));
    });

    app.post('/v1/tickets/:id/unmerge', async (req: Request<{ id: string }>, res: Response) => {
      const targetId = await deps.merges.unmerge(req.params.id, req.body, principalOf(req));
      res.json(await deps.showTicket(targetId, viewerOf(req)));
    });

    app.post('/v1/tickets/:id/actions', async (req: Request<{ id: string }>, res: Response) => {
      const { activityId, replayed } = await deps.actions.request(req.params.id, req.body, principalOf(req), idempotencyKeyOf(req));
      markReplayed(res, replayed);
      res.status(202).json({ activityId, status: 'pending' });
    });

    app.post('/v1/partner-configs/:pageId/route-test', async (req: Request<{ pageId: string }>, res: Response) => {
      const decision = await testRouting(deps.store, platformIdParam(req.params, 'pageId')!, req.body);
      res.json({ rule: decision.rule, queue: decision.queue, folder: decision.folder });
    });

    for (const mount of deps.more ?? []) mount(app);
  };
}

function noteJson(ticketId: string, entry: { id: string; kind: string; text: string | null; occurredAt: string; data: Record<string, unknown> | null }, actor: string, actorName: string | null) {
  return activityJson({
    id: entry.id,
    ticket_id: ticketId,
    kind: entry.kind,
    direction: 'internal',
    text: entry.text,
    platform_event_id: null,
    occurred_at: new Date(entry.occurredAt),
    deleted: false,
    attachments: [],
    send_status: null,
    send_error: null,
    send_error_code: null,
    send_error_platform_code: null,
    source: null,
    search_query: null,
    author_id: null,
    author_screen_name: null,
    author_name: null,
    actor,
    actor_name: actorName,
    data: entry.data,
    edited_at: null,
    edits: [],
  });
}
