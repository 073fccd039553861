import { isUuid } from './ids';

/**
 * An agent's reply from a ticket: a DM to the contact on a DM ticket, a public reply to the
 * ticket's last inbound post on a public one.
 */

/** What an agent's reply says: its text, an image uploaded through auth (its media id), or both. */
export interface ReplyContent {
  text: string | null;
  mediaId: string | null;
}

const MEDIA_ID = /^[0-9]{1,20}$/;

/** The attachment's media id, or the problem with it. */
function readAttachment(attachment: unknown): { mediaId: string | null } | { problem: string } {
  if (attachment === undefined) return { mediaId: null };
  if (typeof attachment !== 'object' || attachment === null || Array.isArray(attachment)) return { problem: '/attachment must be an object {"mediaId": "..."}' };
  const extra = Object.keys(attachment).filter((key) => key !== 'mediaId');
  if (extra.length > 0) return { problem: `/attachment/${extra[0]} is not a field of an attachment (only /attachment/mediaId)` };
  const { mediaId } = attachment as { mediaId?: unknown };
  if (typeof mediaId !== 'string' || !MEDIA_ID.test(mediaId)) return { problem: "/attachment/mediaId must be the media id auth's upload answered (digits)" };
  return { mediaId };
}

/**
 * The reply's text and attachment, or the problem with the body, naming the field. Only what the
 * command's contract cannot say in terms of this body is checked here (the text's length, per
 * channel, is the contract's); a blank text is refused here too, where it can be said plainly.
 */
export function readReply(body: unknown): ReplyContent | { problem: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { problem: 'send a JSON object {"text": "..."} with content-type application/json' };
  const extra = Object.keys(body).filter((key) => key !== 'text' && key !== 'attachment');
  if (extra.length > 0) return { problem: `/${extra[0]} is not a field of a reply (only /text and /attachment)` };
  const { text, attachment } = body as { text?: unknown; attachment?: unknown };
  const read = readAttachment(attachment);
  if ('problem' in read) return read;
  if (text === undefined) return read.mediaId ? { text: null, mediaId: read.mediaId } : { problem: '/text is required (or an /attachment)' };
  if (typeof text !== 'string') return { problem: '/text must be a string' };
  if (text.trim() === '') return { problem: '/text must not be blank' };
  return { text, mediaId: read.mediaId };
}

/** An image on a public reply: only DMs carry them here. */
export const IMAGE_ON_PUBLIC_REPLY =
  'Images can be attached to direct messages only, and this ticket is answered with a public reply: send the text without the image.';

/** A reply to a ticket merged meanwhile: where the conversation went, for the agent to reply there. */
export function mergedAway(into: string | null): string {
  return into
    ? `This ticket was merged into ticket ${into} while you were writing: open that ticket and send your reply from there (nothing was sent).`
    : 'This ticket was merged into another one while you were writing: reply from that ticket (nothing was sent).';
}

/**
 * The platform's length limit a reply broke, as a sentence (null when that is not the problem):
 * "The reply is 312 characters long; a public reply can have at most 280 (the platform's limit)."
 */
export function tooLong(text: string, channel: 'dm' | 'public', problems: string[]): string | null {
  const limit = problems.map((problem) => /must NOT have more than (\d+) characters/.exec(problem)?.[1]).find(Boolean);
  if (!limit) return null;
  const what = channel === 'dm' ? 'a direct message' : 'a public reply';
  return `The reply is ${[...text].length} characters long; ${what} can have at most ${limit} (the platform's limit). Shorten it and send it again.`;
}

/** Account states in which nothing can be sent on the account's behalf, with why, for a person. */
export function unavailableBecause(accountId: string, status: string | null): string | null {
  switch (status) {
    case 'needs_reconnect':
      return `account ${accountId} must be connected again: the platform refused its token. Reconnect it in auth, then send the reply again`;
    case 'revoked':
      return `account ${accountId} revoked the app's access on the platform. Connect it again, then send the reply again`;
    case 'disconnected':
      return `account ${accountId} is disconnected from auth. Connect it again, then send the reply again`;
    default:
      return null;
  }
}

/** The actions ticketing sends (replies from tickets). */
const REPLY_ACTIONS = new Set(['send_dm', 'reply']);

/** What a reply's command carries in its `context`, and auth echoes in its result. */
export interface ReplyContext {
  ticketId: string;
  activityId: string;
}

/** The reply a command (or its result) is about, recognised by the context ticketing gave it; null for anyone else's. */
export function replyOf(action: string, context: Record<string, string> | undefined): ReplyContext | null {
  if (!REPLY_ACTIONS.has(action) || !context) return null;
  const { ticketId, activityId } = context;
  if (ticketId === undefined || activityId === undefined || !isUuid(ticketId) || !isUuid(activityId)) return null;
  return { ticketId, activityId };
}
