import type { SocialAction } from '@crm/contracts';
import { isUuid } from './ids';

/** What an agent can do on the account's behalf from a ticket, besides replying. */
export const TICKET_ACTIONS = ['like', 'unlike', 'repost', 'follow', 'unfollow', 'mute', 'unmute', 'block', 'unblock'] as const satisfies readonly SocialAction[];
export type TicketAction = (typeof TICKET_ACTIONS)[number];

/** Actions on a post (the one given, else the ticket's newest customer post); the others act on the ticket's contact. */
export const POST_ACTIONS: readonly TicketAction[] = ['like', 'unlike', 'repost'];

export const isTicketAction = (action: string): action is TicketAction => (TICKET_ACTIONS as readonly string[]).includes(action);

/** Reads `{action, postId?}`. */
export function readTicketAction(body: unknown): { action: TicketAction; postId: string | null } | { problems: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { problems: ['send {"action", "postId"?} as a JSON object'] };
  const { action, postId, ...extra } = body as Record<string, unknown>;
  const problems: string[] = [];
  if (Object.keys(extra).length > 0) problems.push(`unknown field(s) ${Object.keys(extra).map((key) => `/${key}`).join(', ')}`);
  if (typeof action !== 'string' || !isTicketAction(action)) problems.push(`/action must be one of ${TICKET_ACTIONS.join(', ')}`);
  if (postId !== undefined && (typeof postId !== 'string' || !/^[0-9]{1,20}$/.test(postId))) problems.push('/postId must be a platform post id (digits)');
  else if (postId !== undefined && typeof action === 'string' && !POST_ACTIONS.includes(action as TicketAction)) problems.push(`/postId only goes with ${POST_ACTIONS.join(', ')}`);
  if (problems.length > 0) return { problems };
  return { action: action as TicketAction, postId: (postId as string | undefined) ?? null };
}

/** The action a command result is about, recognised by the context ticketing gave its command; null for anything else. */
export function actionOf(action: string, context: Record<string, string> | undefined): { ticketId: string; activityId: string } | null {
  if (!isTicketAction(action) || !context) return null;
  const { ticketId, activityId } = context;
  if (ticketId === undefined || activityId === undefined || !isUuid(ticketId) || !isUuid(activityId)) return null;
  return { ticketId, activityId };
}
