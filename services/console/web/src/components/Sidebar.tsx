import { useEffect, useState } from 'react';
import { Anchor, Avatar, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { ApiError } from '../api';
import { consoleApi, ok, ticketing } from '../client';
import { TONE } from '../colors';
import { when } from '../format';
import type { PlatformUser, TicketDetail, TicketSummary } from '../types';
import { AccountActions } from './AccountActions';
import { OrderCard } from './OrderCard';
import { OrderLinkForm, TicketFields } from './TicketActions';
import type { LiveState } from './OrderCard';

function CustomerCard({ ticket }: { ticket: TicketDetail }) {
  const [user, setUser] = useState<PlatformUser | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    ok(consoleApi.GET('/api/tickets/{ticketId}/customer', { params: { path: { ticketId: ticket.id } } }))
      .then((answer) => current && setUser(answer.data))
      .catch((error: unknown) => current && setProblem(error instanceof ApiError && error.status !== 0 ? `The platform's profile is not available: ${error.message}` : "The platform's profile could not be read."));
    return () => {
      current = false;
    };
  }, [ticket.id]);
  const name = user?.name ?? ticket.contact?.name ?? null;
  return (
    <Paper withBorder p="sm" data-testid="customer-card" component="section" aria-labelledby="customer-heading">
      <Group gap="sm" wrap="nowrap">
        <Avatar alt="" color={TONE.info} radius="xl">{(name ?? ticket.contact?.screenName ?? '?').slice(0, 1).toUpperCase()}</Avatar>
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Title order={3} size="h5" id="customer-heading">{name ?? 'Customer'}</Title>
          <Text size="sm">@{ticket.contact?.screenName ?? 'unknown'}{user?.verified ? ' · verified' : ''}</Text>
        </Stack>
      </Group>
      {user?.description && <Text size="sm" mt="xs">{user.description}</Text>}
      {user && (
        <Text size="xs" mt={4}>
          {[user.location, user.followers_count !== undefined ? `${user.followers_count.toLocaleString()} followers` : null, user.created_at ? `on the platform since ${new Date(user.created_at).toLocaleDateString()}` : null].filter(Boolean).join(' · ')}
        </Text>
      )}
      {problem && <Text size="xs" mt={4}>{problem}</Text>}
    </Paper>
  );
}

/** The customer's other tickets on this account: ticketing's list of the ticket's contact, every status. */
function OtherTickets({ ticket }: { ticket: TicketDetail }) {
  const [items, setItems] = useState<TicketSummary[] | null>(null);
  const contactId = ticket.contact?.id;
  useEffect(() => {
    if (!contactId) {
      setItems([]);
      return;
    }
    let current = true;
    const query = { accountId: ticket.accountId, contactId, status: 'open,pending,resolved,closed,merged', limit: 21 };
    ok(ticketing.GET('/v1/tickets', { params: { query } }))
      .then(({ items: found }) => current && setItems(found.filter((other) => other.id !== ticket.id).slice(0, 20)))
      .catch(() => current && setItems([]));
    return () => {
      current = false;
    };
  }, [ticket.id, ticket.accountId, contactId]);
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="other-tickets-heading" data-testid="other-tickets">
      <Title order={3} size="h6" id="other-tickets-heading">Other tickets of this customer</Title>
      {items === null && <Text size="sm">…</Text>}
      {items?.length === 0 && <Text size="sm">None.</Text>}
      <Stack gap={4} mt={4}>
        {items?.map((other) => (
          <Group key={other.id} gap="xs" justify="space-between" wrap="nowrap">
            <Anchor component={Link} href={`/tickets/${other.id}`} size="sm" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              {other.subject || '(no subject)'}
            </Anchor>
            <Badge size="sm" color={TONE.neutral} title={`last activity ${when(other.lastActivityAt)}`} style={{ flexShrink: 0 }}>{other.status}</Badge>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}

/** The context beside the conversation: who the customer is, their other tickets, the order, the ticket's fields. */
export function Sidebar({ ticket, live, onTrack, onMerge, onChanged }: { ticket: TicketDetail; live: LiveState; onTrack: () => void; onMerge: () => void; onChanged: () => void }) {
  return (
    <Stack gap="sm" component="aside" aria-label="Customer and order" data-testid="ticket-sidebar">
      <CustomerCard ticket={ticket} />
      <OrderCard ticket={ticket} live={live} onTrack={onTrack} onChanged={onChanged} />
      <OtherTickets ticket={ticket} />
      <AccountActions ticket={ticket} onMerge={onMerge} onDone={onChanged} />
      <TicketFields key={ticket.updatedAt} ticket={ticket} onChanged={onChanged} />
      <OrderLinkForm key={`order-${ticket.order?.taskId ?? ''}`} ticket={ticket} onChanged={onChanged} />
    </Stack>
  );
}
