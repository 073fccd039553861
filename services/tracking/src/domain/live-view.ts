import type { TrackingFreshness, TrackingLiveView } from '@crm/contracts';
import type { LatLng, Route } from './geo';
import { ACTIVE_STATUSES, FINISHED_STATUSES, type TaskFacts } from './task-record';

/** The two ends of the route the pop-up shows, when there is one to show. */
export function routeEnds(facts: TaskFacts): { from: LatLng; to: LatLng } | null {
  if (!facts.status || !ACTIVE_STATUSES.has(facts.status) || !facts.rider || !facts.drop) return null;
  return { from: { lat: facts.rider.lat, lng: facts.rider.lng }, to: { lat: facts.drop.lat, lng: facts.drop.lng } };
}

export interface LiveViewInput {
  clientId: string;
  taskId: string;
  facts: TaskFacts;
  /** The route between routeEnds(facts), when there are ends. */
  route: Route | null;
  now: Date;
  freshness: TrackingFreshness;
  /** A rider position older than this is flagged stale. */
  riderStaleAfterSeconds: number;
}

const ageSeconds = (at: string, now: Date) => Math.max(0, Math.floor((now.getTime() - Date.parse(at)) / 1000));

function finishedNotice(status: keyof typeof FINISHED_STATUSES, at: string | null): NonNullable<TrackingLiveView['notice']> {
  const when = at ? ` at ${at}` : '';
  const message = {
    COMPLETED: `The order was delivered${when}; there is no route to show.`,
    PARTIAL_COMPLETED: `The order was partly delivered${when}; there is no route to show.`,
    CANCELLED: `The task was cancelled${when}; there is no route to show.`,
  }[status];
  return { code: FINISHED_STATUSES[status], message };
}

/**
 * What the map pop-up shows: where the rider is (and how old that position is), the drop,
 * the route between them and an ETA; or, for a task that is finished or not under way,
 * a notice saying so instead of a route. Pure: the route was fetched before.
 */
export function buildLiveView(input: LiveViewInput): TrackingLiveView {
  const { facts, now } = input;
  // Fields in the order the pop-up reads them.
  const view = (parts: Pick<TrackingLiveView, 'active' | 'rider' | 'drop' | 'route' | 'eta' | 'notice'>): TrackingLiveView => ({
    clientId: input.clientId,
    taskId: input.taskId,
    status: facts.status,
    active: parts.active,
    rider: parts.rider,
    drop: parts.drop,
    route: parts.route,
    eta: parts.eta,
    trackLink: facts.trackLink,
    notice: parts.notice,
    freshness: input.freshness,
  });
  const drop = facts.drop ? { lat: facts.drop.lat, lng: facts.drop.lng, address: facts.drop.address } : null;

  if (facts.status && facts.status in FINISHED_STATUSES) {
    // A finished task shows where the order went, not where its rider is now.
    return view({ active: false, rider: null, drop, route: null, eta: null, notice: finishedNotice(facts.status as keyof typeof FINISHED_STATUSES, facts.statusAt) });
  }

  const rider = facts.rider
    ? (() => {
        const age = ageSeconds(facts.rider.recordedAt, now);
        return {
          lat: facts.rider.lat,
          lng: facts.rider.lng,
          recordedAt: facts.rider.recordedAt,
          ageSeconds: age,
          stale: age > input.riderStaleAfterSeconds,
          source: facts.rider.source,
          name: facts.rider.name,
          phone: facts.rider.phone,
        };
      })()
    : null;

  if (!facts.status || !ACTIVE_STATUSES.has(facts.status)) {
    const message = `The task is not under way (status ${facts.status ?? 'unknown'}); there is no route to show.`;
    return view({ active: false, rider, drop, route: null, eta: null, notice: { code: 'not_active', message } });
  }

  const route = routeEnds(facts) ? input.route : null;
  let eta: TrackingLiveView['eta'] = null;
  if (facts.providerEta) eta = { at: facts.providerEta, approximate: false, source: 'provider' };
  else if (route) {
    eta = {
      at: new Date(now.getTime() + route.durationSeconds * 1000).toISOString(),
      approximate: route.source === 'straight-line' || Boolean(rider?.stale),
      source: 'route',
    };
  }
  let notice: TrackingLiveView['notice'] = null;
  if (!rider) notice = { code: 'no_rider_position', message: 'The provider reports no position for the rider yet; there is no route to show.' };
  else if (!drop) notice = { code: 'no_drop_location', message: 'The task has no drop location; there is no route to show.' };
  return view({ active: true, rider, drop, route, eta, notice });
}
