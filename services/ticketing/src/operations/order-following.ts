import { Exchanges, FollowTask, TrackingCommandKeys, UnfollowTask, type CrmEventPayload, type OrderChangeKind, type TaskStatus, type TicketStatus } from '@crm/contracts';
import { makeEnvelope } from '@crm/messaging';
import type { TicketingTx } from '../adapters/db/store';
import type { OrderRow } from '../adapters/db/ticket-orders';
import { followingMove } from '../domain/order-link';

/**
 * A ticket linked to an order follows its task in tracking (services/tracking README,
 * "Following tasks"), the ticket being the follower, while it is being worked: `follow_task`
 * when it gets an order, `unfollow_task` when it loses it, and on every change of its status
 * `followInStep` (resolved, closed or merged away: it stops; reopened or unmerged: it follows
 * again, once). Both go through the outbox, in the transaction of the change.
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

/**
 * The one place a status change reaches following: called wherever a ticket's status is
 * written (a person's or an order rule's change, a customer's message reopening it, a merge,
 * an unmerge), with the status it has now. Nothing for a ticket without an order (never linked,
 * or unlinked by an agent); otherwise the follow or unfollow `followingMove` asks for, sent only
 * when it changes whether the ticket follows (never a second follow, nor a second unfollow).
 */
export async function followInStep(tx: TicketingTx, ticketId: string, status: TicketStatus): Promise<void> {
  const order = await tx.orders.followingOf(ticketId);
  if (!order) return;
  const move = followingMove(status, order);
  if (!move || !(await tx.orders.setFollowing(ticketId, order.link, move === 'follow'))) return;
  await (move === 'follow' ? followIn : unfollowIn)(tx, ticketId, order.link);
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
