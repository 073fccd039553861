import type { TaskEtaMovedPayload, TaskRiderSilentPayload, TaskStatusChangedPayload } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import type { TicketingStore, TicketingTx } from '../adapters/db/store';
import { DEFAULT_ORDER_RULES } from '../domain/order-references';
import { namedTimes, orderUpdate, type OrderEvent } from '../domain/order-updates';
import { SYSTEM_ACTOR } from '../domain/workflow';
import { announceOrderChange } from './order-following';
import { applyOne } from './ticket-changes';

export type TrackingEventPayload = TaskStatusChangedPayload | TaskEtaMovedPayload | TaskRiderSilentPayload;

/** The event's change as a ticket reads it, by its routing key (its name). */
export function orderEventOf(name: string, payload: TrackingEventPayload): OrderEvent | null {
  const base = { eventId: payload.eventId, occurredAt: payload.occurredAt };
  if (name === 'task.status_changed' && 'to' in payload) return { ...base, name, to: payload.to, statusAt: payload.statusAt };
  if (name === 'task.eta_moved' && 'eta' in payload) return { ...base, name, previousEta: payload.previousEta, eta: payload.eta };
  if (name === 'task.rider_silent' && 'lastPositionAt' in payload) return { ...base, name, lastPositionAt: payload.lastPositionAt };
  return null;
}

/**
 * Applies one tracking event to one ticket following its task, once (by eventId): an
 * `order_update` entry on its timeline, the order's status and ETA, and the partner
 * configuration's rules (an ETA slip raises the priority, a failed or cancelled delivery
 * reopens the ticket urgent, a delivery while pending suggests resolving), then
 * `ticket.order_changed`. Nothing when the ticket is gone or no longer linked to that task.
 */
async function applyTo(tx: TicketingTx, ticketId: string, payload: TrackingEventPayload, event: OrderEvent): Promise<boolean> {
  const [ticket] = await tx.life.lock([ticketId]);
  const order = await tx.orders.find(ticketId);
  if (!ticket || ticket.status === 'merged' || !order || order.client_id !== payload.clientId || order.task_id !== payload.taskId) return false;
  if (!(await tx.orders.markSeen(event.eventId, ticketId))) return false;
  const config = await tx.partnerConfigs.load(ticket.account_id);
  const follow = (await tx.orders.followState(ticketId))!;
  const update = orderUpdate({
    event,
    ticket: { status: ticket.status, priority: ticket.priority },
    order: { eta: order.eta, firstEta: follow.first_eta, slipRaised: follow.slip_raised },
    rules: config?.orders?.rules ?? DEFAULT_ORDER_RULES,
    timeZone: config?.sla.businessHours?.timeZone ?? null,
  });
  const link = { clientId: order.client_id, taskId: order.task_id };
  const now = await tx.now();
  const row = (await tx.orders.recordState(ticketId, link, update.state))!;
  const data = { eventId: event.eventId, event: event.name, status: row.status, eta: row.eta?.toISOString() ?? null, ...namedTimes(event), ...(update.suggestion ? { suggestion: update.suggestion } : {}) };
  const entry = await tx.life.addEntry({ accountId: ticket.account_id, ticketId, kind: 'order_update', text: update.text, actor: SYSTEM_ACTOR, data, contactId: ticket.contact_id, occurredAt: now });
  if (Object.keys(update.ticketChange).length > 0) await applyOne(tx, ticket, update.ticketChange, SYSTEM_ACTOR, now);
  await announceOrderChange(tx, ticketId, SYSTEM_ACTOR, update.change, row, entry.id);
  return true;
}

/** Applies a tracking event to every ticket following its task (each in a transaction of its own); how many it changed. */
export async function applyTrackingEvent(deps: { store: TicketingStore; logger: Logger }, name: string, payload: TrackingEventPayload): Promise<number> {
  const event = orderEventOf(name, payload);
  if (!event) return 0;
  let applied = 0;
  for (const follower of payload.followers) {
    if (!/^[0-9a-f-]{36}$/.test(follower)) continue;
    if (await deps.store.transaction((tx) => applyTo(tx, follower, payload, event))) applied += 1;
  }
  deps.logger.info('tracking event applied to the tickets following the order', { eventId: payload.eventId, event: name, taskId: payload.taskId, followers: payload.followers.length, applied });
  return applied;
}
