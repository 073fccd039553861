import { Button, Group, Paper, Text } from '@mantine/core';
import { done, ticketing } from '../client';
import { when } from '../format';
import { orderUpdateWords, suggestsResolve, type OrderUpdateData } from '../orders';
import { useAction } from '../useAction';
import type { Activity } from '../types';

/** A delivery van, drawn inline (the page loads no icon font); decorative: the entry's words say what happened. */
function DeliveryIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" style={{ flexShrink: 0 }}>
      <path d="M1 3h15v13H1z" />
      <path d="M16 8h4l3 3v5h-7z" />
      <circle cx="5.5" cy="18.5" r="2.5" />
      <circle cx="18.5" cy="18.5" r="2.5" />
    </svg>
  );
}

/**
 * What the order's tracking told the ticket (ticketing's `order_update`, in an agent's words),
 * as a system entry; when the order was delivered and the ticket is still pending, Resolve?
 * resolves it in one click (busy while it runs).
 */
export function OrderUpdateEntry({ activity, ticketId, ticketStatus, onChanged }: { activity: Activity; ticketId: string; ticketStatus: string; onChanged: () => void }) {
  const resolve = useAction(onChanged);
  const offer = suggestsResolve(activity, ticketStatus);
  return (
    <Paper p="xs" radius="sm" bg="gray.1" data-testid="activity" data-kind={activity.kind} data-status="" aria-label="Order update">
      <Group gap="xs" wrap="nowrap" align="start">
        <DeliveryIcon />
        <Text size="sm" style={{ flex: 1, minWidth: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {orderUpdateWords(activity.data as OrderUpdateData | null, activity.text ?? null)}
        </Text>
        <Text size="xs" style={{ flexShrink: 0 }}>
          {when(activity.occurredAt)}
        </Text>
      </Group>
      {offer && (
        <Group gap="xs" mt={4} ml={26}>
          <Button
            size="compact-sm"
            variant="outline"
            loading={resolve.busy === 'resolve'}
            onClick={() => void resolve.act('resolve', () => done(ticketing.PATCH('/v1/tickets/{id}', { params: { path: { id: ticketId } }, body: { status: 'resolved' } })))}
            data-testid="suggested-resolve"
          >
            Resolve?
          </Button>
          {resolve.problem && (
            <Text size="xs" c="red.9" role="alert">
              {resolve.problem}
            </Text>
          )}
        </Group>
      )}
    </Paper>
  );
}
