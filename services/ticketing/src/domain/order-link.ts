import { TERMINAL_TASK_STATUSES, TRACKING_CLIENT_ID_PATTERN, TRACKING_TASK_ID_PATTERN, type TaskStatus, type TicketStatus } from '@crm/contracts';
import { isActive } from './tickets';

/** A ticket's link to an order: the tracking client and its task. */
export interface OrderLink {
  clientId: string;
  taskId: string;
}

const FIELDS = { clientId: new RegExp(TRACKING_CLIENT_ID_PATTERN), taskId: new RegExp(TRACKING_TASK_ID_PATTERN) } as const;

/** The link in a request body, or every problem with it, each naming its field. */
export function readOrderLink(body: unknown): { link: OrderLink } | { problems: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { problems: ['send a JSON object {"clientId": "...", "taskId": "..."} with content-type application/json'] };
  const record = body as Record<string, unknown>;
  const problems = Object.keys(record)
    .filter((key) => !(key in FIELDS))
    .map((key) => `/${key} is not a field of an order link (only /clientId and /taskId)`);
  for (const [field, pattern] of Object.entries(FIELDS)) {
    const value = record[field];
    if (value === undefined) problems.push(`/${field} is required`);
    else if (typeof value !== 'string' || !pattern.test(value)) problems.push(`/${field} must be a string matching ${pattern.source}`);
  }
  return problems.length > 0 ? { problems } : { link: { clientId: record.clientId as string, taskId: record.taskId as string } };
}

/** Whether the answer is old enough to ask tracking again. */
export const needsRefresh = (checkedAt: Date | null, now: Date, refreshAfterMs: number) => checkedAt === null || now.getTime() - checkedAt.getTime() > refreshAfterMs;

/** What the ticket shows about tracking for its order. */
export interface TrackingState {
  /** null until tracking has answered for this link. */
  available: boolean | null;
  /** `available`, tracking's reason why not (client_not_found, task_not_found, ...), or `not_checked`. */
  reason: string;
  message: string;
  checkedAt: string | null;
  /** The answer is older than the refresh age: tracking did not answer in time when asked again. */
  stale: boolean;
}

export function trackingState(
  answer: { available: boolean | null; reason: string | null; message: string | null; checkedAt: Date | null },
  now: Date,
  refreshAfterMs: number,
): TrackingState {
  const stale = needsRefresh(answer.checkedAt, now, refreshAfterMs);
  if (answer.checkedAt === null || answer.available === null) {
    return { available: null, reason: 'not_checked', message: 'tracking has not answered yet; it is asked again when the ticket is read', checkedAt: null, stale };
  }
  return { available: answer.available, reason: answer.reason ?? (answer.available ? 'available' : 'unknown'), message: answer.message ?? '', checkedAt: answer.checkedAt.toISOString(), stale };
}

/** Tracking's answers that mean the order does not exist there: a link to it is refused. */
const UNKNOWN_ORDER = { client_not_found: 'order_client_unknown', task_not_found: 'order_task_unknown' } as const;

/**
 * Why a link is refused, in words an agent can act on, when tracking says its client or task
 * does not exist (null otherwise: a link tracking merely cannot check now is kept, unverified).
 * A client the credential may not see is refused as an unknown one, so the two look the same.
 */
export function unknownOrder(link: OrderLink, reason: string): { code: string; message: string } | null {
  const code = UNKNOWN_ORDER[reason as keyof typeof UNKNOWN_ORDER];
  if (!code) return null;
  const message =
    code === 'order_client_unknown'
      ? `Tracking has no client named '${link.clientId}'. Check the client's name on the order (as the delivery company spells it); if it is right, tracking is not set up for that client yet: ask an administrator.`
      : `Tracking has no order '${link.taskId}' for client '${link.clientId}'. Check the order (task) number, then link it again.`;
  return { code, message };
}

/**
 * What tracking answers for a client it does not know, in an agent's words: given, unasked, for
 * a client the credential may not see, so the two cannot be told apart.
 */
export function unknownClientAnswer(clientId: string, taskId: string) {
  return { clientId, taskId, available: false, reason: 'client_not_found' as const, message: `Tracking is not set up for client '${clientId}'.` };
}

/**
 * What a linked ticket's following of its order must do now that the ticket is `ticketStatus`:
 * a ticket being worked (open, pending) follows, any other (resolved, closed, merged) does
 * not. `following`: whether it follows now; `orderStatus`: the order's status as last heard.
 * An order known to have ended (delivered, failed, cancelled) is not followed again: tracking
 * does not follow an ended task (it looks it up only to drop the follow, and announces nothing).
 */
export function followingMove(ticketStatus: TicketStatus, order: { following: boolean; status: string | null }): 'follow' | 'unfollow' | null {
  if (!isActive(ticketStatus)) return order.following ? 'unfollow' : null;
  if (order.following || TERMINAL_TASK_STATUSES.includes(order.status as TaskStatus)) return null;
  return 'follow';
}
