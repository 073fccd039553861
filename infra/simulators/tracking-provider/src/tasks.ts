import { createHash } from 'node:crypto';
import { pathLength, pointAlong, streetPath, type LatLng } from './geo';

/**
 * A simulated delivery task: its whole life is a function of the time since it was
 * assigned, so a test can move it forward (`advance`) instead of waiting.
 */

export interface Place extends LatLng {
  name: string;
  address: string;
}

/**
 * What the task record says about the rider's live position: `live` reports a fresh position
 * every few seconds, `frozen` stops reporting once the rider left the pickup (a lost phone
 * signal), `absent` never has the field (as the provider's documented records).
 */
export type PositionMode = 'live' | 'frozen' | 'absent';
export const POSITION_MODES: readonly PositionMode[] = ['live', 'frozen', 'absent'];

export interface Rider {
  userId: string;
  carrierClientId: string;
  name: string;
  phone: string;
}

export interface SimTask {
  clientId: string;
  taskId: string;
  /** When the task was assigned (the zero of its timeline), ms since the epoch. */
  assignedAtMs: number;
  pickup: Place;
  drop: Place;
  path: LatLng[];
  pathMeters: number;
  speedMps: number;
  position: PositionMode;
  /** Whether the record carries the provider's `eta`. */
  withEta: boolean;
  rider: Rider;
  /** When the task was cancelled or failed (control API), and which. */
  endedAtMs: number | null;
  endedAs: 'CANCELLED' | 'FAILED' | null;
  /** How much later than planned the rider arrives (control API `delay`): the trip is slower. */
  delaySeconds: number;
  sourceOrderId: string | null;
  orderDetail: unknown;
}

/** Seconds after assignment at which each status is reached; the trip itself takes pathMeters / speedMps. */
export const SCHEDULE = { notified: 5, acknowledged: 15, started: 30, completeAfterArrival: 60 } as const;
/** How often a rider with `live` position reports it. */
export const PING_SECONDS = 5;
export const DEFAULT_SPEED_MPS = 6;

const CITY_CENTRE: LatLng = { lat: 12.9716, lng: 77.5946 };

/** A number in [0, 1) derived from `seed`: the same task id always gets the same places. */
function unit(seed: string, salt: string): number {
  return createHash('sha256').update(`${salt}:${seed}`).digest().readUInt32BE(0) / 2 ** 32;
}

export function defaultPlaces(taskId: string): { pickup: Place; drop: Place } {
  const pickup = { lat: CITY_CENTRE.lat + (unit(taskId, 'plat') - 0.5) * 0.04, lng: CITY_CENTRE.lng + (unit(taskId, 'plng') - 0.5) * 0.04 };
  const drop = { lat: pickup.lat + 0.01 + unit(taskId, 'dlat') * 0.015, lng: pickup.lng + 0.01 + unit(taskId, 'dlng') * 0.015 };
  return {
    pickup: { ...pickup, name: 'Store', address: `Store for ${taskId}, Bengaluru` },
    drop: { ...drop, name: 'Customer', address: `Flat 4, Building ${Math.floor(unit(taskId, 'b') * 90) + 10}, Bengaluru` },
  };
}

export interface NewTask {
  clientId: string;
  taskId: string;
  nowMs: number;
  pickup?: Place;
  drop?: Place;
  /** How far into its life the task already is. */
  elapsedSeconds?: number;
  speedMps?: number;
  position?: PositionMode;
  withEta?: boolean;
  rider?: Partial<Rider>;
  sourceOrderId?: string | null;
  orderDetail?: unknown;
}

