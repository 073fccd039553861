import { useCallback, useEffect, useRef, useState } from 'react';
import { TONE } from '../colors';
import { Alert, Badge, Button, Grid, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { ApiError } from '../api';
import { done, ok, ticketing } from '../client';
import { clock, countdown } from '../format';
import { useLiveUpdates } from '../live';
import { usePaneKeys } from '../paneKeys';
import { useSession } from '../session';
import { useAction } from '../useAction';
import { Composer, type ComposerHandle } from '../components/Composer';
import { MapModal, useLiveView } from '../components/MapModal';
import { MergePicker } from '../components/MergePicker';
import { Sidebar } from '../components/Sidebar';
import { Presence } from '../components/Presence';
import { ConversationState, Timeline } from '../components/Timeline';
import type { CannedContext } from '../canned';
import type { LiveView, TicketDetail } from '../types';

function useTicket(id: string) {
  const [ticket, setTicket] = useState<TicketDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setTicket(await ok(ticketing.GET('/v1/tickets/{id}', { params: { path: { id } } })));
      setError(null);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'the ticket could not be read');
    }
  }, [id]);
  useEffect(() => {
    void load();
  }, [load]);
  return { ticket, error, load };
}

function Header({ ticket, onResolve, resolving }: { ticket: TicketDetail; onResolve: () => void; resolving: boolean }) {
  const now = Date.now();
  const first = ticket.sla.firstRespondedAt ? null : countdown(ticket.sla.firstResponseDueAt, now);
  const resolution = countdown(ticket.sla.resolutionDueAt, now);
  const open = ticket.status === 'open' || ticket.status === 'pending';
  return (
    <Stack gap={4}>
      <Group justify="space-between" wrap="nowrap" align="start">
        <Title order={2} style={{ overflowWrap: 'anywhere', minWidth: 0, flex: 1 }}>{ticket.subject || '(no subject)'}</Title>
        {open && (
          <Button variant="outline" size="compact-sm" onClick={onResolve} loading={resolving} title="Resolve (e)" style={{ flexShrink: 0 }}>
            Resolve
          </Button>
        )}
      </Group>
      <Group gap="xs">
        <Badge color={TONE.info}>{ticket.status}</Badge>
        <Text size="sm">
          @{ticket.contact?.screenName} · {ticket.channel === 'dm' ? 'DM' : 'public'} · queue <strong data-testid="ticket-queue">{ticket.queue}</strong> / {ticket.folder}
          {ticket.routingRule ? ` (rule “${ticket.routingRule}”)` : ''}
        </Text>
        {first && <Text size="sm" c={first.breached ? 'red.9' : undefined}>First response {first.label}</Text>}
        {resolution && <Text size="sm" c={resolution.breached ? 'red.9' : undefined}>Resolution {resolution.label}</Text>}
      </Group>
    </Stack>
  );
}

/** What canned replies fill in: the customer's first name, the live order's status and ETA (the agent's clock). */
function cannedContext(ticket: TicketDetail, view: LiveView | null): CannedContext {
  return {
    customer: ticket.contact?.name?.split(' ')[0] ?? (ticket.contact?.screenName ? `@${ticket.contact.screenName}` : null),
    orderStatus: view?.status ?? null,
    eta: view?.eta ? clock(view.eta.at) : null,
  };
}

/** `onChanged`: told of a change made in the sidebar, for a list beside that shows it (ticketing sends no event when an order is linked). */
export function TicketView({ id, embedded = false, onChanged }: { id: string; embedded?: boolean; onChanged?: () => void }) {
  const { ticket, error, load } = useTicket(id);
  const { session } = useSession();
  const [mapOpen, setMapOpen] = useState(false);
  const [mergeOpen, setMergeOpen] = useState(false);
  const [merged, setMerged] = useState<string | null>(null);
  const composer = useRef<ComposerHandle>(null);
  const resolve = useAction(() => void load());
  const live = useLiveView(id, session?.settings.mapRefreshMs ?? 5000, Boolean(ticket?.order));
  const pending = ticket?.activities?.some((a) => a.status === 'pending') ?? false;
  useLiveUpdates((event) => {
    if (!event || event.ticketId === id) void load();
  });
  useEffect(() => {
    // A reply waiting for the platform's answer: look again until it is sent or failed.
    if (!pending) return;
    const timer = setInterval(() => void load(), 1500);
    return () => clearInterval(timer);
  }, [pending, load]);
  const onResolve = () => void resolve.act('resolve', () => done(ticketing.PATCH('/v1/tickets/{id}', { params: { path: { id } }, body: { status: 'resolved' } })));
  usePaneKeys({
    r: () => composer.current?.focus('reply'),
    n: () => composer.current?.focus('note'),
    e: () => ticket && (ticket.status === 'open' || ticket.status === 'pending') && onResolve(),
    a: () => document.getElementById('ticket-assignee')?.focus(),
  });
  if (error) return <Alert color="red" role="alert">{error}</Alert>;
  if (!ticket) return <Loader aria-label="Loading the ticket" />;
  return (
    <Stack p={embedded ? 'md' : 0} data-testid="ticket-view">
      {embedded && <Title order={1} size="h5">Support console (embedded)</Title>}
      {/* Container breakpoints: the sidebar sits beside the conversation when the pane is wide, whatever the window. */}
      <Grid gap="md" type="container" breakpoints={{ xs: '30em', sm: '40em', md: '48em', lg: '64em', xl: '80em' }}>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack>
            <Header ticket={ticket} onResolve={onResolve} resolving={resolve.busy === 'resolve'} />
            <Presence ticketId={ticket.id} />
            {resolve.problem && <Alert color="red" role="alert">{resolve.problem}</Alert>}
            {merged && (
              <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setMerged(null)} data-testid="merge-result">
                {merged}
              </Alert>
            )}
            <ConversationState ticket={ticket} />
            <Timeline activities={ticket.activities ?? []} ticketId={ticket.id} ticketStatus={ticket.status} version={`${ticket.updatedAt}/${ticket.activities?.length ?? 0}`} onChanged={() => void load()} />
            <Composer ref={composer} key={ticket.id} ticket={ticket} canned={cannedContext(ticket, live.view)} onSent={() => void load()} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Sidebar ticket={ticket} live={live} onTrack={() => setMapOpen(true)} onMerge={() => setMergeOpen(true)} onChanged={() => { void load(); onChanged?.(); }} />
        </Grid.Col>
      </Grid>
      <MapModal ticket={ticket} opened={mapOpen} onClose={() => setMapOpen(false)} onSnapshot={() => void load()} />
      <MergePicker target={ticket} opened={mergeOpen} onClose={() => setMergeOpen(false)} onMerged={(message) => { setMerged(message); void load(); }} />
    </Stack>
  );
}
