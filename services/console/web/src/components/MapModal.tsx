import { useCallback, useEffect, useState } from 'react';
import { TRACKING_WORDS, trackingSentence } from '../trackingWords';
import { TONE } from '../colors';
import { Alert, Badge, Button, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { ApiError } from '../api';
import { done, ok, ticketing, type TicketingSchemas } from '../client';
import { age, clock, distance, zoned } from '../format';
import { useSession } from '../session';
import type { LiveView, TicketDetail } from '../types';
import { LiveMap } from './LiveMap';

export type Problem = { code: string; message: string };

const FINISHED = ['COMPLETED', 'PARTIAL_COMPLETED', 'CANCELLED'];

/** Problems that leave nothing to draw (no such client or order, tracking turned off). */
const BLOCKING = ['client_not_found', 'client_disabled', 'task_not_found'];

/** The ticket's order as tracking sees it now, read again every `refreshMs`. */
export function useLiveView(ticketId: string, refreshMs: number, enabled = true) {
  const [view, setView] = useState<LiveView | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [loadedAt, setLoadedAt] = useState<number>(0);
  const load = useCallback(async () => {
    try {
      setView(await ok(ticketing.GET('/v1/tickets/{id}/order/live', { params: { path: { id: ticketId } } })));
      setProblem(null);
      setLoadedAt(Date.now());
    } catch (caught) {
      const error = caught instanceof ApiError ? caught : new ApiError(0, 'error', 'tracking could not be read');
      setProblem({ code: error.code, message: error.message });
    }
  }, [ticketId]);
  useEffect(() => {
    if (!enabled) return;
    void load();
    const timer = setInterval(() => void load(), refreshMs);
    return () => clearInterval(timer);
  }, [load, refreshMs, enabled]);
  return { view, problem, loadedAt };
}

function Facts({ view, providerDown }: { view: LiveView; providerDown: boolean }) {
  const stale = providerDown || Boolean(view.rider?.stale) || Boolean(view.freshness?.stale);
  const etaMinutes = view.eta ? Math.max(0, Math.round((Date.parse(view.eta.at) - Date.now()) / 60_000)) : null;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs">
      <Text size="sm" data-testid="task-status">Status: {view.status}</Text>
      <Text size="sm" data-testid="route-distance">Distance: {view.route ? distance(view.route.distanceMeters) : '—'}</Text>
      <Text size="sm" data-testid="eta">ETA: {view.eta ? `${clock(view.eta.at)} (${etaMinutes} min)${view.eta.approximate ? ', approximate' : ''}` : '—'}</Text>
      <Text size="sm" data-testid="rider-position">{view.rider ? `Rider at ${view.rider.lat.toFixed(5)}, ${view.rider.lng.toFixed(5)}` : 'No rider position'}</Text>
      <Group gap="xs">
        <Text size="sm" data-testid="position-age">{view.rider ? `Position ${age(view.rider.ageSeconds)}` : ''}</Text>
        {stale && <Badge color={TONE.warn} data-testid="stale-badge">Stale</Badge>}
      </Group>
      <Text size="sm">{view.drop?.address ? `Drop: ${view.drop.address}` : ''}</Text>
    </SimpleGrid>
  );
}

/** The map's facts as ticketing records them; none without a rider, a drop, a route and a status to record. */
function evidenceOf(view: LiveView): TicketingSchemas['EvidenceSnapshot'] | null {
  if (!view.rider || !view.drop || !view.route || !view.status) return null;
  return {
    clientId: view.clientId,
    taskId: view.taskId,
    rider: { lat: view.rider.lat, lng: view.rider.lng },
    drop: { lat: view.drop.lat, lng: view.drop.lng },
    distanceMeters: view.route.distanceMeters,
    etaAt: view.eta?.at ?? null,
    status: view.status,
    positionAt: view.rider.recordedAt,
  };
}

