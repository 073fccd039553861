import { useState } from 'react';
import { Alert, Button, Fieldset, Select, Stack, TextInput } from '@mantine/core';
// The lists alone, not the package's index: the page bundle takes no schema library.
import { SETTABLE_TICKET_STATUSES, TICKET_PRIORITIES } from '@crm/contracts/src/ticket-lists';
import { useAction } from '../useAction';
import { done, ticketing, type TicketingSchemas } from '../client';
import type { Priority, TicketDetail } from '../types';

type Draft = { status: TicketDetail['status']; assignee: string; team: string; priority: Priority | ''; queue: string; folder: string };

/** The change ticketing takes: an emptied assignee or team unassigns; no priority, or a merged ticket's status, is left as it is. */
function changeOf(draft: Draft): TicketingSchemas['TicketChange'] {
  const change: TicketingSchemas['TicketChange'] = { assignee: draft.assignee || null, team: draft.team || null, queue: draft.queue, folder: draft.folder };
  if (draft.status !== 'merged') change.status = draft.status;
  if (draft.priority) change.priority = draft.priority;
  return change;
}
import { AgentPicker } from './AgentPicker';
import { TeamPicker } from './TeamPicker';

export function TicketFields({ ticket, onChanged }: { ticket: TicketDetail; onChanged: () => void }) {
  const [draft, setDraft] = useState<Draft>({ status: ticket.status, assignee: ticket.assignee ?? '', team: ticket.team ?? '', priority: ticket.priority ?? '', queue: ticket.queue, folder: ticket.folder });
  const { problem, busy, act } = useAction(onChanged);
  const save = () => void act('update', () => done(ticketing.PATCH('/v1/tickets/{id}', { params: { path: { id: ticket.id } }, body: changeOf(draft) })));
  return (
    <Fieldset legend="Ticket">
      <Stack gap="xs">
        <Select label="Status" data={[...SETTABLE_TICKET_STATUSES]} value={draft.status} onChange={(v) => setDraft({ ...draft, status: (v as Draft['status'] | null) ?? draft.status })} />
        <AgentPicker id="ticket-assignee" value={draft.assignee} onChange={(assignee) => setDraft({ ...draft, assignee })} />
        <TeamPicker value={draft.team} onChange={(team) => setDraft({ ...draft, team })} />
        <Select label="Priority" data={[...TICKET_PRIORITIES]} value={draft.priority || null} onChange={(v) => setDraft({ ...draft, priority: (v as Priority | null) ?? '' })} clearable />
        <TextInput label="Queue" value={draft.queue} onChange={(e) => setDraft({ ...draft, queue: e.currentTarget.value })} />
        <TextInput label="Folder" value={draft.folder} onChange={(e) => setDraft({ ...draft, folder: e.currentTarget.value })} />
        <Button variant="outline" onClick={save} loading={busy === 'update'}>Update ticket</Button>
      </Stack>
      {problem && <Alert mt="xs" color="red" role="alert" data-testid="ticket-update-problem">{problem}</Alert>}
    </Fieldset>
  );
}

export function OrderLinkForm({ ticket, onChanged }: { ticket: TicketDetail; onChanged: () => void }) {
  const [clientId, setClientId] = useState(ticket.order?.clientId ?? '');
  const [taskId, setTaskId] = useState(ticket.order?.taskId ?? '');
  const { problem, busy, act } = useAction(onChanged);
  return (
    <Fieldset legend="Link an order">
      <Stack gap="xs">
        <TextInput label="Tracking client" value={clientId} onChange={(e) => setClientId(e.currentTarget.value)} />
        <TextInput label="Task id" value={taskId} onChange={(e) => setTaskId(e.currentTarget.value)} />
        <Button variant="outline" onClick={() => void act('link', () => done(ticketing.PUT('/v1/tickets/{id}/order', { params: { path: { id: ticket.id } }, body: { clientId, taskId } })))} loading={busy === 'link'}>
          Link order
        </Button>
      </Stack>
      {problem && <Alert mt="xs" color="red" role="alert">{problem}</Alert>}
    </Fieldset>
  );
}
