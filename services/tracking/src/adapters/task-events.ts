import { Exchanges, TaskEtaMoved, TaskRiderSilent, TaskStatusChanged, TrackingEventKeys, type Contract } from '@crm/contracts';
import type { PoolClient } from '@crm/db';
import { enqueueOutbox, makeEnvelope, OutboxAnnouncer } from '@crm/messaging';
import { changeEventId, type TaskChange } from '../domain/task-changes';

const PRODUCER = 'tracking';

const EVENT_OF: Record<TaskChange['kind'], { contract: Contract<unknown>; routingKey: string }> = {
  status_changed: { contract: TaskStatusChanged as Contract<unknown>, routingKey: TrackingEventKeys.statusChanged },
  eta_moved: { contract: TaskEtaMoved as Contract<unknown>, routingKey: TrackingEventKeys.etaMoved },
  rider_silent: { contract: TaskRiderSilent as Contract<unknown>, routingKey: TrackingEventKeys.riderSilent },
};

/** The events of followed tasks on `tracking.events`, stored in the outbox with the state they announce. */
export class TaskEvents extends OutboxAnnouncer {
  /** One change's event; its id is derived from the task and the change, so the same change seen again is the same event. */
  async changed(client: PoolClient, task: { clientId: string; taskId: string; followers: string[] }, change: TaskChange, occurredAt: string): Promise<void> {
    const { kind: _kind, ...details } = change;
    const eventId = changeEventId(task.clientId, task.taskId, change);
    const payload = { eventId, clientId: task.clientId, taskId: task.taskId, followers: task.followers, occurredAt, ...details };
    const { contract, routingKey } = EVENT_OF[change.kind];
    await enqueueOutbox(client, Exchanges.trackingEvents, routingKey, makeEnvelope(contract, PRODUCER, payload, { id: eventId, occurredAt }));
  }
}
