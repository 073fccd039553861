import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { TONE } from '../colors';
import { clock } from '../format';
import { useSession } from '../session';
import type { TicketDetail } from '../types';
import { LiveMap } from './LiveMap';
import { TRACKING_WORDS, taskStatusWords, trackingSentence } from '../trackingWords';
import type { useLiveView } from './MapModal';

export type LiveState = ReturnType<typeof useLiveView>;

/** The linked order beside the conversation: status, ETA, a small live map; Track order opens the full pop-up. */
export function OrderCard({ ticket, live, onTrack }: { ticket: TicketDetail; live: LiveState; onTrack: () => void }) {
  const { session } = useSession();
  if (!ticket.order) return null;
  const { view, problem } = live;
  const tracking = ticket.order.tracking;
  // Agent-facing words only: tracking's own messages are for integrators.
  const notice = problem ? (TRACKING_WORDS[problem.code]?.title ?? 'Tracking provider unavailable') : tracking && tracking.available === false ? trackingSentence(tracking.reason) : null;
  const etaMinutes = view?.eta ? Math.max(0, Math.round((Date.parse(view.eta.at) - Date.now()) / 60_000)) : null;
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="order-heading" data-testid="order-summary">
      <Group justify="space-between" wrap="nowrap">
        <Title order={3} size="h6" id="order-heading">
          Order {ticket.order.taskId} ({ticket.order.clientId})
        </Title>
        {view && <Badge color={TONE.info} data-testid="order-status">{taskStatusWords(view.status ?? 'unknown')}</Badge>}
      </Group>
      <Stack gap={4} mt={4}>
        {view?.eta && <Text size="sm" data-testid="order-eta">ETA {clock(view.eta.at)} ({etaMinutes} min){view.eta.approximate ? ', approximate' : ''}</Text>}
        {notice && <Text size="sm">{notice}</Text>}
        {view && !problem && session && view.rider && <LiveMap view={view} tileUrl={session.settings.tileUrl} attribution={session.settings.tileAttribution} height={160} compact />}
        <Button onClick={onTrack} variant="light">Track order</Button>
      </Stack>
    </Paper>
  );
}
