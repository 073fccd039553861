import { useCallback, useEffect, useState } from 'react';
import { TONE } from '../colors';
import { Alert, Badge, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { api, ApiError } from '../api';
import { countdown } from '../format';
import { useLiveUpdates } from '../live';
import { MapModal } from '../components/MapModal';
import { Presence } from '../components/Presence';
import { ConversationState, Timeline } from '../components/Timeline';
import { NoteAndMerge, OrderLinkForm, ReplyBox, TicketFields } from '../components/TicketActions';
import type { Ticket } from '../types';

function useTicket(id: string) {
  const [ticket, setTicket] = useState<Ticket | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setTicket(await api<Ticket>('GET', `/api/tickets/${encodeURIComponent(id)}`));
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

function Header({ ticket }: { ticket: Ticket }) {
  const now = Date.now();
  const first = ticket.sla.firstRespondedAt ? null : countdown(ticket.sla.firstResponseDueAt, now);
  const resolution = countdown(ticket.sla.resolutionDueAt, now);
  return (
    <Stack gap={4}>
      <Title order={2}>{ticket.subject || '(no subject)'}</Title>
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

function OrderSummary({ ticket, onTrack }: { ticket: Ticket; onTrack: () => void }) {
  if (!ticket.order) return null;
  const tracking = ticket.order.tracking;
  return (
    <Group data-testid="order-summary">
      <Text size="sm">
        Order {ticket.order.taskId} ({ticket.order.clientId}){tracking && tracking.available === false ? `: ${tracking.message ?? tracking.reason}` : ''}
      </Text>
      <Button onClick={onTrack}>Track order</Button>
    </Group>
  );
}

export function TicketView({ id, embedded = false }: { id: string; embedded?: boolean }) {
  const { ticket, error, load } = useTicket(id);
  const [mapOpen, setMapOpen] = useState(false);
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
  if (error) return <Alert color="red" role="alert">{error}</Alert>;
  if (!ticket) return <Loader aria-label="Loading the ticket" />;
  return (
    <Stack p={embedded ? 'md' : 0} data-testid="ticket-view">
      {embedded && <Title order={1} size="h5">Support console (embedded)</Title>}
      <Header ticket={ticket} />
      <Presence ticketId={ticket.id} />
      <ConversationState ticket={ticket} />
      <OrderSummary ticket={ticket} onTrack={() => setMapOpen(true)} />
      <Timeline activities={ticket.activities ?? []} />
      <ReplyBox ticket={ticket} onSent={() => void load()} />
      <TicketFields key={ticket.updatedAt} ticket={ticket} onChanged={() => void load()} />
      <NoteAndMerge ticket={ticket} onChanged={() => void load()} />
      <OrderLinkForm key={`order-${ticket.order?.taskId ?? ''}`} ticket={ticket} onChanged={() => void load()} />
      <MapModal ticket={ticket} opened={mapOpen} onClose={() => setMapOpen(false)} onSnapshot={() => void load()} />
    </Stack>
  );
}
