import { Exchanges, FollowTask, TrackingCommandKeys, UnfollowTask, type CrmEventPayload, type OrderChangeKind, type TaskStatus } from '@crm/contracts';
import { makeEnvelope } from '@crm/messaging';
import type { TicketingTx } from '../adapters/db/store';
import type { OrderRow } from '../adapters/db/ticket-orders';

/**
 * A ticket linked to an order follows its task in tracking (services/tracking README,
 * "Following tasks"), the ticket being the follower: `follow_task` when it gets an order,
 * `unfollow_task` when it loses it, is resolved or closed, or is merged into another. Both go
 * through the outbox, in the transaction of the change.
 */

type Task = { clientId: string; taskId: string };

export async function followIn(tx: TicketingTx, ticketId: string, task: Task): Promise<void> {
  const payload = { clientId: task.clientId, taskId: task.taskId, follower: ticketId };
  await tx.outbox.enqueue(Exchanges.trackingCommands, TrackingCommandKeys.follow, makeEnvelope(FollowTask, 'ticketing', payload));
}

export async function unfollowIn(tx: TicketingTx, ticketId: string, task: Task): Promise<void> {
  const payload = { clientId: task.clientId, taskId: task.taskId, follower: ticketId };
  await tx.outbox.enqueue(Exchanges.trackingCommands, TrackingCommandKeys.unfollow, makeEnvelope(UnfollowTask, 'ticketing', payload));
}

/** The ticket stops following its order, if it has one (resolved, closed, merged away). */
export async function unfollowOrderOf(tx: TicketingTx, ticketId: string): Promise<void> {
  const order = await tx.orders.find(ticketId);
  if (order) await unfollowIn(tx, ticketId, { clientId: order.client_id, taskId: order.task_id });
}

/** The order part of a `ticket.order_changed` event. */
export function orderPart(change: OrderChangeKind, order: OrderRow): NonNullable<CrmEventPayload['order']> {
  return {
    change,
    clientId: order.client_id,
    taskId: order.task_id,
    linkedBy: order.linked_by,
    reference: order.reference,
    status: order.status as TaskStatus | null,
    eta: order.eta?.toISOString() ?? null,
  };
}

/** `ticket.order_changed` to the CRM, the webhooks and the live inbox, in the transaction of the change. */
export async function announceOrderChange(tx: TicketingTx, ticketId: string, actor: string, change: OrderChangeKind, order: OrderRow, activityId?: string): Promise<void> {
  await tx.crmEvents.emitAll([{ type: 'ticket.order_changed', ticketId, actor, parts: { order: orderPart(change, order) }, activityId }]);
}
