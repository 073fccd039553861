import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Checkbox, Group, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import { ApiError } from '../api';
import { done, ok, ticketing } from '../client';
import { TONE } from '../colors';
import { when } from '../format';
import { useAction } from '../useAction';
import type { TicketSummary } from '../types';

const customerOf = (ticket: TicketSummary) => (ticket.contact?.screenName ? `@${ticket.contact.screenName}` : 'an unknown customer');
const sameCustomer = (a: TicketSummary, b: TicketSummary) => Boolean(a.contact?.id) && a.contact?.id === b.contact?.id;

/** This account's tickets that can merge into `target` (not itself, not merged already), searched by customer or text in ticketing. */
function useCandidates(target: TicketSummary, query: string, opened: boolean) {
  const [items, setItems] = useState<TicketSummary[]>([]);
  // The query the items answer: until the latest one's answer arrives, the list shown is stale.
  const [answered, setAnswered] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!opened) return;
    const q = query.trim() || undefined;
    let current = true;
    // Searching as the agent types: wait for a pause.
    const timer = setTimeout(() => {
      ok(ticketing.GET('/v1/tickets', { params: { query: { accountId: target.accountId, status: 'open,pending,resolved,closed', limit: 20, q } } }))
        .then(({ items: found }) => current && (setItems(found.filter((ticket) => ticket.id !== target.id)), setAnswered(q ?? ''), setProblem(null)))
        .catch((error: unknown) => current && (setAnswered(q ?? ''), setProblem(error instanceof ApiError ? error.message : 'the tickets could not be read')));
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [target.accountId, target.id, query, opened]);
  return { items, searching: answered !== query.trim(), problem };
}

function Candidate({ ticket, target, checked, onToggle }: { ticket: TicketSummary; target: TicketSummary; checked: boolean; onToggle: () => void }) {
  return (
    <Paper withBorder p="xs" data-testid="merge-candidate">
      <Checkbox
        checked={checked}
        onChange={onToggle}
        label={
          <Stack gap={0}>
            <Text size="sm" fw={600}>{ticket.subject || '(no subject)'}</Text>
            <Text size="xs">
              {customerOf(ticket)} · {ticket.status} · last activity {when(ticket.lastActivityAt)}
              {!sameCustomer(ticket, target) && ' · another customer'}
            </Text>
          </Stack>
        }
      />
    </Paper>
  );
}

function MergePreview({ target, picked }: { target: TicketSummary; picked: TicketSummary[] }) {
  if (picked.length === 0) return null;
  const names = picked.map((ticket) => `“${ticket.subject || '(no subject)'}”`).join(', ');
  return (
    <Paper withBorder p="sm" data-testid="merge-preview">
      <Text size="sm" fw={600}>After the merge</Text>
      <Text size="sm">
        “{target.subject || '(no subject)'}” ({customerOf(target)}) takes the conversation{picked.length > 1 ? 's' : ''} of {names}; {picked.length > 1 ? 'those tickets are' : 'that ticket is'} marked merged. Replies go to the newest customer message. Until this ticket replies, the merge can be undone from its timeline.
      </Text>
      <Group gap="xs" mt="xs">
        {picked.map((ticket) => (
          <Badge key={ticket.id} color={sameCustomer(ticket, target) ? TONE.info : TONE.warn}>{customerOf(ticket)}</Badge>
        ))}
      </Group>
    </Paper>
  );
}

/**
 * Merges tickets of the same account into this one: search, pick, preview, confirm. The
 * confirmation says so when a picked ticket is another customer's.
 */
export function MergePicker({ target, opened, onClose, onMerged }: { target: TicketSummary; opened: boolean; onClose: () => void; onMerged: (message: string) => void }) {
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<TicketSummary[]>([]);
  const [confirming, setConfirming] = useState(false);
  const { items, searching, problem: listProblem } = useCandidates(target, query, opened);
  const mergeable = items.filter((ticket) => ticket.status !== 'merged' && !ticket.mergedInto);
  const { problem, busy, act } = useAction(() => undefined);
  const others = picked.filter((ticket) => !sameCustomer(ticket, target));
  const close = () => {
    setPicked([]);
    setConfirming(false);
    setQuery('');
    onClose();
  };
  const toggle = (ticket: TicketSummary) => {
    setConfirming(false);
    setPicked((current) => (current.some((t) => t.id === ticket.id) ? current.filter((t) => t.id !== ticket.id) : [...current, ticket]));
  };
  const merge = async () => {
    if (await act('merge', () => done(ticketing.POST('/v1/tickets/{id}/merge', { params: { path: { id: target.id } }, body: { sourceIds: picked.map((ticket) => ticket.id) } })))) {
      onMerged(`Merged into this ticket: ${picked.map((ticket) => `“${ticket.subject || '(no subject)'}” (${customerOf(ticket)})`).join(', ')}.`);
      close();
    }
  };
  return (
    <Modal opened={opened} onClose={close} title="Merge tickets into this one" size="lg" closeButtonProps={{ 'aria-label': 'Close the merge' }}>
      <Stack data-testid="merge-picker">
        <TextInput label="Search this account's tickets" description="By customer (screen name or name) or by text" value={query} onChange={(e) => setQuery(e.currentTarget.value)} data-autofocus />
        {listProblem && <Alert color="red" role="alert">{listProblem}</Alert>}
        <Stack gap="xs" role="group" aria-label="Tickets that can be merged" aria-busy={searching}>
          {mergeable.length === 0 && <Text size="sm">No ticket to merge{query ? ` matches “${query}”` : ''}.</Text>}
          {mergeable.map((ticket) => (
            <Candidate key={ticket.id} ticket={ticket} target={target} checked={picked.some((t) => t.id === ticket.id)} onToggle={() => toggle(ticket)} />
          ))}
        </Stack>
        <MergePreview target={target} picked={picked} />
        {confirming && others.length > 0 && (
          <Alert color={TONE.warn} title="Different customers" role="alert" data-testid="merge-customers-differ">
            {others.map(customerOf).join(', ')} {others.length > 1 ? 'are not' : 'is not'} {customerOf(target)}. Their conversations will be answered from this ticket. Merge anyway?
          </Alert>
        )}
        {problem && <Alert color="red" role="alert">{problem}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>Cancel</Button>
          {confirming || others.length === 0 ? (
            <Button color={others.length ? TONE.warn : undefined} onClick={() => void merge()} disabled={picked.length === 0} loading={busy === 'merge'}>
              {others.length ? 'Merge anyway' : `Merge ${picked.length || ''} ticket${picked.length === 1 ? '' : 's'}`.replace('  ', ' ')}
            </Button>
          ) : (
            <Button onClick={() => setConfirming(true)}>Merge {picked.length} ticket{picked.length === 1 ? '' : 's'}…</Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
