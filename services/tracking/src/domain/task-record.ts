import type { LatLng } from './geo';

/**
 * Reads what the live view needs out of the provider's task record. The record is only
 * partly documented (docs/architecture.md, "The tracking provider"), so every field is read
 * defensively: a missing or malformed one yields null, never an exception.
 */

/** Statuses of a task that is assigned and not yet finished. */
export const ACTIVE_STATUSES: ReadonlySet<string> = new Set(['ASSIGNED', 'NOTIFIED', 'ACKNOWLEDGED', 'STARTED', 'ARRIVED']);

/** Statuses that end a task, with the notice code the live view gives for each. */
export const FINISHED_STATUSES = {
  COMPLETED: 'completed',
  PARTIAL_COMPLETED: 'partially_completed',
  CANCELLED: 'cancelled',
} as const;

export interface Position extends LatLng {
  recordedAt: string;
}

export interface TaskFacts {
  status: string | null;
  statusAt: string | null;
  rider: (Position & { source: 'live' | 'status'; name: string | null; phone: string | null }) | null;
  drop: (LatLng & { address: string | null }) | null;
  trackLink: string | null;
  /** The provider's own ETA, when the record has one. */
  providerEta: string | null;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** An ISO time, from an ISO string or epoch milliseconds. */
function time(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** `{latitude, longitude}` as the provider writes positions; (0, 0) is a placeholder, not a place. */
function latLng(value: unknown): LatLng | null {
  if (!isObject(value)) return null;
  const { latitude: lat, longitude: lng } = value;
  if (typeof lat !== 'number' || typeof lng !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180 || (lat === 0 && lng === 0)) return null;
  return { lat, lng };
}

/**
 * THE ONE PLACE that knows where the rider's live position is in a task record. The
 * provider does not document such a field; until it does, we read `riderLocation
 * {latitude, longitude, time}` (the tracking-provider simulator's stand-in). When the
 * provider's real field becomes known, change this function and nothing else.
 */
export function reportedRiderPosition(record: Json): Position | null {
  const reported = record.riderLocation;
  const where = latLng(reported);
  const recordedAt = isObject(reported) ? time(reported.time) : null;
  return where && recordedAt ? { ...where, recordedAt } : null;
}

/** Where the newest status was recorded (`taskGraph.statuses[] {time, latlng}`). */
export function newestStatusPosition(record: Json): Position | null {
  const statuses = isObject(record.taskGraph) && Array.isArray(record.taskGraph.statuses) ? record.taskGraph.statuses : [];
  let newest: Position | null = null;
  for (const entry of statuses) {
    if (!isObject(entry)) continue;
    const where = latLng(entry.latlng);
    const recordedAt = time(entry.time);
    if (where && recordedAt && (!newest || recordedAt > newest.recordedAt)) newest = { ...where, recordedAt };
  }
  return newest;
}

/** The rider's reported position, else (or when a status was recorded later) the newest status location. */
function riderPosition(record: Json): (Position & { source: 'live' | 'status' }) | null {
  const reported = reportedRiderPosition(record);
  const status = newestStatusPosition(record);
  if (reported && (!status || reported.recordedAt >= status.recordedAt)) return { ...reported, source: 'live' };
  return status ? { ...status, source: 'status' } : null;
}

/** The visits run from pickup to drop: the drop is the last one. */
function dropVisit(record: Json): Json | null {
  const visits = isObject(record.taskGraph) && Array.isArray(record.taskGraph.visits) ? record.taskGraph.visits.filter(isObject) : [];
  return visits[visits.length - 1] ?? null;
}

export function readTask(record: Json): TaskFacts {
  const status = isObject(record.status) ? record.status : {};
  const user = isObject(record.assignedUser) ? record.assignedUser : {};
  const visit = dropVisit(record);
  const option = visit && Array.isArray(visit.locationOptions) && isObject(visit.locationOptions[0]) ? visit.locationOptions[0] : {};
  const dropAt = latLng(option.location);
  const address = isObject(option.addressDetails) ? (text(option.addressDetails.formattedAddress) ?? text(option.addressDetails.name)) : null;
  const rider = riderPosition(record);
  return {
    status: text(status.status),
    statusAt: time(status.triggerTime),
    rider: rider ? { ...rider, name: text(user.name), phone: text(user.phoneNumber) } : null,
    drop: dropAt ? { ...dropAt, address } : null,
    trackLink: visit ? text(visit.trackLink) : null,
    providerEta: time(record.eta),
  };
}
