import { useRef } from 'react';
import { Alert, Button, Group, Paper, Text, Title } from '@mantine/core';
import { newIdempotencyKey } from '../drafts';
import { useAction } from '../useAction';
import { done, ticketing } from '../client';
import type { paths } from '../generated/ticketing';
import type { TicketDetail } from '../types';

type Action = paths['/v1/tickets/{id}/actions']['post']['requestBody']['content']['application/json']['action'];

const POST_ACTIONS: { action: Action; label: string }[] = [
  { action: 'like', label: 'Like their post' },
  { action: 'repost', label: 'Repost' },
];
const USER_ACTIONS: { action: Action; label: string }[] = [
  { action: 'follow', label: 'Follow' },
  { action: 'mute', label: 'Mute' },
  { action: 'block', label: 'Block' },
];

/**
 * What the agent does as the account from the ticket: ticketing sends it to the platform through
 * auth and shows it on the timeline. One key per click, reused if the same action is retried.
 */
export function AccountActions({ ticket, onMerge, onDone }: { ticket: TicketDetail; onMerge: () => void; onDone: () => void }) {
  const { problem, busy, act } = useAction(onDone);
  const keys = useRef(new Map<string, string>());
  const actAs = async (action: Action) => {
    const key = keys.current.get(action) ?? newIdempotencyKey();
    keys.current.set(action, key);
    if (await act(action, () => done(ticketing.POST('/v1/tickets/{id}/actions', { params: { path: { id: ticket.id }, header: { 'Idempotency-Key': key } }, body: { action } })))) keys.current.delete(action);
  };
  const actions = ticket.channel === 'dm' ? USER_ACTIONS : [...POST_ACTIONS, ...USER_ACTIONS];
  const customer = ticket.contact?.screenName ? `@${ticket.contact.screenName}` : 'the customer';
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="on-behalf-heading">
      <Title order={3} size="h6" id="on-behalf-heading">On behalf of the account</Title>
      <Text size="xs">Towards {customer}, as the account; the result shows on the timeline.</Text>
      <Group gap="xs" mt={4}>
        {actions.map(({ action, label }) => (
          <Button key={action} size="compact-sm" variant="default" onClick={() => void actAs(action)} loading={busy === action} disabled={busy !== null && busy !== action}>
            {label}
          </Button>
        ))}
        <Button size="compact-sm" variant="outline" onClick={onMerge}>Merge tickets…</Button>
      </Group>
      {problem && <Alert mt="xs" color="red" role="alert">{problem}</Alert>}
    </Paper>
  );
}
