import type { RequestHandler } from 'express';
import { principalOf } from '@crm/access';
import type { Merges } from '../operations/merges';
import type { TicketActions } from '../operations/ticket-actions';
import type { TicketChanges } from '../operations/ticket-changes';
import { idempotencyKeyOf, markReplayed } from './idempotency';
import { activityJson } from './presenters';
import type { TicketHandler, TicketReach } from './reach';
import type { TicketShower } from './ticket-routes';

export interface TicketChangeRouteDeps {
  changes: TicketChanges;
  merges: Merges;
  actions: TicketActions;
  /** The ticket as `GET /v1/tickets/:id` shows it (404 when missing). */
  showTicket: TicketShower;
  /** Which tickets the caller reaches: the tickets a bulk change or a merge names besides its own. */
  reach: TicketReach;
}

const idsIn = (body: unknown, field: 'ids' | 'sourceIds'): unknown[] => {
  const value = (body as Record<string, unknown> | null)?.[field];
  return Array.isArray(value) ? value : [];
};

/** Changes of tickets in bulk: every ticket named must be one the caller reaches. */
export function bulkChangeRoute(deps: TicketChangeRouteDeps): RequestHandler {
  return async (req, res) => {
    await deps.reach.require(principalOf(req), idsIn(req.body, 'ids'));
    const ids = await deps.changes.bulk(req.body, principalOf(req).id);
    res.json({ items: await Promise.all(ids.map((id) => deps.showTicket(id, principalOf(req)))) });
  };
}

/** A ticket's life: workflow and field changes, notes, merges (every ticket named reachable), actions. */
export function ticketChangeRoutes(deps: TicketChangeRouteDeps): Record<'change' | 'addNote' | 'merge' | 'unmerge' | 'requestAction', TicketHandler> {
  return {
    change: async (id, req, res) => {
      await deps.changes.change(id, req.body, principalOf(req).id);
      res.json(await deps.showTicket(id, principalOf(req)));
    },
    addNote: async (id, req, res) => {
      const entry = await deps.changes.addNote(id, req.body, principalOf(req).id);
      res.status(201).json(noteJson(id, entry, principalOf(req).id, principalOf(req).grant.name));
    },
    merge: async (id, req, res) => {
      await deps.reach.require(principalOf(req), idsIn(req.body, 'sourceIds'));
      await deps.merges.merge(id, req.body, principalOf(req).id);
      res.json(await deps.showTicket(id, principalOf(req)));
    },
    unmerge: async (id, req, res) => {
      await deps.reach.require(principalOf(req), idsIn(req.body, 'sourceIds'));
      await deps.reach.requireMergeTarget(principalOf(req), id);
      const targetId = await deps.merges.unmerge(id, req.body, principalOf(req).id);
      res.json(await deps.showTicket(targetId, principalOf(req)));
    },
    requestAction: async (id, req, res) => {
      const { activityId, replayed } = await deps.actions.request(id, req.body, principalOf(req).id, idempotencyKeyOf(req));
      markReplayed(res, replayed);
      res.status(202).json({ activityId, status: 'pending' });
    },
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
