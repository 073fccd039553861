import type { TicketStatus } from '@crm/contracts';
import { addBusinessMinutes } from './business-hours';
import { slaPolicyOf, type PartnerConfig, type RoutingDecision } from './partner-config';
import { minutesFor } from './sla';
import type { SocialEventKind } from './social-events';


/** Statuses in which a ticket still takes new activity of its conversation. */
const ACTIVE_STATUSES = ['open', 'pending'] as const satisfies readonly TicketStatus[];

export const isActive = (status: TicketStatus): boolean => (ACTIVE_STATUSES as readonly TicketStatus[]).includes(status);

export interface TicketState {
  id: string;
  status: TicketStatus;
  resolvedAt: Date | null;
}

export interface NewTicket {
  accountId: string;
  channel: 'dm' | 'public';
  queue: string;
  folder: string;
  routingRule: string | null;
  /** The activity routing looked at. */
  routedByEventId: string;
  openedByKind: SocialEventKind;
  conversationKey: string;
  subject: string;
  createdAt: Date;
  lastActivityAt: Date;
  firstResponseDueAt: Date;
  resolutionDueAt: Date;
  /** A reply opened the ticket while no ticket held its parent post: the parent's id. */
  awaitingPostId: string | null;
}

const SUBJECT_LENGTH = 80;

/** The first line-folded ~80 characters of a text, cut at a word boundary when one is near. */
export function subjectOf(text: string | null): string {
  const folded = (text ?? '').replace(/\s+/g, ' ').trim();
  if (folded === '') return '(no text)';
  const chars = Array.from(folded);
  if (chars.length <= SUBJECT_LENGTH) return folded;
  const cut = chars.slice(0, SUBJECT_LENGTH - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${space >= SUBJECT_LENGTH / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * What a customer's message does with the ticket that holds its conversation (a DM's
 * conversation, a reply's parent post): join an open or pending one; reopen a resolved one
 * if it comes within the reopen window after the resolution (or before it); otherwise, or
 * with no such ticket, or a closed or merged one, start a new ticket.
 */
export function placeInbound(holder: TicketState | null, occurredAt: Date, reopenWindowMinutes: number): 'append' | 'reopen' | 'new' {
  if (!holder) return 'new';
  if (isActive(holder.status)) return 'append';
  if (holder.status !== 'resolved' || reopenWindowMinutes <= 0) return 'new';
  const resolvedAt = holder.resolvedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  return occurredAt.getTime() - resolvedAt <= reopenWindowMinutes * 60_000 ? 'reopen' : 'new';
}

/** A new ticket, routed and due per the partner configuration (and its business hours), counted from its creation. */
export function newTicket(spec: {
  accountId: string;
  channel: 'dm' | 'public';
  conversationKey: string;
  openedByKind: SocialEventKind;
  openedByEventId: string;
  text: string | null;
  occurredAt: Date;
  routing: RoutingDecision;
  config: PartnerConfig;
  now: Date;
  awaitingPostId?: string | null;
}): NewTicket {
  const policy = slaPolicyOf(spec.config);
  const minutes = minutesFor(policy, null);
  return {
    accountId: spec.accountId,
    channel: spec.channel,
    queue: spec.routing.queue,
    folder: spec.routing.folder,
    routingRule: spec.routing.rule,
    routedByEventId: spec.openedByEventId,
    openedByKind: spec.openedByKind,
    conversationKey: spec.conversationKey,
    subject: subjectOf(spec.text),
    createdAt: spec.now,
    lastActivityAt: spec.occurredAt,
    firstResponseDueAt: addBusinessMinutes(spec.now, minutes.firstResponseMinutes, policy.businessHours),
    resolutionDueAt: addBusinessMinutes(spec.now, minutes.resolutionMinutes, policy.businessHours),
    awaitingPostId: spec.awaitingPostId ?? null,
  };
}
