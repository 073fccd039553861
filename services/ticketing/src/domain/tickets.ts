import type { DmReceived } from './events';

export const TICKET_STATUSES = ['open', 'pending', 'resolved', 'closed', 'merged'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** Statuses in which a ticket still takes new activity of its conversation. */
export const ACTIVE_STATUSES = ['open', 'pending'] as const satisfies readonly TicketStatus[];
export type ActiveStatus = (typeof ACTIVE_STATUSES)[number];

/** Where a new ticket goes and when it is due. Later read from the account's partner configuration. */
export interface TicketDefaults {
  queue: string;
  folder: string;
  firstResponseMinutes: number;
  resolutionMinutes: number;
}

export interface ActiveTicket {
  id: string;
  status: ActiveStatus;
}

export interface NewTicket {
  accountId: string;
  status: 'open';
  channel: 'dm' | 'public';
  queue: string;
  folder: string;
  conversationKey: string;
  subject: string;
  createdAt: Date;
  lastActivityAt: Date;
  firstResponseDueAt: Date;
  resolutionDueAt: Date;
}

export type ThreadingDecision =
  | { action: 'append'; ticketId: string; status: ActiveStatus }
  | { action: 'open'; ticket: NewTicket };

export const SUBJECT_LENGTH = 80;

/** The first line-folded ~80 characters of a text, cut at a word boundary when one is near. */
export function subjectOf(text: string): string {
  const folded = text.replace(/\s+/g, ' ').trim();
  if (folded === '') return '(no text)';
  const chars = Array.from(folded);
  if (chars.length <= SUBJECT_LENGTH) return folded;
  const cut = chars.slice(0, SUBJECT_LENGTH - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${space >= SUBJECT_LENGTH / 2 ? cut.slice(0, space) : cut}…`;
}

const minutesAfter = (start: Date, minutes: number) => new Date(start.getTime() + minutes * 60_000);

/**
 * A received DM joins the open (or pending) ticket of its conversation; without one it opens
 * a new ticket. A customer writing again on a pending ticket makes it open again.
 */
export function threadDmReceived(event: DmReceived, active: ActiveTicket | null, defaults: TicketDefaults, now: Date): ThreadingDecision {
  if (active) return { action: 'append', ticketId: active.id, status: 'open' };
  return {
    action: 'open',
    ticket: {
      accountId: event.accountId,
      status: 'open',
      channel: 'dm',
      queue: defaults.queue,
      folder: defaults.folder,
      conversationKey: event.conversationKey,
      subject: subjectOf(event.text),
      createdAt: now,
      lastActivityAt: event.occurredAt,
      firstResponseDueAt: minutesAfter(now, defaults.firstResponseMinutes),
      resolutionDueAt: minutesAfter(now, defaults.resolutionMinutes),
    },
  };
}
