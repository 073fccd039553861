/**
 * Order-aware tickets in an agent's words: the order's delivery status (ticketing's
 * assigned … cancelled), how the order came to be linked, what the order-reference tester
 * found, and when an order update suggests resolving. Pure: no calls, no React.
 */
import { TONE } from './colors';
import { clock } from './format';

/** ticketing's delivery status of a linked order (null until tracking has told it). */
export type OrderStatus = 'assigned' | 'picked_up' | 'out_for_delivery' | 'delivered' | 'failed' | 'cancelled';

const STATUS_WORDS: Record<OrderStatus, string> = {
  assigned: 'Rider assigned',
  picked_up: 'Picked up',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  failed: 'Delivery failed',
  cancelled: 'Cancelled',
};

const STATUS_TONE: Record<OrderStatus, string> = {
  assigned: TONE.neutral,
  picked_up: TONE.info,
  out_for_delivery: TONE.info,
  delivered: TONE.good,
  failed: TONE.bad,
  cancelled: TONE.warn,
};

const isStatus = (status: string | null | undefined): status is OrderStatus => typeof status === 'string' && status in STATUS_WORDS;

/** "Out for delivery" for `out_for_delivery`; a status ticketing adds later reads as itself; none: null. */
export function orderStatusWords(status: string | null | undefined): string | null {
  if (!status) return null;
  return isStatus(status) ? STATUS_WORDS[status] : status.replace(/_/g, ' ');
}

/** The badge colour of a status (dark enough for white text); a status not known yet is neutral. */
export const orderStatusTone = (status: string | null | undefined): string => (isStatus(status) ? STATUS_TONE[status] : TONE.neutral);

/** The status ended the delivery one way or the other: no ETA is shown after it. */
export const isFinalStatus = (status: string | null | undefined) => status === 'delivered' || status === 'failed' || status === 'cancelled';

/** An order update's data, as ticketing keeps it beside its words: the event, the status and ETA after it, the times its words name. */
export interface OrderUpdateData {
  event?: string;
  status?: string | null;
  eta?: string | null;
  previousEta?: string;
  statusAt?: string;
  lastPositionAt?: string;
}

/**
 * An order update in words, its times on the agent's clock (`at` formats them): "ETA moved 12:40 -> 13:05",
 * "Out for delivery, ETA 12:40", "Delivered 12:41", "Rider silent since 12:31". `text` (ticketing's words, in
 * the account's zone) when the data does not say enough.
 */
export function orderUpdateWords(data: OrderUpdateData | null | undefined, text: string | null, at: (iso: string) => string = clock): string {
  const fallback = text ?? 'The order changed.';
  if (!data) return fallback;
  if (data.event === 'task.eta_moved' && data.previousEta && data.eta) return `ETA moved ${at(data.previousEta)} -> ${at(data.eta)}`;
  if (data.event === 'task.rider_silent' && data.lastPositionAt) return `Rider silent since ${at(data.lastPositionAt)}`;
  if (data.event !== 'task.status_changed') return fallback;
  if (data.status === 'delivered' && data.statusAt) return `Delivered ${at(data.statusAt)}`;
  if (data.status === 'out_for_delivery' && data.eta) return `Out for delivery, ETA ${at(data.eta)}`;
  return orderStatusWords(data.status) ?? fallback;
}

/** What a listed ticket's order says of itself (the fields this needs of ticketing's OrderLink). */
export interface OrderFacts {
  taskId: string;
  status?: string | null;
  eta?: string | null;
  linkedBy?: string | null;
  reference?: string | null;
}

/**
 * The inbox chip's words: "Order 4711 · Out for delivery · ETA 14:05" (the ETA on the agent's
 * clock, `at` formats it; none once the delivery has ended); "Order 4711" while no status is known.
 */
export function orderChipWords(order: OrderFacts, at: (iso: string) => string = clock): string {
  const parts = [`Order ${order.taskId}`];
  const status = orderStatusWords(order.status);
  if (status) parts.push(status);
  if (order.eta && !isFinalStatus(order.status)) parts.push(`ETA ${at(order.eta)}`);
  return parts.join(' · ');
}

