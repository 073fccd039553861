import { useState } from 'react';
import { Alert, Button, Fieldset, Group, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { api, ApiError } from '../api';
import type { Ticket } from '../types';

/** Runs a write and reports its error cleanly (including endpoints ticketing does not have yet). */
function useAction(onDone: () => void) {
  const [problem, setProblem] = useState<string | null>(null);
  const run = async (method: string, path: string, body: unknown) => {
    setProblem(null);
    try {
      await api(method, path, body);
      onDone();
      return true;
    } catch (caught) {
      const error = caught instanceof ApiError ? caught : null;
      setProblem(error?.status === 404 && error.code === 'not_found' ? 'This action is not available yet (ticketing does not offer it).' : (error?.message ?? 'the action failed'));
      return false;
    }
  };
  return { problem, run };
}

export function ReplyBox({ ticket, onSent }: { ticket: Ticket; onSent: () => void }) {
  const [text, setText] = useState('');
  const { problem, run } = useAction(onSent);
  const send = async () => {
    if (await run('POST', `/api/tickets/${ticket.id}/replies`, { text })) setText('');
  };
  return (
    <Stack gap="xs">
      <Textarea label="Reply" value={text} onChange={(e) => setText(e.currentTarget.value)} autosize minRows={2} />
      <Group>
        <Button onClick={() => void send()} disabled={!text.trim()}>
          Send reply
        </Button>
      </Group>
      {problem && <Alert color="red" role="alert">{problem}</Alert>}
    </Stack>
  );
}

export function TicketFields({ ticket, onChanged }: { ticket: Ticket; onChanged: () => void }) {
  const [draft, setDraft] = useState({ status: ticket.status, assignee: ticket.assignee ?? '', priority: ticket.priority ?? '', queue: ticket.queue, folder: ticket.folder });
  const { problem, run } = useAction(onChanged);
  const save = () => void run('PATCH', `/api/tickets/${ticket.id}`, { ...draft, assignee: draft.assignee || null, priority: draft.priority || null });
  return (
    <Fieldset legend="Ticket">
      <Group grow align="end">
        <Select label="Status" data={['open', 'pending', 'resolved', 'closed']} value={draft.status} onChange={(v) => setDraft({ ...draft, status: v ?? draft.status })} />
        <TextInput label="Assignee" value={draft.assignee} onChange={(e) => setDraft({ ...draft, assignee: e.currentTarget.value })} />
        <Select label="Priority" data={['low', 'normal', 'high', 'urgent']} value={draft.priority || null} onChange={(v) => setDraft({ ...draft, priority: v ?? '' })} clearable />
        <TextInput label="Queue" value={draft.queue} onChange={(e) => setDraft({ ...draft, queue: e.currentTarget.value })} />
        <TextInput label="Folder" value={draft.folder} onChange={(e) => setDraft({ ...draft, folder: e.currentTarget.value })} />
        <Button variant="outline" onClick={save}>Update ticket</Button>
      </Group>
      {problem && <Alert mt="xs" color="red" role="alert" data-testid="ticket-update-problem">{problem}</Alert>}
    </Fieldset>
  );
}

export function NoteAndMerge({ ticket, onChanged }: { ticket: Ticket; onChanged: () => void }) {
  const [note, setNote] = useState('');
  const [sources, setSources] = useState('');
  const { problem, run } = useAction(onChanged);
  const addNote = async () => {
    if (await run('POST', `/api/tickets/${ticket.id}/notes`, { text: note })) setNote('');
  };
  const merge = () => void run('POST', `/api/tickets/${ticket.id}/merge`, { sourceIds: sources.split(',').map((s) => s.trim()).filter(Boolean) });
  return (
    <Fieldset legend="Notes and merges">
      <Group grow align="end">
        <TextInput label="Internal note" value={note} onChange={(e) => setNote(e.currentTarget.value)} />
        <Button variant="outline" onClick={() => void addNote()} disabled={!note.trim()}>Add note</Button>
        <TextInput label="Merge tickets into this one (ids, comma-separated)" value={sources} onChange={(e) => setSources(e.currentTarget.value)} />
        <Button variant="outline" onClick={merge} disabled={!sources.trim()}>Merge</Button>
      </Group>
      {problem && <Alert mt="xs" color="red" role="alert">{problem}</Alert>}
    </Fieldset>
  );
}

export function OrderLinkForm({ ticket, onChanged }: { ticket: Ticket; onChanged: () => void }) {
  const [clientId, setClientId] = useState(ticket.order?.clientId ?? '');
  const [taskId, setTaskId] = useState(ticket.order?.taskId ?? '');
  const { problem, run } = useAction(onChanged);
  return (
    <Fieldset legend="Linked order">
      <Group grow align="end">
        <TextInput label="Tracking client" value={clientId} onChange={(e) => setClientId(e.currentTarget.value)} />
        <TextInput label="Task id" value={taskId} onChange={(e) => setTaskId(e.currentTarget.value)} />
        <Button variant="outline" onClick={() => void run('PUT', `/api/tickets/${ticket.id}/order`, { clientId, taskId })}>
          Link order
        </Button>
      </Group>
      {problem && <Alert mt="xs" color="red" role="alert">{problem}</Alert>}
    </Fieldset>
  );
}
