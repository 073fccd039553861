/**
 * The lists a ticket's fields take, declared once for ticketing, its events and the console.
 * No imports: the console's web pages import this file alone.
 */
export const TICKET_STATUSES = ['open', 'pending', 'resolved', 'closed', 'merged'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** The statuses a person may set: `merged` is reached by a merge only. */
export const SETTABLE_TICKET_STATUSES = ['open', 'pending', 'resolved', 'closed'] as const satisfies readonly TicketStatus[];

export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
