import type { RefusalKind } from './refusal';
import { Type, type Static } from '@sinclair/typebox';
import { defineContract } from './envelope';
import { AnyObject, Nullable, StringEnum } from './schema';

/**
 * RPC on `tracking.rpc`: delivery-tracking lookups for other services (docs/architecture.md,
 * "Broker topology" and "The tracking provider"). Errors come back as RpcError with one of TRACKING_ERROR_CODES.
 */

/**
 * A tracking client id (the provider's clientId) and a task id, as tracking accepts them. Both
 * become segments of the provider's URL paths, so they start with a letter or digit: never
 * `.` or `..` (a dot segment would climb out of the client's path with its credentials).
 */
export const TRACKING_CLIENT_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';
export const TRACKING_TASK_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$';
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

/** The kind of refusal each failed lookup is, wherever it is answered (tracking's API, ticketing's). */
export const TRACKING_ERROR_KIND: Record<TrackingErrorCode, RefusalKind> = {
  client_not_found: 'not_found',
  client_disabled: 'forbidden',
  task_not_found: 'not_found',
  provider_auth_failed: 'upstream_failed',
  provider_rejected: 'upstream_rejected',
  provider_unavailable: 'unavailable',
  provider_timeout: 'upstream_timeout',
  circuit_open: 'unavailable',
};

const clientId = Type.String({ pattern: TRACKING_CLIENT_ID_PATTERN });
const taskId = Type.String({ pattern: TRACKING_TASK_ID_PATTERN });
const timestamp = Type.String({ format: 'date-time' });

export const TrackingTaskRequestPayloadSchema = Type.Object(
  {
    clientId,
    taskId,
    include: Type.Optional(
      Type.Array(Type.String({ pattern: TRACKING_INCLUDE_PATTERN }), { maxItems: TRACKING_MAX_INCLUDES, description: 'Extra field groups, besides those configured for the client.' }),
    ),
  },
  { additionalProperties: false, description: "The provider's task record, as `GET /v1/clients/:clientId/tasks/:taskId` answers it." },
);
export type TrackingTaskRequestPayload = Static<typeof TrackingTaskRequestPayloadSchema>;
/** The provider's task record, as `GET /v1/clients/:clientId/tasks/:taskId` answers it. */
export const TrackingTaskRequest = defineContract('tracking.task.get.v1', TrackingTaskRequestPayloadSchema);

export const TrackingLiveRequestPayloadSchema = Type.Object(
  { clientId, taskId },
  { additionalProperties: false, description: 'The live map view of a task, as `GET /v1/clients/:clientId/tasks/:taskId/live` answers it.' },
);
export type TrackingLiveRequestPayload = Static<typeof TrackingLiveRequestPayloadSchema>;
/** The live map view of a task, as `GET /v1/clients/:clientId/tasks/:taskId/live` answers it. */
export const TrackingLiveRequest = defineContract('tracking.task.live.v1', TrackingLiveRequestPayloadSchema);

export const TrackingAvailabilityRequestPayloadSchema = Type.Object(
  { clientId, taskId: Type.Optional(Type.String({ pattern: TRACKING_TASK_ID_PATTERN, description: 'When given, the task is looked up too (through the cache), so a wrong task id shows.' })) },
  { additionalProperties: false, description: 'Whether tracking can be shown for a client (and task): for a ticket linked to an order.' },
);
export type TrackingAvailabilityRequestPayload = Static<typeof TrackingAvailabilityRequestPayloadSchema>;
/** Whether tracking can be shown for a client (and task): for a ticket linked to an order. */
export const TrackingAvailabilityRequest = defineContract('tracking.availability.get.v1', TrackingAvailabilityRequestPayloadSchema);

const TrackingFreshnessSchema = Type.Object(
  {
    fetchedAt: timestamp,
    ageSeconds: Type.Number(),
    stale: Type.Boolean(),
    staleReason: Nullable(Type.String({ description: "Why stale data was served (the provider's failure), else null." })),
  },
  { description: 'How old the data behind an answer is; `stale` when the provider failed and the last good data was served.' },
);
export type TrackingFreshness = Static<typeof TrackingFreshnessSchema>;

export const TrackingTaskResultSchema = Type.Object({ clientId: Type.String(), taskId: Type.String(), task: AnyObject(), freshness: TrackingFreshnessSchema });
export type TrackingTaskResult = Static<typeof TrackingTaskResultSchema>;

const latLng = { lat: Type.Number(), lng: Type.Number() };

const riderSchema = Type.Object({
  ...latLng,
  recordedAt: timestamp,
  ageSeconds: Type.Number(),
  stale: Type.Boolean({ description: 'Older than the configured threshold.' }),
  source: StringEnum(['live', 'status'], { description: "`live`: the rider's reported position; `status`: where the newest status was recorded." }),
  name: Nullable(Type.String()),
  phone: Nullable(Type.String()),
});

const routeSchema = Type.Object({
  distanceMeters: Type.Number(),
  durationSeconds: Type.Number(),
  geometry: Type.Object({ type: Type.Literal('LineString'), coordinates: Type.Array(Type.Tuple([Type.Number(), Type.Number()])) }),
  source: StringEnum(['router', 'straight-line']),
});

const NOTICE_CODES = ['completed', 'partially_completed', 'cancelled', 'not_active', 'no_rider_position', 'no_drop_location'] as const;

export const TrackingLiveViewSchema = Type.Object({
  clientId: Type.String(),
  taskId: Type.String(),
  status: Nullable(Type.String({ description: "The provider's task status (ASSIGNED, STARTED, COMPLETED, ...), null when the record has none." })),
  active: Type.Boolean({ description: 'Assigned and not yet completed or cancelled.' }),
  rider: Nullable(riderSchema),
  drop: Nullable(Type.Object({ ...latLng, address: Nullable(Type.String()) })),
  route: Nullable(routeSchema),
  eta: Nullable(Type.Object({ at: timestamp, approximate: Type.Boolean(), source: StringEnum(['provider', 'route']) })),
  trackLink: Nullable(Type.String()),
  notice: Nullable(
    Type.Object(
      { code: StringEnum(NOTICE_CODES), message: Type.String() },
      { description: 'Why there is no route: the task is finished, cancelled, not active, or positions are missing.' },
    ),
  ),
  freshness: TrackingFreshnessSchema,
});
export type TrackingLiveView = Static<typeof TrackingLiveViewSchema>;

export const TrackingAvailabilitySchema = Type.Object({
  clientId: Type.String(),
  taskId: Nullable(Type.String()),
  available: Type.Boolean(),
  reason: StringEnum(['available', ...TRACKING_ERROR_CODES], { description: '`available`, or why not: one of the lookup error codes.' }),
  message: Type.String(),
});
export type TrackingAvailability = Static<typeof TrackingAvailabilitySchema>;
