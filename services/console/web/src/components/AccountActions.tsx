import { useRef } from 'react';
import { Alert, Button, Group, Paper, Text, Title } from '@mantine/core';
import { newIdempotencyKey } from '../drafts';
import { useAction } from '../useAction';
import type { Ticket } from '../types';

const POST_ACTIONS = [
  { action: 'like', label: 'Like their post' },
  { action: 'repost', label: 'Repost' },
];
const USER_ACTIONS = [
  { action: 'follow', label: 'Follow' },
  { action: 'mute', label: 'Mute' },
  { action: 'block', label: 'Block' },
];

/**
 * What the agent does as the account from the ticket: ticketing sends it to the platform through
 * auth and shows it on the timeline. One key per click, reused if the same action is retried.
 */
export function AccountActions({ ticket, onMerge, onDone }: { ticket: Ticket; onMerge: () => void; onDone: () => void }) {
  const { problem, busy, run } = useAction(onDone);
  const keys = useRef(new Map<string, string>());
  const act = async (action: string) => {
    const key = keys.current.get(action) ?? newIdempotencyKey();
    keys.current.set(action, key);
    if (await run(action, 'POST', `/api/tickets/${ticket.id}/actions`, { action }, { 'idempotency-key': key })) keys.current.delete(action);
  };
  const actions = ticket.channel === 'dm' ? USER_ACTIONS : [...POST_ACTIONS, ...USER_ACTIONS];
  const customer = ticket.contact?.screenName ? `@${ticket.contact.screenName}` : 'the customer';
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="on-behalf-heading">
      <Title order={3} size="h6" id="on-behalf-heading">On behalf of the account</Title>
      <Text size="xs">Towards {customer}, as the account; the result shows on the timeline.</Text>
      <Group gap="xs" mt={4}>
        {actions.map(({ action, label }) => (
          <Button key={action} size="compact-sm" variant="default" onClick={() => void act(action)} loading={busy === action} disabled={busy !== null && busy !== action}>
            {label}
          </Button>
        ))}
        <Button size="compact-sm" variant="outline" onClick={onMerge}>Merge tickets…</Button>
      </Group>
      {problem && <Alert mt="xs" color="red" role="alert">{problem}</Alert>}
    </Paper>
  );
}
