import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { TONE } from '../colors';
import { done, ticketing } from '../client';
import { clock } from '../format';
import { isFinalStatus, linkedWords, orderStatusTone, orderStatusWords } from '../orders';
import { useSession } from '../session';
import { useAction } from '../useAction';
import type { TicketDetail } from '../types';
import { LiveMap } from './LiveMap';
import { TRACKING_WORDS, taskStatusWords, trackingSentence } from '../trackingWords';
import type { useLiveView } from './MapModal';

export type LiveState = ReturnType<typeof useLiveView>;

/** The status and ETA to show: ticketing's own record of the order first (it follows the order), else the live view's. */
function statusOf(order: NonNullable<TicketDetail['order']>, live: LiveState) {
  const view = live.view;
  if (order.status) return { words: orderStatusWords(order.status)!, color: orderStatusTone(order.status), eta: isFinalStatus(order.status) ? null : (order.eta ?? view?.eta?.at ?? null) };
  if (view) return { words: taskStatusWords(view.status ?? 'unknown'), color: TONE.info, eta: view.eta?.at ?? null };
  return null;
}

/** The linked order beside the conversation: status, ETA, how it was linked, a small live map; Track order opens the full pop-up. */
export function OrderCard({ ticket, live, onTrack, onChanged }: { ticket: TicketDetail; live: LiveState; onTrack: () => void; onChanged: () => void }) {
  const { session } = useSession();
  // Unlink: one click, busy while it runs; the ticket is read again after.
  const unlink = useAction(onChanged);
  if (!ticket.order) return null;
  const { view, problem } = live;
  const order = ticket.order;
  const tracking = order.tracking;
  // Agent-facing words only: tracking's own messages are for integrators.
  const notice = problem ? (TRACKING_WORDS[problem.code]?.title ?? 'Tracking provider unavailable') : tracking && tracking.available === false ? trackingSentence(tracking.reason) : null;
  const status = statusOf(order, live);
  const etaMinutes = status?.eta ? Math.max(0, Math.round((Date.parse(status.eta) - Date.now()) / 60_000)) : null;
  const linked = linkedWords(order);
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="order-heading" data-testid="order-summary">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={3} size="h6" id="order-heading" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
          Order {order.taskId} ({order.clientId})
        </Title>
        {status && (
          <Badge color={status.color} data-testid="order-status">
            {status.words}
          </Badge>
        )}
      </Group>
      <Stack gap={4} mt={4}>
        {status?.eta && (
          <Text size="sm" data-testid="order-eta">
            ETA {clock(status.eta)} ({etaMinutes} min){view?.eta?.approximate && !order.eta ? ', approximate' : ''}
          </Text>
        )}
        {linked && (
          <Text size="sm" data-testid="order-linked-by">
            {linked}
          </Text>
        )}
        {notice && <Text size="sm">{notice}</Text>}
        {view && !problem && session && view.rider && <LiveMap view={view} tileUrl={session.settings.tileUrl} attribution={session.settings.tileAttribution} height={160} compact />}
        <Group gap="xs">
          <Button onClick={onTrack} variant="light">
            Track order
          </Button>
          <Button
            variant="outline"
            color="red.9"
            loading={unlink.busy === 'unlink'}
            onClick={() => void unlink.act('unlink', () => done(ticketing.DELETE('/v1/tickets/{id}/order', { params: { path: { id: ticket.id } } })))}
          >
            Unlink
          </Button>
        </Group>
        {unlink.problem && (
          <Alert color="red" role="alert" data-testid="unlink-problem">
            {unlink.problem}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
