import { useCallback, useEffect, useState } from 'react';
import { TONE } from '../colors';
import { Alert, Badge, Checkbox, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useInterval } from '@mantine/hooks';
import { Link } from 'wouter';
// The lists alone, not the package's index: the page bundle takes no schema library.
import { SETTABLE_TICKET_STATUSES } from '@crm/contracts/src/ticket-lists';
import { api, ApiError } from '../api';
import { countdown, isBreached } from '../format';
import { useLiveUpdates } from '../live';
import type { Ticket } from '../types';

interface Filters {
  queue: string;
  folder: string;
  status: string;
  assignee: string;
  breached: boolean;
}


function useTickets(filters: Filters) {
  const [items, setItems] = useState<Ticket[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    const query = new URLSearchParams({ limit: '100' });
    for (const key of ['queue', 'folder', 'status'] as const) if (filters[key]) query.set(key, filters[key]);
    try {
      setItems((await api<{ items: Ticket[] }>('GET', `/api/tickets?${query}`)).items);
      setError(null);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'the tickets could not be read');
    }
  }, [filters]);
  useEffect(() => {
    void load();
  }, [load]);
  return { items, error, load };
}

function SlaCell({ ticket, now }: { ticket: Ticket; now: number }) {
  const first = ticket.sla.firstRespondedAt ? null : countdown(ticket.sla.firstResponseDueAt, now);
  const resolution = countdown(ticket.sla.resolutionDueAt, now);
  return (
    <Stack gap={2}>
      {first && <Text size="xs" c={first.breached ? 'red.9' : undefined}>First response {first.label}</Text>}
      {resolution && <Text size="xs" c={resolution.breached ? 'red.9' : undefined}>Resolution {resolution.label}</Text>}
    </Stack>
  );
}

function FilterBar({ filters, onChange }: { filters: Filters; onChange: (next: Filters) => void }) {
  const set = (key: keyof Filters) => (value: string | boolean | null) => onChange({ ...filters, [key]: value ?? '' });
  return (
    <Group align="end">
      <TextInput label="Queue" value={filters.queue} onChange={(e) => set('queue')(e.currentTarget.value)} />
      <TextInput label="Folder" value={filters.folder} onChange={(e) => set('folder')(e.currentTarget.value)} />
      <Select label="Status" data={[...SETTABLE_TICKET_STATUSES]} value={filters.status || null} onChange={set('status')} clearable placeholder="any" />
      <TextInput label="Assignee" value={filters.assignee} onChange={(e) => set('assignee')(e.currentTarget.value)} />
      <Checkbox label="SLA breached only" checked={filters.breached} onChange={(e) => set('breached')(e.currentTarget.checked)} />
    </Group>
  );
}

export function Inbox() {
  const [filters, setFilters] = useState<Filters>({ queue: '', folder: '', status: '', assignee: '', breached: false });
  const { items, error, load } = useTickets(filters);
  const mode = useLiveUpdates(() => void load());
  const [now, setNow] = useState(Date.now());
  const ticker = useInterval(() => setNow(Date.now()), 15_000);
  useEffect(() => {
    ticker.start();
    return ticker.stop;
  }, [ticker]);
  const shown = items.filter((t) => (!filters.assignee || (t.assignee ?? '').includes(filters.assignee)) && (!filters.breached || isBreached(t, now)));
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Inbox</Title>
        <Badge color={mode === 'live' ? TONE.good : TONE.neutral} data-testid="live-mode">
          {mode === 'live' ? 'Live' : mode === 'polling' ? 'Refreshing every few seconds' : 'Connecting'}
        </Badge>
      </Group>
      <FilterBar filters={filters} onChange={setFilters} />
      {error && <Alert color="red" role="alert">{error}</Alert>}
      <Table striped highlightOnHover aria-label="Tickets">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Subject</Table.Th>
            <Table.Th>From</Table.Th>
            <Table.Th>Queue / folder</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Assignee</Table.Th>
            <Table.Th>SLA</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map((ticket) => (
            <Table.Tr key={ticket.id} data-testid="ticket-row">
              <Table.Td>
                <Link href={`/tickets/${ticket.id}`}>{ticket.subject || '(no subject)'}</Link>
              </Table.Td>
              <Table.Td>@{ticket.contact?.screenName ?? '?'}</Table.Td>
              <Table.Td data-testid="ticket-queue">
                {ticket.queue} / {ticket.folder}
              </Table.Td>
              <Table.Td>{ticket.status}</Table.Td>
              <Table.Td>{ticket.assignee ?? '—'}</Table.Td>
              <Table.Td>
                <SlaCell ticket={ticket} now={now} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {shown.length === 0 && <Text>No tickets match.</Text>}
    </Stack>
  );
}