export function newTask(spec: NewTask): SimTask {
  const places = defaultPlaces(spec.taskId);
  const pickup = spec.pickup ?? places.pickup;
  const drop = spec.drop ?? places.drop;
  const path = streetPath(pickup, drop);
  const userId = spec.rider?.userId ?? `rider-${Math.floor(unit(spec.taskId, 'r') * 900) + 100}`;
  return {
    clientId: spec.clientId,
    taskId: spec.taskId,
    assignedAtMs: spec.nowMs - (spec.elapsedSeconds ?? 0) * 1000,
    pickup,
    drop,
    path,
    pathMeters: pathLength(path),
    speedMps: spec.speedMps ?? DEFAULT_SPEED_MPS,
    position: spec.position ?? 'live',
    withEta: spec.withEta ?? true,
    rider: {
      userId,
      carrierClientId: spec.rider?.carrierClientId ?? 'carrier-1',
      name: spec.rider?.name ?? `Rider ${userId.replace(/^rider-/, '')}`,
      phone: spec.rider?.phone ?? `+91 98${String(Math.floor(unit(spec.taskId, 'p') * 1e8)).padStart(8, '0')}`,
    },
    endedAtMs: null,
    endedAs: null,
    delaySeconds: 0,
    sourceOrderId: spec.sourceOrderId ?? null,
    orderDetail: spec.orderDetail ?? null,
  };
}

export type TaskStatus = 'ASSIGNED' | 'NOTIFIED' | 'ACKNOWLEDGED' | 'STARTED' | 'ARRIVED' | 'COMPLETED' | 'CANCELLED' | 'FAILED';

interface Milestone {
  status: TaskStatus;
  atMs: number;
}

function tripSeconds(task: SimTask): number {
  return task.pathMeters / task.speedMps + task.delaySeconds;
}

/** The planned milestones, reached or not. */
function plan(task: SimTask): Milestone[] {
  const at = (seconds: number) => task.assignedAtMs + seconds * 1000;
  const arrived = SCHEDULE.started + tripSeconds(task);
  return [
    { status: 'ASSIGNED', atMs: at(0) },
    { status: 'NOTIFIED', atMs: at(SCHEDULE.notified) },
    { status: 'ACKNOWLEDGED', atMs: at(SCHEDULE.acknowledged) },
    { status: 'STARTED', atMs: at(SCHEDULE.started) },
    { status: 'ARRIVED', atMs: at(arrived) },
    { status: 'COMPLETED', atMs: at(arrived + SCHEDULE.completeAfterArrival) },
  ];
}

/** Where the rider is at `atMs`: waiting at the pickup, on the way, or at the drop. */
function riderAt(task: SimTask, atMs: number): LatLng {
  const t = Math.min(atMs, task.endedAtMs ?? Infinity);
  // A delay spreads over the trip: the rider covers the path in tripSeconds.
  const travelled = (((t - task.assignedAtMs) / 1000 - SCHEDULE.started) / tripSeconds(task)) * task.pathMeters;
  if (travelled <= 0) return { lat: task.pickup.lat, lng: task.pickup.lng };
  return pointAlong(task.path, Math.min(travelled, task.pathMeters));
}

export interface TaskState {
  status: TaskStatus;
  statusAtMs: number;
  /** Every status reached so far, oldest first, with where the rider was. */
  history: (Milestone & { where: LatLng })[];
  /** The last position the rider reported, or null when the record has none. */
  reported: (LatLng & { atMs: number }) | null;
  /** The planned arrival at the drop, while the task is on its way. */
  etaMs: number | null;
}

export const isFinished = (status: TaskStatus): boolean => status === 'COMPLETED' || status === 'CANCELLED' || status === 'FAILED';

