import { Type, type Static } from '@sinclair/typebox';
import { defineContract } from './envelope';
import { Nullable, StringEnum } from './schema';
import { TRACKING_CLIENT_ID_PATTERN, TRACKING_TASK_ID_PATTERN } from './tracking';

/**
 * Following tasks (services/tracking/README.md, "Following tasks"). Another service asks tracking
 * to follow a task for a follower of its own (e.g. a ticket) with `follow_task` on the
 * `tracking.commands` exchange; tracking watches every followed task (polls and the provider's
 * pushes) and announces each change once on the `tracking.events` topic exchange, through its
 * outbox, routed by the event's name (`task.status_changed`, `task.eta_moved`, `task.rider_silent`).
 */

export const TrackingCommandKeys = { follow: 'follow_task', unfollow: 'unfollow_task' } as const;
export const TrackingEventKeys = { statusChanged: 'task.status_changed', etaMoved: 'task.eta_moved', riderSilent: 'task.rider_silent' } as const;

/** A follower: an id opaque to tracking that the follower's service knows (a ticket id, ...). */
export const TRACKING_FOLLOWER_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$';

/** What a followed task's status means to a ticket, mapped from the provider's statuses. */
export const TASK_STATUSES = ['assigned', 'picked_up', 'out_for_delivery', 'delivered', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** The provider's statuses, as a ticket understands them. Unknown ones change nothing. */
const STATUS_OF: Record<string, TaskStatus> = {
  ASSIGNED: 'assigned',
  NOTIFIED: 'assigned',
  ACKNOWLEDGED: 'assigned',
  // Not in the provider's documented list; mapped should it send them.
  PICKED_UP: 'picked_up',
  PICKUP_COMPLETED: 'picked_up',
  // STARTED: the rider has left the pickup with the order; ARRIVED: at the drop, handing it over.
  STARTED: 'out_for_delivery',
  ARRIVED: 'out_for_delivery',
  COMPLETED: 'delivered',
  PARTIAL_COMPLETED: 'delivered',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
};

/** A provider status (as tracking's live view and records carry it) as a task status; null for none or an unknown one. */
export function taskStatusOf(providerStatus: string | null): TaskStatus | null {
  return providerStatus === null ? null : (STATUS_OF[providerStatus] ?? null);
}

/** Statuses after which a task changes no more: tracking stops following it. */
export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ['delivered', 'failed', 'cancelled'];

const clientId = Type.String({ pattern: TRACKING_CLIENT_ID_PATTERN });
const taskId = Type.String({ pattern: TRACKING_TASK_ID_PATTERN });
const follower = Type.String({ pattern: TRACKING_FOLLOWER_PATTERN, description: "The follower's id, opaque to tracking (a ticket id, ...)." });
const time = (description: string) => Type.String({ format: 'date-time', description });

const followCommand = (description: string) => Type.Object({ clientId, taskId, follower }, { additionalProperties: false, description });

export const FollowTaskPayloadSchema = followCommand('Follow a task for a follower: its changes are announced on `tracking.events` with the follower named. Following again changes nothing.');
export type FollowTaskPayload = Static<typeof FollowTaskPayloadSchema>;
export const FollowTask = defineContract('tracking.follow_task.v1', FollowTaskPayloadSchema);

export const UnfollowTaskPayloadSchema = followCommand('Stop following a task for a follower; a task with no follower left is no longer watched. Unfollowing again changes nothing.');
export type UnfollowTaskPayload = Static<typeof UnfollowTaskPayloadSchema>;
export const UnfollowTask = defineContract('tracking.unfollow_task.v1', UnfollowTaskPayloadSchema);

/** What every task event carries besides its change. */
const eventBase = {
  eventId: Type.String({ minLength: 1, maxLength: 200, description: "Derived from the task and the change (the envelope's id too): the same change seen again, by a poll, a push or another replica, has the same id." }),
  clientId,
  taskId,
  followers: Type.Array(follower, { description: 'Who followed the task when the change was seen.' }),
  occurredAt: time('When tracking saw the change.'),
};

export const TaskStatusChangedPayloadSchema = Type.Object(
  {
    ...eventBase,
    from: StringEnum(TASK_STATUSES, { description: 'The status before: the one at the follow, or the last announced.' }),
    to: StringEnum(TASK_STATUSES),
    providerStatus: Type.String({ description: "The provider's own status (ASSIGNED, STARTED, COMPLETED, CANCELLED, FAILED, ...)." }),
    statusAt: Nullable(time("When the provider recorded the status, as it says.")),
  },
  { additionalProperties: false, description: 'A followed task changed status. delivered, failed and cancelled end the following.' },
);
export type TaskStatusChangedPayload = Static<typeof TaskStatusChangedPayloadSchema>;
export const TaskStatusChanged = defineContract('task.status_changed.v1', TaskStatusChangedPayloadSchema);

export const TaskEtaMovedPayloadSchema = Type.Object(
  {
    ...eventBase,
    previousEta: time('The ETA last announced (or first seen).'),
    eta: time("The provider's new ETA."),
    movedBySeconds: Type.Integer({ description: 'eta - previousEta: positive when later.' }),
  },
  { additionalProperties: false, description: "A followed task's ETA moved by at least ETA_MOVED_THRESHOLD_MINUTES from the one last announced." },
);
export type TaskEtaMovedPayload = Static<typeof TaskEtaMovedPayloadSchema>;
export const TaskEtaMoved = defineContract('task.eta_moved.v1', TaskEtaMovedPayloadSchema);

export const TaskRiderSilentPayloadSchema = Type.Object(
  {
    ...eventBase,
    lastPositionAt: time("The time of the rider's last reported position."),
    silentAfterSeconds: Type.Integer({ minimum: 1, description: 'How old a position counts as silent (RIDER_STALE_AFTER_SECONDS).' }),
  },
  { additionalProperties: false, description: 'A task out for delivery has had no new rider position for a while; announced once per silence.' },
);
export type TaskRiderSilentPayload = Static<typeof TaskRiderSilentPayloadSchema>;
export const TaskRiderSilent = defineContract('task.rider_silent.v1', TaskRiderSilentPayloadSchema);
