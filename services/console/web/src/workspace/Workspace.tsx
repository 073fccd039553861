import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Center, Text } from '@mantine/core';
import { Link } from 'wouter';
import { ApiError } from '../api';
import { consoleApi, ok, ticketing } from '../client';
import { useLiveUpdates } from '../live';
import { Inbox } from '../pages/Inbox';
import { TicketView } from '../pages/TicketView';
import type { TicketSummary } from '../types';
import { listHref, listQueryOf, useWorkspaceLocation, type WorkspaceState } from './location';
import { markSeen } from './seen';
import { useShortcut } from './shortcuts';
import type { ViewCounts } from './Views';

const messageOf = (caught: unknown, what: string) => (caught instanceof ApiError ? caught.message : `${what} could not be read`);

/** The list of the URL's view and filters, read again whenever ticketing reports a change. */
function useConversations(state: WorkspaceState) {
  const [tickets, setTickets] = useState<TicketSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const query = useMemo(() => listQueryOf(state), [state]);
  const asked = useRef(0);
  const load = useCallback(async () => {
    const call = (asked.current += 1);
    try {
      const page = await ok(ticketing.GET('/v1/tickets', { params: { query } }));
      // An older answer arriving after a newer question is dropped.
      if (call !== asked.current) return;
      setTickets(page.items);
      setError(null);
    } catch (caught) {
      if (call === asked.current) setError(messageOf(caught, 'the conversations'));
    }
  }, [query]);
  useEffect(() => {
    setTickets(null);
    void load();
  }, [load]);
  return { tickets, error, load };
}

export function useViewCounts() {
  const [counts, setCounts] = useState<ViewCounts | null>(null);
  const load = useCallback(async () => {
    try {
      setCounts(await ok(ticketing.GET('/v1/ticket-counts')));
    } catch {
      // The views stay without counts; the list shows what went wrong.
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  return { counts, load };
}

/** accountId → the name agents know it by: its page name, else its @screen name. */
function useAccountNames(): Map<string, string> {
  const [names, setNames] = useState(new Map<string, string>());
  useEffect(() => {
    ok(consoleApi.GET('/api/accounts'))
      .then(({ items }) => setNames(new Map(items.map((account) => [account.accountId, account.pageName ?? (account.screenName ? `@${account.screenName}` : account.name ?? `account ${account.accountId}`)]))))
      .catch(() => undefined);
  }, []);
  return names;
}

export function viewTitle(state: WorkspaceState): string {
  if (state.view === 'mine') return 'My open';
  if (state.view === 'unassigned') return 'Unassigned';
  if (state.view === 'breached') return 'SLA breached';
  if (state.view === 'folder') return `${state.queue} / ${state.folder}`;
  return 'All open';
}

/**
 * The list and the open conversation (the views are the frame's navbar). At desktop widths both
 * show; on a phone one at a time: the list, or the conversation with a way back to it.
 */
export function Workspace({ phone, onCountsStale }: { phone: boolean; onCountsStale: () => void }) {
  const { state, ticketId, open, closeTicket, change } = useWorkspaceLocation();
  const { tickets, error, load } = useConversations(state);
  const accountNames = useAccountNames();
  const live = useLiveUpdates(() => {
    void load();
    onCountsStale();
  });
  // The open conversation counts as seen up to its latest activity.
  const selected = tickets?.find((ticket) => ticket.id === ticketId);
  useEffect(() => {
    if (selected) markSeen(selected);
  }, [selected]);
  useShortcut('Escape', 'Back to the list', 'Conversation', closeTicket, ticketId !== null);
  const list = (
    <Inbox
      title={viewTitle(state)}
      state={state}
      tickets={tickets}
      error={error}
      selectedId={ticketId}
      accountNames={accountNames}
      live={live}
      onChange={change}
      onOpen={open}
    />
  );
  const conversation = ticketId ? (
    <section className="ws-conversation" aria-label="Conversation" data-testid="conversation-pane">
      {phone && (
        <Button component={Link} href={listHref(state)} variant="subtle" size="compact-sm" mb="xs" data-testid="back-to-list">
          ← Back to conversations
        </Button>
      )}
      <TicketView key={ticketId} id={ticketId} onChanged={() => void load()} />
    </section>
  ) : (
    <Center className="ws-conversation" data-testid="conversation-pane">
      <Text c="dimmed">Pick a conversation from the list (j and k move, Enter opens, ? lists every key).</Text>
    </Center>
  );
  // One tree at every width, the panes keyed: a window that narrows to a phone's and back keeps
  // the open conversation mounted (its pop-up, its half-typed reply), only the list comes and goes.
  const showList = !phone || !ticketId;
  return (
    <div className="ws-panes" data-phone={phone || undefined}>
      {showList && (
        <div key="list" className="ws-list-pane">
          {list}
        </div>
      )}
      {(!phone || ticketId) && <Fragment key="conversation">{conversation}</Fragment>}
    </div>
  );
}
