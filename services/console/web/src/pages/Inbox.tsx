import { useEffect, useRef, useState } from 'react';
import { ActionIcon, Alert, Badge, Box, Group, Select, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useInterval } from '@mantine/hooks';
import { Link } from 'wouter';
import { TONE } from '../colors';
import { countdown, isBreached } from '../format';
import type { TicketSummary } from '../types';
import { orderChipWords, orderStatusTone } from '../orders';
import { orderLinkWords } from '../trackingWords';
import { isUnread } from '../workspace/seen';
import { useShortcut } from '../workspace/shortcuts';
import { PRIORITIES, STATUS_CHOICES, ticketHref, type WorkspaceState } from '../workspace/location';

const STATUS_LABELS: Record<string, string> = { 'open,pending': 'Open and pending', open: 'Open', pending: 'Pending', resolved: 'Resolved', closed: 'Closed' };
const PRIORITY_TONE: Record<string, string> = { urgent: TONE.bad, high: TONE.warn, normal: TONE.neutral, low: TONE.neutral };

/** "14:05" today, "Tue 14:05" this week, else the date: when the conversation last moved. */
function received(iso: string, now: number): string {
  const at = new Date(iso);
  const days = (now - at.getTime()) / 86_400_000;
  if (new Date(now).toDateString() === at.toDateString()) return at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  if (days < 6) return at.toLocaleString([], { weekday: 'short', hour: '2-digit', minute: '2-digit' });
  return at.toLocaleDateString([], { dateStyle: 'medium' });
}

function SlaChip({ ticket, now }: { ticket: TicketSummary; now: number }) {
  if (ticket.status === 'resolved' || ticket.status === 'closed' || ticket.status === 'merged') return null;
  if (ticket.sla.breached || isBreached(ticket, now)) return <Badge size="xs" color={TONE.bad}>SLA breached</Badge>;
  const due = ticket.sla.firstRespondedAt ? ticket.sla.resolutionDueAt : ticket.sla.firstResponseDueAt;
  const left = countdown(due, now);
  if (!left) return null;
  return (
    <Badge size="xs" color={ticket.sla.atRisk ? TONE.warn : TONE.good}>
      {ticket.sla.firstRespondedAt ? 'Resolve' : 'Reply'} {left.label}
    </Badge>
  );
}

/**
 * The linked order: its number, its delivery status in an agent's words and colour, and the ETA
 * on the agent's clock; or why tracking cannot show it when it cannot.
 */
function OrderChip({ order }: { order: TicketSummary['order'] }) {
  if (!order) return null;
  const problem = order.status ? null : orderLinkWords(order.tracking);
  const color = order.status ? orderStatusTone(order.status) : order.tracking.available === false ? TONE.warn : TONE.info;
  const words = problem ? `Order ${order.taskId}: ${problem}` : orderChipWords(order);
  return (
    <Badge size="xs" color={color} title={`${words} (${order.clientId})`} data-testid="order-chip" data-status={order.status ?? ''} style={{ maxWidth: '100%' }}>
      {words}
    </Badge>
  );
}

function Row({ ticket, state, selected, cursor, accountName, now }: { ticket: TicketSummary; state: WorkspaceState; selected: boolean; cursor: boolean; accountName: string; now: number }) {
  const unread = !selected && isUnread(ticket);
  const customer = ticket.contact?.name || (ticket.contact?.screenName ? `@${ticket.contact.screenName}` : 'Unknown customer');
  return (
    <Box
      className="ws-row"
      data-selected={selected || undefined}
      data-cursor={cursor || undefined}
      data-unread={unread || undefined}
      data-testid="ticket-row"
      data-ticket-id={ticket.id}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          {unread && <span className="ws-unread" aria-hidden="true" />}
          {unread && <VisuallyHidden>Unread:</VisuallyHidden>}
          {/* The link covers the whole row (.ws-row-link::after), so a click anywhere opens it. */}
          <Link href={ticketHref(ticket.id, state)} className="ws-row-link" aria-current={selected ? 'page' : undefined}>
            <Text component="span" fw={unread ? 700 : 600} size="sm" truncate="end" display="block">
              {customer}
            </Text>
          </Link>
        </Group>
        <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
          <time dateTime={ticket.lastActivityAt}>{received(ticket.lastActivityAt, now)}</time>
        </Text>
      </Group>
      <Text size="xs" c="dimmed" truncate="end">
        {ticket.contact?.name && ticket.contact.screenName ? `@${ticket.contact.screenName} · ` : ''}
        {accountName} · {ticket.channel === 'dm' ? 'DM' : 'Public'} ·{' '}
        <span data-testid="ticket-queue">
          {ticket.queue} / {ticket.folder}
        </span>
      </Text>
      <Text size="sm" lineClamp={2} className="ws-snippet">
        {ticket.snippet ?? ticket.subject ?? ''}
      </Text>
      <Group gap={4} mt={4}>
        {ticket.priority !== 'normal' && (
          <Badge size="xs" color={PRIORITY_TONE[ticket.priority] ?? TONE.neutral}>
            {ticket.priority}
          </Badge>
        )}
        {ticket.status !== 'open' && (
          <Badge size="xs" color={TONE.neutral}>
            {ticket.status}
          </Badge>
        )}
        <SlaChip ticket={ticket} now={now} />
        <OrderChip order={ticket.order} />
        {ticket.assignee && (
          <Text size="xs" c="dimmed">
            {ticket.assignee}
          </Text>
        )}
      </Group>
    </Box>
  );
}