export function stateAt(task: SimTask, nowMs: number): TaskState {
  const reached: Milestone[] = plan(task).filter((m) => m.atMs <= nowMs && (task.endedAtMs === null || m.atMs <= task.endedAtMs));
  if (task.endedAtMs !== null && task.endedAs !== null && task.endedAtMs <= nowMs) reached.push({ status: task.endedAs, atMs: task.endedAtMs });
  const last = reached[reached.length - 1]!;
  const history = reached.map((m) => ({ ...m, where: riderAt(task, m.atMs) }));
  const finished = isFinished(last.status);
  const startedAtMs = task.assignedAtMs + SCHEDULE.started * 1000;

  let reported: TaskState['reported'] = null;
  if (task.position !== 'absent') {
    // Pings stop when the task ends; a `frozen` rider's phone stops reporting once the trip starts.
    let lastPingCap = finished ? last.atMs : nowMs;
    if (task.position === 'frozen') lastPingCap = Math.min(lastPingCap, startedAtMs);
    const sinceAssigned = Math.max(0, lastPingCap - task.assignedAtMs);
    const pingAtMs = task.assignedAtMs + Math.floor(sinceAssigned / (PING_SECONDS * 1000)) * PING_SECONDS * 1000;
    reported = { ...riderAt(task, pingAtMs), atMs: pingAtMs };
  }
  const arrival = plan(task).find((m) => m.status === 'ARRIVED')!;
  const onTheWay = !finished && last.status !== 'ARRIVED';
  return { status: last.status, statusAtMs: last.atMs, history, reported, etaMs: task.withEta && onTheWay ? arrival.atMs : null };
}

/** Extra field groups a caller can ask for with `include`. */
export const INCLUDE_GROUPS = ['orderDetail', 'statusUpdates'] as const;

const iso = (ms: number) => new Date(ms).toISOString();
const latlng = (p: LatLng) => ({ latitude: Number(p.lat.toFixed(6)), longitude: Number(p.lng.toFixed(6)) });

function visit(task: SimTask, kind: 'pickup' | 'drop', place: Place, done: boolean, state: TaskState, trackBase: string) {
  const startMs = task.assignedAtMs + (kind === 'pickup' ? 0 : 30 * 60_000);
  const visitStatus = done ? 'COMPLETED' : state.status === 'CANCELLED' || state.status === 'FAILED' ? state.status : 'PENDING';
  return {
    id: `${task.taskId}-${kind}`,
    trackLink: `${trackBase}/${encodeURIComponent(task.clientId)}/${encodeURIComponent(task.taskId)}`,
    visitStatus,
    locationOptions: [{ location: latlng(place), addressDetails: { name: place.name, formattedAddress: place.address } }],
    timeWindow: { slot: { start: iso(startMs), end: iso(startMs + 60 * 60_000) } },
  };
}

/**
 * The task record as the provider answers it. The rider's live position is in
 * `riderLocation`: the real provider's field for it is not documented, and this is the
 * simulator's stand-in for it (tracking maps it in one place).
 */
export function taskRecord(task: SimTask, nowMs: number, include: ReadonlySet<string>, trackBase: string): Record<string, unknown> {
  const state = stateAt(task, nowMs);
  const reached = new Set(state.history.map((m) => m.status));
  const assignedUser = { userId: task.rider.userId, carrierClientId: task.rider.carrierClientId, name: task.rider.name, phoneNumber: task.rider.phone };
  const record: Record<string, unknown> = {
    taskId: task.taskId,
    clientId: task.clientId,
    teamId: `${task.clientId}-team`,
    sourceOrderId: task.sourceOrderId,
    status: { status: state.status, triggerTime: iso(state.statusAtMs) },
    assignedUser,
    eta: state.etaMs === null ? null : iso(state.etaMs),
    taskGraph: {
      visits: [visit(task, 'pickup', task.pickup, reached.has('STARTED'), state, trackBase), visit(task, 'drop', task.drop, reached.has('COMPLETED'), state, trackBase)],
      statuses: state.history.map((m) => ({ status: m.status, time: iso(m.atMs), latlng: latlng(m.where) })),
    },
  };
  if (state.reported) record.riderLocation = { ...latlng(state.reported), time: iso(state.reported.atMs) };
  if (include.has('orderDetail')) record.orderDetail = task.orderDetail;
  if (include.has('statusUpdates')) {
    record.statusUpdates = state.history.map((m) => ({ status: m.status, triggerTime: iso(m.atMs), assignedUser: { userId: task.rider.userId } }));
  }
  return record;
}
