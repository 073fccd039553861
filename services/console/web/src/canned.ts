/** Canned replies and their variables: `{customer}`, `{order_status}`, `{eta}`. */

export interface CannedReply {
  label: string;
  text: string;
}

export const CANNED_REPLIES: CannedReply[] = [
  { label: 'Greeting', text: 'Hi {customer}, thanks for reaching out. Let me look into this for you.' },
  { label: 'Order status', text: 'Hi {customer}, your order is {order_status}. Expected arrival: {eta}.' },
  { label: 'Rider on the way', text: 'Good news {customer}: the rider is on the way and should arrive around {eta}.' },
  { label: 'Closing', text: 'Glad we could help, {customer}. Have a great day!' },
];

export interface CannedContext {
  customer: string | null;
  orderStatus: string | null;
  /** The ETA already in the agent's words (their time zone). */
  eta: string | null;
}

const WORDS: Record<string, string> = {
  CREATED: 'received', ASSIGNED: 'assigned to a rider', ACKNOWLEDGED: 'assigned to a rider', STARTED: 'on its way', ARRIVED: 'at your address',
  COMPLETED: 'delivered', PARTIAL_COMPLETED: 'partly delivered', CANCELLED: 'cancelled', FAILED: 'not delivered',
};

/** The order status as a customer reads it ("on its way", not STARTED). */
export const orderStatusWords = (status: string): string => WORDS[status] ?? status.toLowerCase().replace(/_/g, ' ');

/** The reply with its variables filled in; one the ticket cannot fill stays a visible placeholder for the agent to complete. */
export function fillCanned(text: string, context: CannedContext): string {
  const values: Record<string, string | null> = { customer: context.customer, order_status: context.orderStatus ? orderStatusWords(context.orderStatus) : null, eta: context.eta };
  return text.replace(/\{(customer|order_status|eta)\}/g, (whole, name: string) => values[name] ?? `[${name.replace('_', ' ')}]`);
}

/** The platform's limits (code points, as the command contract counts): a DM 10,000 characters, a public reply 280. */
export const textLimit = (channel: string): number => (channel === 'dm' ? 10_000 : 280);
export const textLength = (text: string): number => [...text].length;