function summaryOf(view: LiveView): string {
  const where = view.rider ? `rider at ${view.rider.lat.toFixed(5)}, ${view.rider.lng.toFixed(5)} (position of ${zoned(view.rider.recordedAt)})` : 'no rider position';
  const eta = view.eta ? `, ETA ${zoned(view.eta.at)}` : '';
  return `Tracking snapshot of ${view.clientId}/${view.taskId}: ${view.status}, ${where}${view.route ? `, ${distance(view.route.distanceMeters)} to the drop` : ''}${eta}.`;
}

/** Records the map's facts on the ticket's timeline as a note (with structured evidence when ticketing accepts it). */
function SnapshotButton({ ticket, view, onSaved }: { ticket: TicketDetail; view: LiveView; onSaved: () => void }) {
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const snapshot = async () => {
    const text = summaryOf(view);
    try {
      const evidence = evidenceOf(view);
      await done(ticketing.POST('/v1/tickets/{id}/notes', { params: { path: { id: ticket.id } }, body: evidence ? { text, evidence } : { text } }));
      setResult({ ok: true, text: 'Snapshot recorded on the timeline.' });
      onSaved();
    } catch (caught) {
      const error = caught instanceof ApiError ? caught : null;
      setResult({ ok: false, text: error?.message ?? 'the snapshot failed' });
    }
  };
  return (
    <Stack gap="xs">
      <Button variant="outline" onClick={() => void snapshot()}>Record evidence snapshot</Button>
      {result && <Alert color={result.ok ? 'green' : 'red'} role="status" data-testid="snapshot-result">{result.text}</Alert>}
    </Stack>
  );
}

function StateNotice({ view, problem }: { view: LiveView | null; problem: Problem | null }) {
  if (problem && BLOCKING.includes(problem.code)) return <Alert color="gray" title={TRACKING_WORDS[problem.code]!.title} data-testid="map-state">{trackingSentence(problem.code)}</Alert>;
  if (problem) return <Alert color="orange" title={view ? 'Tracking provider unavailable: last known position' : 'Tracking provider unavailable'} data-testid="map-state">{trackingSentence(problem.code)}</Alert>;
  if (view?.status && !view.active && FINISHED.includes(view.status)) return <Alert color="gray" title="Task finished" data-testid="map-state">{view.notice?.message ?? `This task is ${view.status.toLowerCase()}.`} The rider is no longer shown.</Alert>;
  if (view?.freshness?.stale) return <Alert color="orange" title="Tracking provider unavailable: last known position" data-testid="map-state">{view.freshness.staleReason ?? 'the provider did not answer'}</Alert>;
  if (view?.notice) return <Alert color="gray" title="Tracking" data-testid="map-state">{view.notice.message}</Alert>;
  return null;
}

export function MapModal({ ticket, opened, onClose, onSnapshot }: { ticket: TicketDetail; opened: boolean; onClose: () => void; onSnapshot: () => void }) {
  const { session } = useSession();
  const settings = session?.settings;
  return (
    <Modal opened={opened} onClose={onClose} title={`Order ${ticket.order?.taskId ?? ''}`} size="xl" closeButtonProps={{ 'aria-label': 'Close the map' }}>
      {opened && ticket.order && settings && <MapBody key={`${ticket.order.clientId}/${ticket.order.taskId}`} ticket={ticket} settings={settings} onSnapshot={onSnapshot} />}
    </Modal>
  );
}

function MapBody({ ticket, settings, onSnapshot }: { ticket: TicketDetail; settings: NonNullable<ReturnType<typeof useSession>['session']>['settings']; onSnapshot: () => void }) {
  const { view, problem, loadedAt } = useLiveView(ticket.id, settings.mapRefreshMs);
  const blocking = problem && BLOCKING.includes(problem.code);
  return (
    <Stack data-testid="map-modal" data-loaded-at={loadedAt}>
      <StateNotice view={view} problem={problem} />
      {view && !blocking && (
        <>
          <LiveMap view={view} tileUrl={settings.tileUrl} attribution={settings.tileAttribution} />
          <Facts view={view} providerDown={Boolean(problem)} />
          <SnapshotButton ticket={ticket} view={view} onSaved={onSnapshot} />
        </>
      )}
    </Stack>
  );
}
