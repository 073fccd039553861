/**
 * The workspace's state lives in the URL, so Back works, a link can be shared and a reload keeps
 * it: `/inbox?view=mine&q=refund` lists, `/tickets/<id>?view=mine&q=refund` has a conversation open
 * beside the same list (a plain `/tickets/<id>`, as the CRM links it, beside all open tickets).
 */
import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
// The lists alone, not the package's index: the page bundle takes no schema library.
import { SETTABLE_TICKET_STATUSES, TICKET_PRIORITIES } from '@crm/contracts/src/ticket-lists';
import type { operations } from '../generated/ticketing';

export const VIEWS = ['open', 'mine', 'unassigned', 'breached', 'folder'] as const;
export type View = (typeof VIEWS)[number];
/** The status filter: open and pending together (the views' default), or one settable status. */
export const STATUS_CHOICES = ['open,pending', ...SETTABLE_TICKET_STATUSES] as const;
/** Most pressing first, as the filter lists them. */
export const PRIORITIES = [...TICKET_PRIORITIES].reverse();

export interface WorkspaceState {
  view: View;
  /** The folder view's queue and folder. */
  queue: string;
  folder: string;
  /** Text in the subject or any message. */
  q: string;
  /** One of STATUS_CHOICES; the views hold open and pending tickets unless told otherwise. */
  status: string;
  priority: string;
}

const DEFAULTS: WorkspaceState = { view: 'open', queue: '', folder: '', q: '', status: 'open,pending', priority: '' };

export function stateOf(search: string): WorkspaceState {
  const params = new URLSearchParams(search);
  const view = params.get('view') ?? '';
  const status = params.get('status') ?? '';
  const priority = params.get('priority') ?? '';
  return {
    view: (VIEWS as readonly string[]).includes(view) ? (view as View) : DEFAULTS.view,
    queue: params.get('queue') ?? '',
    folder: params.get('folder') ?? '',
    q: params.get('q') ?? '',
    status: (STATUS_CHOICES as readonly string[]).includes(status) ? status : DEFAULTS.status,
    priority: (PRIORITIES as readonly string[]).includes(priority) ? priority : '',
  };
}

/** The URL's search for a state: only what differs from the defaults. */
export function searchOf(state: WorkspaceState): string {
  const params = new URLSearchParams();
  if (state.view !== DEFAULTS.view) params.set('view', state.view);
  if (state.view === 'folder') {
    params.set('queue', state.queue);
    params.set('folder', state.folder);
  }
  if (state.q) params.set('q', state.q);
  if (state.status !== DEFAULTS.status) params.set('status', state.status);
  if (state.priority) params.set('priority', state.priority);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export type ListQuery = NonNullable<operations['listTickets']['parameters']['query']>;

/** ticketing's list query for a state: every filter is applied there, none in the browser. */
export function listQueryOf(state: WorkspaceState): ListQuery {
  const query: ListQuery = { status: state.status, order: 'lastActivity', limit: 50 };
  if (state.view === 'mine') query.assignee = 'me';
  if (state.view === 'unassigned') query.assignee = 'none';
  if (state.view === 'breached') query.breached = true;
  if (state.view === 'folder') Object.assign(query, { queue: state.queue, folder: state.folder });
  if (state.q.trim()) query.q = state.q.trim();
  if (state.priority) query.priority = state.priority as ListQuery['priority'];
  return query;
}

export const ticketHref = (id: string, state: WorkspaceState) => `/tickets/${encodeURIComponent(id)}${searchOf(state)}`;
export const listHref = (state: WorkspaceState) => `/inbox${searchOf(state)}`;

/** The state and selection in the URL, and moves that push a history entry (Back undoes them). */
export function useWorkspaceLocation(): {
  state: WorkspaceState;
  ticketId: string | null;
  open: (id: string) => void;
  closeTicket: () => void;
  change: (next: Partial<WorkspaceState>, options?: { replace?: boolean }) => void;
} {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const state = useMemo(() => stateOf(search), [search]);
  const match = /^\/tickets\/([^/]+)$/.exec(location);
  const ticketId = match ? decodeURIComponent(match[1]!) : null;
  const open = useCallback((id: string) => navigate(ticketHref(id, state)), [navigate, state]);
  const closeTicket = useCallback(() => navigate(listHref(state)), [navigate, state]);
  // A new view or filter shows the list (the selection belongs to the old one).
  const change = useCallback((next: Partial<WorkspaceState>, options: { replace?: boolean } = {}) => navigate(listHref({ ...state, ...next }), { replace: options.replace ?? false }), [navigate, state]);
  return { state, ticketId, open, closeTicket, change };
}