export interface InboxProps {
  title: string;
  state: WorkspaceState;
  tickets: TicketSummary[] | null;
  error: string | null;
  selectedId: string | null;
  /** accountId → what agents call it (page name or @screen name). */
  accountNames: Map<string, string>;
  live: 'connecting' | 'live' | 'polling';
  onChange: (next: Partial<WorkspaceState>) => void;
  onOpen: (id: string) => void;
}

/** j/k move a mark through the list, Enter or o opens the marked conversation, / goes to the search. */
function useListKeys(items: TicketSummary[], selectedId: string | null, onOpen: (id: string) => void) {
  const [cursor, setCursor] = useState<string | null>(selectedId);
  useEffect(() => setCursor(selectedId), [selectedId]);
  const list = useRef<HTMLDivElement>(null);
  const move = (step: number) => {
    if (items.length === 0) return;
    const at = items.findIndex((t) => t.id === cursor);
    const next = items[Math.min(items.length - 1, Math.max(0, at === -1 ? 0 : at + step))]!;
    setCursor(next.id);
    list.current?.querySelector<HTMLElement>(`[data-ticket-id="${next.id}"]`)?.scrollIntoView({ block: 'nearest' });
  };
  const openCursor = () => cursor && onOpen(cursor);
  useShortcut('j', 'Next conversation in the list', 'List', () => move(1));
  useShortcut('k', 'Previous conversation in the list', 'List', () => move(-1));
  useShortcut('Enter', 'Open the conversation marked in the list', 'List', openCursor);
  useShortcut('o', 'Open the conversation marked in the list', 'List', openCursor);
  useShortcut('/', 'Search the conversations', 'List', () => document.getElementById('ws-search')?.focus());
  return { cursor, list };
}

function ListHead({ title, state, live, onChange }: Pick<InboxProps, 'title' | 'state' | 'live' | 'onChange'>) {
  const [search, setSearch] = useState(state.q);
  useEffect(() => setSearch(state.q), [state.q]);
  return (
    <Stack gap="xs" p="sm" className="ws-list-head">
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <Title order={2} size="h4" lineClamp={1}>
            {title}
          </Title>
        </Group>
        <Badge color={live === 'live' ? TONE.good : TONE.neutral} data-testid="live-mode" style={{ flexShrink: 0 }}>
          {live === 'live' ? 'Live' : live === 'polling' ? 'Refreshing' : 'Connecting'}
        </Badge>
      </Group>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          onChange({ q: search.trim() });
        }}
      >
        <TextInput
          id="ws-search"
          aria-label="Search conversations"
          placeholder="Search text, then Enter"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          rightSection={
            state.q ? (
              <ActionIcon variant="subtle" color="dark" aria-label="Clear the search" onClick={() => onChange({ q: '' })}>
                ×
              </ActionIcon>
            ) : null
          }
        />
      </form>
      <Group gap="xs" grow>
        <Select aria-label="Status" data={STATUS_CHOICES.map((value) => ({ value, label: STATUS_LABELS[value]! }))} value={state.status} onChange={(value) => onChange({ status: value ?? 'open,pending' })} allowDeselect={false} data-testid="status-filter" />
        <Select aria-label="Priority" placeholder="Any priority" data={PRIORITIES.map((value) => ({ value, label: value }))} value={state.priority || null} onChange={(value) => onChange({ priority: value ?? '' })} clearable data-testid="priority-filter" />
      </Group>
    </Stack>
  );
}

/** The conversation list: the view's tickets, newest activity first, every filter applied by ticketing. */
export function Inbox({ title, state, tickets, error, selectedId, accountNames, live, onChange, onOpen }: InboxProps) {
  const [now, setNow] = useState(Date.now());
  const ticker = useInterval(() => setNow(Date.now()), 15_000);
  useEffect(() => {
    ticker.start();
    return ticker.stop;
  }, [ticker]);
  const items = tickets ?? [];
  const { cursor, list } = useListKeys(items, selectedId, onOpen);
  return (
    <Stack gap={0} h="100%" className="ws-list" data-testid="conversation-list">
      <ListHead title={title} state={state} live={live} onChange={onChange} />
      {error && (
        <Alert color="red" role="alert" m="sm">
          {error}
        </Alert>
      )}
      <Box ref={list} className="ws-scroll" aria-label="Conversations" role="region" tabIndex={0}>
        {items.map((ticket) => (
          <Row key={ticket.id} ticket={ticket} state={state} selected={ticket.id === selectedId} cursor={ticket.id === cursor && ticket.id !== selectedId} accountName={accountNames.get(ticket.accountId) ?? `account ${ticket.accountId}`} now={now} />
        ))}
        {tickets !== null && items.length === 0 && (
          <Text p="md" c="dimmed">
            No conversations match.
          </Text>
        )}
      </Box>
    </Stack>
  );
}
