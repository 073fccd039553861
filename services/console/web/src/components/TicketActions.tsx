import { useRef, useState } from 'react';
import { Alert, Button, Fieldset, Group, Select, Stack, TextInput, Textarea } from '@mantine/core';
// The lists alone, not the package's index: the page bundle takes no schema library.
import { SETTABLE_TICKET_STATUSES, TICKET_PRIORITIES } from '@crm/contracts/src/ticket-lists';
import { api, ApiError } from '../api';
import type { Ticket } from '../types';

/**
 * Runs a write and reports its error cleanly (including endpoints ticketing does not have
 * yet). `busy` names the action running, so its button shows it and a second click waits.
 */
function useAction(onDone: () => void) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const running = useRef(false);
  const run = async (name: string, method: string, path: string, body: unknown, headers?: Record<string, string>) => {
    if (running.current) return false;
    running.current = true;
    setBusy(name);
    setProblem(null);
    try {
      await api(method, path, body, headers);
      onDone();
      return true;
    } catch (caught) {
      const error = caught instanceof ApiError ? caught : null;
      setProblem(error?.status === 404 && error.code === 'not_found' ? 'This action is not available yet (ticketing does not offer it).' : (error?.message ?? 'the action failed'));
      return false;
    } finally {
      running.current = false;
      setBusy(null);
    }
  };
  return { problem, busy, run };
}

/** A random key (getRandomValues: unlike randomUUID, available on a page served over plain http too). */
function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function ReplyBox({ ticket, onSent }: { ticket: Ticket; onSent: () => void }) {
  const [text, setText] = useState('');
  // One key per composed message, kept across retries: ticketing sends it once however often it is posted.
  const idempotencyKey = useRef(newIdempotencyKey());
  const { problem, busy, run } = useAction(onSent);
  const send = async () => {
    if (await run('reply', 'POST', `/api/tickets/${ticket.id}/replies`, { text }, { 'idempotency-key': idempotencyKey.current })) {
      setText('');
      idempotencyKey.current = newIdempotencyKey();
    }
  };
  return (
    <Stack gap="xs">
      <Textarea label="Reply" value={text} onChange={(e) => setText(e.currentTarget.value)} autosize minRows={2} />
      <Group>
        <Button onClick={() => void send()} disabled={!text.trim()} loading={busy === 'reply'}>
          Send reply
        </Button>
      </Group>
      {problem && <Alert color="red" role="alert">{problem}</Alert>}
    </Stack>
  );
}

export function TicketFields({ ticket, onChanged }: { ticket: Ticket; onChanged: () => void }) {
  const [draft, setDraft] = useState({ status: ticket.status, assignee: ticket.assignee ?? '', priority: ticket.priority ?? '', queue: ticket.queue, folder: ticket.folder });
  const { problem, busy, run } = useAction(onChanged);
  const save = () => void run('update', 'PATCH', `/api/tickets/${ticket.id}`, { ...draft, assignee: draft.assignee || null, priority: draft.priority || null });
  return (
    <Fieldset legend="Ticket">
      <Group grow align="end">
        <Select label="Status" data={[...SETTABLE_TICKET_STATUSES]} value={draft.status} onChange={(v) => setDraft({ ...draft, status: v ?? draft.status })} />
        <TextInput label="Assignee" value={draft.assignee} onChange={(e) => setDraft({ ...draft, assignee: e.currentTarget.value })} />
        <Select label="Priority" data={[...TICKET_PRIORITIES]} value={draft.priority || null} onChange={(v) => setDraft({ ...draft, priority: v ?? '' })} clearable />
        <TextInput label="Queue" value={draft.queue} onChange={(e) => setDraft({ ...draft, queue: e.currentTarget.value })} />
        <TextInput label="Folder" value={draft.folder} onChange={(e) => setDraft({ ...draft, folder: e.currentTarget.value })} />
        <Button variant="outline" onClick={save} loading={busy === 'update'}>Update ticket</Button>
      </Group>
      {problem && <Alert mt="xs" color="red" role="alert" data-testid="ticket-update-problem">{problem}</Alert>}
    </Fieldset>
  );
}

export function NoteAndMerge({ ticket, onChanged }: { ticket: Ticket; onChanged: () => void }) {
  const [note, setNote] = useState('');
  const [sources, setSources] = useState('');
  const { problem, busy, run } = useAction(onChanged);
  const addNote = async () => {
    if (await run('note', 'POST', `/api/tickets/${ticket.id}/notes`, { text: note })) setNote('');
  };
  const merge = () => void run('merge', 'POST', `/api/tickets/${ticket.id}/merge`, { sourceIds: sources.split(',').map((s) => s.trim()).filter(Boolean) });
  return (
    <Fieldset legend="Notes and merges">
      <Group grow align="end">
        <TextInput label="Internal note" value={note} onChange={(e) => setNote(e.currentTarget.value)} />
        <Button variant="outline" onClick={() => void addNote()} disabled={!note.trim()} loading={busy === 'note'}>Add note</Button>
        <TextInput label="Merge tickets into this one (ids, comma-separated)" value={sources} onChange={(e) => setSources(e.currentTarget.value)} />
        <Button variant="outline" onClick={merge} disabled={!sources.trim()} loading={busy === 'merge'}>Merge</Button>
      </Group>
      {problem && <Alert mt="xs" color="red" role="alert">{problem}</Alert>}
    </Fieldset>
  );
}

export function OrderLinkForm({ ticket, onChanged }: { ticket: Ticket; onChanged: () => void }) {
  const [clientId, setClientId] = useState(ticket.order?.clientId ?? '');
  const [taskId, setTaskId] = useState(ticket.order?.taskId ?? '');
  const { problem, busy, run } = useAction(onChanged);
  return (
    <Fieldset legend="Linked order">
      <Group grow align="end">
        <TextInput label="Tracking client" value={clientId} onChange={(e) => setClientId(e.currentTarget.value)} />
        <TextInput label="Task id" value={taskId} onChange={(e) => setTaskId(e.currentTarget.value)} />
        <Button variant="outline" onClick={() => void run('link', 'PUT', `/api/tickets/${ticket.id}/order`, { clientId, taskId })} loading={busy === 'link'}>
          Link order
        </Button>
      </Group>
      {problem && <Alert mt="xs" color="red" role="alert">{problem}</Alert>}
    </Fieldset>
  );
}
