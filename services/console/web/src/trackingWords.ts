/**
 * Why tracking cannot show an order, in an agent's words, by tracking's reason code: the
 * services' messages are for integrators (they may name API routes) and never reach the screens.
 */
export const TRACKING_WORDS: Record<string, { title: string; text: string }> = {
  client_not_found: { title: 'Tracking is not set up for this client', text: "The delivery company on this order is not connected to tracking. Check the client's name on the order, or ask an administrator to set tracking up for it." },
  client_disabled: { title: 'Tracking is turned off for this client', text: 'An administrator has turned tracking off for this delivery company; ask them to turn it back on.' },
  task_not_found: { title: 'Order not found', text: 'The delivery company has no order with this number. Check the order (task) number and link it again.' },
  provider_auth_failed: { title: 'Tracking provider unavailable', text: "The delivery company's tracking refused our access; an administrator needs to check the connection. It is checked again on its own." },
  provider_rejected: { title: 'Tracking provider unavailable', text: "The delivery company's tracking did not accept the request just now. It is checked again on its own." },
  provider_unavailable: { title: 'Tracking provider unavailable', text: "The delivery company's tracking does not answer right now. It is checked again on its own." },
  provider_timeout: { title: 'Tracking provider unavailable', text: "The delivery company's tracking is too slow to answer right now. It is checked again on its own." },
  circuit_open: { title: 'Tracking provider unavailable', text: "The delivery company's tracking has been failing; it is tried again in a moment." },
  not_checked: { title: 'Not checked yet', text: 'Tracking has not confirmed this order yet; it is checked again when the ticket is opened.' },
};

/** The sentence for a reason tracking gave, or a plain fallback for one it may add later. */
export const trackingSentence = (reason: string | null | undefined) => TRACKING_WORDS[reason ?? '']?.text ?? 'Tracking cannot show this order right now.';

/**
 * A delivery task's status in an agent's words, by tracking's status code (the provider's
 * CREATED … CANCELLED); one tracking adds later reads as itself, lower-cased.
 */
const TASK_STATUS_WORDS: Record<string, string> = {
  CREATED: 'Waiting for a rider',
  ASSIGNED: 'Assigned',
  NOTIFIED: 'Assigned',
  ACKNOWLEDGED: 'Rider going to pick up',
  STARTED: 'Out for delivery', // picked up: the simulator and tracking count the pickup done from STARTED on
  ARRIVED: 'Rider at the address',
  COMPLETED: 'Delivered',
  PARTIAL_COMPLETED: 'Partly delivered',
  FAILED: 'Delivery failed',
  CANCELLED: 'Cancelled',
};

export const taskStatusWords = (status: string): string => TASK_STATUS_WORDS[status] ?? status.toLowerCase().replace(/_/g, ' ');

/** What the order link of a listed ticket says when tracking cannot show the order (the list carries no task status). */
export function orderLinkWords(tracking: { available: boolean | null; reason: string }): string | null {
  if (tracking.available === true) return null;
  if (tracking.available === null) return TRACKING_WORDS.not_checked!.title;
  return TRACKING_WORDS[tracking.reason]?.title ?? 'Tracking cannot show it';
}
