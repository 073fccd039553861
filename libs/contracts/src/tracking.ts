import { defineContract } from './envelope';

/**
 * RPC on `tracking.rpc`: delivery-tracking lookups for other services (docs/architecture.md,
 * "Broker topology" and "The tracking provider"). Errors come back as RpcError with one of TRACKING_ERROR_CODES.
 */

/** A tracking client id (the provider's clientId) and a task id, as tracking accepts them. */
export const TRACKING_CLIENT_ID_PATTERN = '^[A-Za-z0-9._-]{1,64}$';
export const TRACKING_TASK_ID_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';
/** One group of extra fields of a task record (the provider's `include` list). */
export const TRACKING_INCLUDE_PATTERN = '^[A-Za-z][A-Za-z0-9_.-]{0,63}$';
export const TRACKING_MAX_INCLUDES = 20;

/** Codes of failed lookups, over HTTP (`error.code`) and RPC (RpcError code) alike. */
export const TRACKING_ERROR_CODES = [
  'client_not_found',
  'client_disabled',
  'task_not_found',
  'provider_auth_failed',
  'provider_rejected',
  'provider_unavailable',
  'provider_timeout',
  'circuit_open',
] as const;
export type TrackingErrorCode = (typeof TRACKING_ERROR_CODES)[number];

const clientId = { type: 'string', pattern: TRACKING_CLIENT_ID_PATTERN } as const;
const taskId = { type: 'string', pattern: TRACKING_TASK_ID_PATTERN } as const;

export interface TrackingTaskRequestPayload {
  clientId: string;
  taskId: string;
  /** Extra field groups, besides those configured for the client. */
  include?: string[];
}

/** The provider's task record, as `GET /v1/clients/:clientId/tasks/:taskId` answers it. */
export const TrackingTaskRequest = defineContract<TrackingTaskRequestPayload>('tracking.task.get.v1', {
  type: 'object',
  required: ['clientId', 'taskId'],
  additionalProperties: false,
  properties: {
    clientId,
    taskId,
    include: { type: 'array', maxItems: TRACKING_MAX_INCLUDES, items: { type: 'string', pattern: TRACKING_INCLUDE_PATTERN } },
  },
});

export interface TrackingLiveRequestPayload {
  clientId: string;
  taskId: string;
}

/** The live map view of a task, as `GET /v1/clients/:clientId/tasks/:taskId/live` answers it. */
export const TrackingLiveRequest = defineContract<TrackingLiveRequestPayload>('tracking.task.live.v1', {
  type: 'object',
  required: ['clientId', 'taskId'],
  additionalProperties: false,
  properties: { clientId, taskId },
});

export interface TrackingAvailabilityRequestPayload {
  clientId: string;
  /** When given, the task is looked up too (through the cache), so a wrong task id shows. */
  taskId?: string;
}

/** Whether tracking can be shown for a client (and task): for a ticket linked to an order. */
export const TrackingAvailabilityRequest = defineContract<TrackingAvailabilityRequestPayload>('tracking.availability.get.v1', {
  type: 'object',
  required: ['clientId'],
  additionalProperties: false,
  properties: { clientId, taskId },
});

/** How old the data behind an answer is; `stale` when the provider failed and the last good data was served. */
export interface TrackingFreshness {
  fetchedAt: string;
  ageSeconds: number;
  stale: boolean;
  /** Why stale data was served (the provider's failure), else null. */
  staleReason: string | null;
}

export interface TrackingTaskResult {
  clientId: string;
  taskId: string;
  task: Record<string, unknown>;
  freshness: TrackingFreshness;
}

export interface TrackingLatLng {
  lat: number;
  lng: number;
}

export interface TrackingLiveView {
  clientId: string;
  taskId: string;
  /** The provider's task status (ASSIGNED, STARTED, COMPLETED, ...), null when the record has none. */
  status: string | null;
  /** Assigned and not yet completed or cancelled. */
  active: boolean;
  rider:
    | (TrackingLatLng & {
        recordedAt: string;
        ageSeconds: number;
        /** Older than the configured threshold. */
        stale: boolean;
        /** `live`: the rider's reported position; `status`: where the newest status was recorded. */
        source: 'live' | 'status';
        name: string | null;
        phone: string | null;
      })
    | null;
  drop: (TrackingLatLng & { address: string | null }) | null;
  route: {
    distanceMeters: number;
    durationSeconds: number;
    geometry: { type: 'LineString'; coordinates: [number, number][] };
    source: 'router' | 'straight-line';
  } | null;
  eta: { at: string; approximate: boolean; source: 'provider' | 'route' } | null;
  trackLink: string | null;
  /** Why there is no route: the task is finished, cancelled, not active, or positions are missing. */
  notice: { code: 'completed' | 'partially_completed' | 'cancelled' | 'not_active' | 'no_rider_position' | 'no_drop_location'; message: string } | null;
  freshness: TrackingFreshness;
}

export interface TrackingAvailability {
  clientId: string;
  taskId: string | null;
  available: boolean;
  /** `available`, or why not: one of the lookup error codes. */
  reason: 'available' | TrackingErrorCode;
  message: string;
}
