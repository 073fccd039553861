import { TaskEtaMoved, TaskRiderSilent, TaskStatusChanged, TrackingEventKeys } from '@crm/contracts';
import type { MessageHandler } from '@crm/messaging';
import { applyTrackingEvent, type TrackingEventPayload } from '../operations/order-updates';
import type { HandlerDeps } from './handler-deps';

export const TRACKING_EVENT_CONTRACTS = [TaskStatusChanged, TaskEtaMoved, TaskRiderSilent];

const NAME_OF_TYPE: Record<string, string> = {
  [TaskStatusChanged.type]: TrackingEventKeys.statusChanged,
  [TaskEtaMoved.type]: TrackingEventKeys.etaMoved,
  [TaskRiderSilent.type]: TrackingEventKeys.riderSilent,
};

/**
 * Consumes `ticketing.tracking-events`: each change of a followed order goes on the tickets
 * following it, once per eventId (the CRM events it queues are published when their NOTIFY is heard).
 */
export function createTrackingEventsHandler({ store, logger, onHandled }: HandlerDeps): MessageHandler<TrackingEventPayload> {
  return async (envelope) => {
    await applyTrackingEvent({ store, logger }, NAME_OF_TYPE[envelope.type] ?? '', envelope.payload);
    onHandled?.(envelope.id);
  };
}
