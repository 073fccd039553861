import { DateTime } from 'luxon';
import { taskStatusOf, TICKET_PRIORITIES, type OrderChangeKind, type TaskStatus, type TicketPriority, type TicketStatus, type TrackingLiveView } from '@crm/contracts';
import type { OrderRules } from './order-references';
import type { TicketChange } from './workflow';

/**
 * What a change of a followed order does to the ticket following it (services/ticketing/README.md,
 * "Orders found in messages"): the timeline entry in an agent's words, the order's new status
 * and ETA, and the partner configuration's rules. Pure.
 */

/** A tracking event as the ticket reads it. */
export type OrderEvent =
  | { name: 'task.status_changed'; eventId: string; occurredAt: string; to: TaskStatus; statusAt: string | null }
  | { name: 'task.eta_moved'; eventId: string; occurredAt: string; previousEta: string; eta: string }
  | { name: 'task.rider_silent'; eventId: string; occurredAt: string; lastPositionAt: string };

export interface OrderUpdateInput {
  event: OrderEvent;
  ticket: { status: TicketStatus; priority: TicketPriority };
  order: { eta: Date | null; firstEta: Date | null; slipRaised: boolean };
  rules: OrderRules;
  /** The account's time zone (its business hours'); null: UTC, named. */
  timeZone: string | null;
}

export interface OrderUpdate {
  change: OrderChangeKind;
  text: string;
  /** What the order row keeps (only what changes). */
  state: { status?: TaskStatus; eta?: Date; firstEta?: Date; slipRaised?: boolean };
  /** What the rules change on the ticket (empty: nothing). */
  ticketChange: TicketChange;
  /** `resolve`: delivered while the ticket waits on the customer. */
  suggestion: 'resolve' | null;
}

/** The task's status and ETA in tracking's live view, when it has them. */
export function stateOf(view: TrackingLiveView): { status: TaskStatus | null; eta: Date | null } {
  return { status: taskStatusOf(view.status), eta: view.eta ? new Date(view.eta.at) : null };
}

/** A time of day as agents read it: in the account's zone, else in UTC saying so. */
export function clockTime(at: Date | string, timeZone: string | null): string {
  const time = DateTime.fromJSDate(new Date(at), { zone: timeZone ?? 'UTC' }).toFormat('HH:mm');
  return timeZone ? time : `${time} UTC`;
}

const STATUS_WORDS: Record<TaskStatus, string> = {
  assigned: 'Assigned to a rider',
  picked_up: 'Picked up',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  failed: 'Delivery failed',
  cancelled: 'Cancelled',
};

/** One priority step up (urgent stays urgent). */
export function raised(priority: TicketPriority): TicketPriority {
  return TICKET_PRIORITIES[Math.min(TICKET_PRIORITIES.indexOf(priority) + 1, TICKET_PRIORITIES.length - 1)]!;
}

function statusUpdate(input: OrderUpdateInput, event: Extract<OrderEvent, { name: 'task.status_changed' }>): OrderUpdate {
  const { ticket, order, rules, timeZone } = input;
  const words = STATUS_WORDS[event.to];
  let text = words;
  if (event.to === 'out_for_delivery' && order.eta) text = `${words}, ETA ${clockTime(order.eta, timeZone)}`;
  if (event.to === 'delivered') text = `${words} ${clockTime(event.statusAt ?? event.occurredAt, timeZone)}`;
  const ticketChange: TicketChange = {};
  if ((event.to === 'failed' || event.to === 'cancelled') && rules.reopenOnFailure) {
    if (ticket.status !== 'open') ticketChange.status = 'open';
    if (ticket.priority !== 'urgent') ticketChange.priority = 'urgent';
  }
  const suggestion = event.to === 'delivered' && ticket.status === 'pending' && rules.suggestResolveOnDelivery ? 'resolve' : null;
  return { change: 'status_changed', text, state: { status: event.to }, ticketChange, suggestion };
}

function etaUpdate(input: OrderUpdateInput, event: Extract<OrderEvent, { name: 'task.eta_moved' }>): OrderUpdate {
  const { ticket, order, rules, timeZone } = input;
  const eta = new Date(event.eta);
  const firstEta = order.firstEta ?? new Date(event.previousEta);
  const slipMinutes = Math.round((eta.getTime() - firstEta.getTime()) / 60_000);
  const slipped = rules.raisePriorityOnSlip && !order.slipRaised && slipMinutes >= rules.slipMinutes;
  const ticketChange: TicketChange = slipped && ticket.priority !== 'urgent' ? { priority: raised(ticket.priority) } : {};
  return {
    change: 'eta_moved',
    text: `ETA moved ${clockTime(event.previousEta, timeZone)} -> ${clockTime(eta, timeZone)}`,
    state: { eta, firstEta, ...(slipped ? { slipRaised: true } : {}) },
    ticketChange,
    suggestion: null,
  };
}

/** The times an entry's words name, kept in its data so a screen can say them on its reader's clock. */
export function namedTimes(event: OrderEvent): Record<string, string> {
  if (event.name === 'task.eta_moved') return { previousEta: event.previousEta };
  if (event.name === 'task.rider_silent') return { lastPositionAt: event.lastPositionAt };
  return event.to === 'delivered' ? { statusAt: event.statusAt ?? event.occurredAt } : {};
}

/** What the event does to the ticket. */
export function orderUpdate(input: OrderUpdateInput): OrderUpdate {
  const { event } = input;
  if (event.name === 'task.status_changed') return statusUpdate(input, event);
  if (event.name === 'task.eta_moved') return etaUpdate(input, event);
  return { change: 'rider_silent', text: `Rider silent since ${clockTime(event.lastPositionAt, input.timeZone)}`, state: {}, ticketChange: {}, suggestion: null };
}