/** How the order was linked, for the order card: `Linked automatically from “order 4711”`, or null when an agent linked it. */
export function linkedWords(order: OrderFacts): string | null {
  if (order.linkedBy !== 'auto') return null;
  return order.reference ? `Linked automatically from “${order.reference}”` : 'Linked automatically';
}

/** One reference the tester found: the text matched, the task it names, whether tracking knows it (null: could not ask). */
export interface ReferenceMatch {
  reference: string;
  taskId: string;
  exists: boolean | null;
  message?: string | null;
}

/** A found reference in plain words, for when the service gives no sentence of its own: `“order 4711” is task 4711, which the delivery company knows.` */
export function referenceMatchWords(match: ReferenceMatch, clientId: string | null): string {
  if (match.message?.trim()) return match.message.trim();
  const company = clientId ? `the delivery company (${clientId})` : 'the delivery company';
  const found = `“${match.reference}” is task ${match.taskId}`;
  if (match.exists === true) return `${found}, which ${company} knows: a ticket with it is linked to this order.`;
  if (match.exists === false) return `${found}, but ${company} has no such task: a ticket with it is not linked.`;
  return `${found}; tracking could not be asked whether it exists just now, so it is checked again when a message names it.`;
}

/** The tester's answer as a whole, when it found nothing. */
export const NO_REFERENCE_WORDS = 'No order reference found in this message: a ticket with it would not be linked to an order.';

/** The examples of what the default patterns find, shown while the list of patterns is empty. */
export const DEFAULT_REFERENCE_EXAMPLES = ['order 4711', 'order #4711', '#4711'];

/** The order options of a partner configuration, as the form holds them: a cleared slip time is null (asked for, never saved as 0). */
export interface OrdersDraft {
  trackingClientId: string;
  references: { pattern: string; taskId: string }[];
  rules: { slipMinutes: number | null; raisePriorityOnSlip: boolean; reopenOnFailure: boolean; suggestResolveOnDelivery: boolean };
}

/** What a configuration that turns orders on starts with: the default references, every rule on. */
export const newOrdersDraft = (): OrdersDraft => ({
  trackingClientId: '',
  references: [],
  rules: { slipMinutes: 30, raisePriorityOnSlip: true, reopenOnFailure: true, suggestResolveOnDelivery: true },
});

/** The order options as ticketing stores them (every part but the client optional). */
export interface StoredOrders {
  trackingClientId?: string | null;
  references?: { pattern: string; taskId: string }[];
  rules?: Partial<OrdersDraft['rules']>;
}

/** The form's draft of stored order options, ticketing's defaults filled in; none stored: off (null). */
export function ordersDraftOf(stored: StoredOrders | null | undefined): OrdersDraft | null {
  if (!stored) return null;
  const start = newOrdersDraft();
  return { trackingClientId: stored.trackingClientId ?? '', references: stored.references ?? [], rules: { ...start.rules, ...stored.rules } };
}

/** The order options as ticketing takes them: trimmed, the slip time filled (the form asks for it first). */
export function ordersInputOf(draft: OrdersDraft | null): StoredOrders | null {
  if (!draft) return null;
  return {
    trackingClientId: draft.trackingClientId.trim(),
    references: draft.references.map((reference) => ({ pattern: reference.pattern, taskId: reference.taskId.trim() })),
    rules: { ...draft.rules, slipMinutes: draft.rules.slipMinutes ?? undefined },
  };
}

/** The order fields the agent left empty, each with its JSON pointer: the form is not sent while any is. */
export function missingOrderFields(draft: OrdersDraft | null | undefined): [string, string][] {
  if (!draft) return [];
  const missing: [string, string][] = [];
  if (!draft.trackingClientId.trim()) missing.push(['/orders/trackingClientId', 'is required']);
  if (draft.rules.slipMinutes === null) missing.push(['/orders/rules/slipMinutes', 'is required']);
  return missing;
}

/** A timeline entry that may suggest an action (the fields this needs of ticketing's Activity). */
export interface SuggestingActivity {
  kind: string;
  data?: Record<string, unknown> | null;
}

/** An order update suggests resolving (the order was delivered while the ticket waited), and the ticket is still pending. */
export function suggestsResolve(activity: SuggestingActivity, ticketStatus: string): boolean {
  return activity.kind === 'order_update' && activity.data?.suggestion === 'resolve' && ticketStatus === 'pending';
}
