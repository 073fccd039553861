import type { Direction, NewActivity } from '../../adapters/db/activities';
import type { TicketingTx } from '../../adapters/db/store';
import { contactOf, hasOwnText } from '../../domain/event-kinds';
import type { Post, SocialEvent, SocialUser } from '../../domain/social-events';
import { route, type PartnerConfig } from '../../domain/partner-config';
import { findReferences, referencesOf } from '../../domain/order-references';
import { newTicket, type TicketState } from '../../domain/tickets';
import type { CrmEventSpec } from '../../adapters/db/crm-events';
import type { RecordingWindow } from './window';
import { SYSTEM_ACTOR } from '../../domain/workflow';
import { recordReopen } from '../reopen';
import { reevaluateSlaIn } from '../sla';

/** What happened to each event of a delivery. */
export type Outcome = 'opened' | 'appended' | 'timeline' | 'state' | 'deleted' | 'edited' | 'duplicate' | 'ignored';
export type Counts = Record<Outcome, number>;

export const emptyCounts = (): Counts => ({ opened: 0, appended: 0, timeline: 0, state: 0, deleted: 0, edited: 0, duplicate: 0, ignored: 0 });

/** Where the events being recorded came from: the delivery's envelope and when webhook-ingest received it. */
export interface DeliverySource {
  envelopeId: string;
  receivedAt: Date;
}

/** An activity recorded (its id), or why not: recorded before as it is, or recorded before with another text (an edit). */
export type Recorded = { id: string } | { outcome: 'duplicate' | 'edited' };

/** What opening a ticket needs beyond the event: its conversation, and what routing looks at. */
export interface TicketOpening {
  channel: 'dm' | 'public';
  conversationKey: string;
  text: string | null;
  sender: SocialUser | null;
  lang: string | null;
  /** A reply opened it while no ticket held its parent post: the parent's id. */
  awaitingPostId?: string | null;
}

/** How an inbound activity joins the ticket holding its conversation. */
export type Placement = 'append' | 'reopen';

/**
 * The context of one delivery's recording, shared by the recorders of each event family:
 * the transaction's window (RecordingWindow: contacts, DM conversations' tickets, and what is
 * done once at its end), the partner configuration and the transaction's clock; and the steps
 * every family takes (build an activity, open a ticket, join one, note a ticket whose summary
 * must be brought up to date).
 */
export class Recorder {
  /** Tickets this delivery opened (the partner configuration's merge rules look at them once it is recorded). */
  readonly opened: string[] = [];
  readonly tx: TicketingTx;
  readonly now: Date;
  /** The CRM events of this delivery, emitted at the end of the window. */
  private readonly announcements: { created: CrmEventSpec[]; placed: CrmEventSpec[] };

  constructor(
    private readonly window: RecordingWindow,
    /** The account whose activity the delivery is. */
    private readonly accountId: string,
    private readonly config: PartnerConfig | null,
    private readonly source: DeliverySource,
  ) {
    this.tx = window.tx;
    this.now = window.now;
    this.announcements = window.startDelivery();
  }

  /** The account's configuration, if it has one. */
  get configuration(): PartnerConfig | null {
    return this.config;
  }

  /** The account's configuration; every event but a revoke needs one. */
  get partner(): PartnerConfig {
    if (!this.config) throw new Error('a partner configuration is needed to record this activity');
    return this.config;
  }

  contactId(user: SocialUser | null): string | null {
    return user ? this.window.contactId(this.accountId, user) : null;
  }

  /** The activity row an event becomes, on no ticket yet. */
  activity(event: SocialEvent, direction: Direction, fields: Partial<NewActivity> = {}): NewActivity {
    const contact = contactOf(event);
    return {
      accountId: event.accountId,
      ticketId: null,
      kind: event.kind,
      direction,
      text: null,
      platformEventId: event.platformEventId,
      occurredAt: new Date(event.occurredAt),
      authorContactId: direction === 'inbound' ? this.contactId(contact) : null,
      contactId: this.contactId(contact),
      conversationKey: null,
      parentPostId: null,
      relatedPostId: null,
      attachments: [],
      sourceEnvelopeId: this.source.envelopeId,
      receivedAt: this.source.receivedAt,
      raw: event.raw,
      ...fields,
    };
  }

  postActivity(event: SocialEvent & { post: Post }, direction: Direction, parentPostId: string | null): NewActivity {
    return this.activity(event, direction, {
      text: event.post.text,
      parentPostId,
      relatedPostId: event.post.quotedPost?.id ?? null,
      attachments: event.post.media,
    });
  }

  /**
   * Records an activity: the one way every recorder family does. Its platform event recorded
   * before with another text is an edit when the text is the kind's own (EventKind.ownText:
   * posts, DMs; ActivityRepository.reviseText): a ticket showing the new text has its summary
   * brought up to date and the CRM hears of the activity again. For other kinds (a reaction's
   * text is the post it is about) it is a duplicate.
   */
  async record(activity: NewActivity): Promise<Recorded> {
    const { ticketId } = activity;
    const id = (ticketId !== null ? await this.window.takePrerecorded({ ...activity, ticketId }) : null) ?? (await this.tx.activities.record(activity));
    if (id) return { id };
    const edited = activity.text === null || !hasOwnText(activity.kind) ? null : await this.tx.activities.reviseText(activity);
    if (!edited) return { outcome: 'duplicate' };
    if (edited.shown && edited.ticketId) {
      this.changedTicket(edited.ticketId);
      this.announcePlaced(edited.ticketId, edited.id);
    }
    return { outcome: 'edited' };
  }

  /** Opens a ticket for the activity (already recorded) and puts it there. */
  async open(event: SocialEvent, activityId: string, opening: TicketOpening): Promise<string> {
    const { sender } = opening;
    const routing = route({ kind: event.kind, text: opening.text, senderId: sender?.id ?? null, senderScreenName: sender?.screenName ?? null, lang: opening.lang }, this.partner);
    const ticket = newTicket({
      accountId: event.accountId,
      channel: opening.channel,
      conversationKey: opening.conversationKey,
      openedByKind: event.kind,
      openedByEventId: event.platformEventId,
      text: opening.text,
      occurredAt: new Date(event.occurredAt),
      routing,
      config: this.partner,
      now: this.now,
      awaitingPostId: opening.awaitingPostId ?? null,
    });
    const ticketId = await this.tx.tickets.open(ticket, this.contactId(sender));
    await this.tx.activities.attach(activityId, ticketId);
    this.window.holders.set(opening.conversationKey, { id: ticketId, status: 'open', resolvedAt: null });
    this.announcements.created.push({ type: 'ticket.created', ticketId, actor: SYSTEM_ACTOR, activityId });
    this.opened.push(ticketId);
    await reevaluateSlaIn(this.tx, ticketId, this.now, this.partner); // its SLA timers
    await this.noteOrderReferences(ticketId, opening.text);
    return ticketId;
  }

  /**
   * Order references in a customer's words, for a ticket with no order yet, noted with the
   * delivery (order_findings) and checked with tracking after the commit (OrderFinder): the
   * partner configuration must name a tracking client.
   */
  private async noteOrderReferences(ticketId: string, text: string | null | undefined): Promise<void> {
    const orders = this.config?.orders;
    if (!orders?.trackingClientId || !text) return;
    const found = findReferences(text, referencesOf(orders));
    if (found.length > 0) await this.tx.orderFindings.enqueue(ticketId, orders.trackingClientId, found);
  }

  /** The ticket's activities changed: its summary is brought up to date before the transaction commits. */
  changedTicket(ticketId: string): void {
    this.window.changedTicket(ticketId, this.config);
  }

  /** The window's summaries and CRM events brought up to date now: a ticket they may name is about to go. */
  settle(): Promise<void> {
    return this.window.finish();
  }

  /** What another transaction's work (an automatic merge) may have changed is read again when needed. */
  forgetHolders(): void {
    this.window.forgetHolders();
  }

  /** The ticket was folded into another and deleted: nothing to bring up to date. */
  deletedTicket(ticketId: string): void {
    this.window.deletedTicket(ticketId);
  }

  /** The ticket holding a DM conversation as the window read it, without reading it (undefined: not read). */
  knownHolder(conversationKey: string): TicketState | null | undefined {
    return this.window.holders.get(conversationKey);
  }

  /** The ticket a DM conversation's next message belongs with (TicketRepository.conversationHolder), read once per transaction. */
  conversationHolder(accountId: string, conversationKey: string): Promise<TicketState | null> {
    return this.window.conversationHolder(accountId, conversationKey);
  }

  /** A DM conversation's ticket as it is now (opened, or reopened by this delivery). */
  private heldBy(conversationKey: string | null, holder: TicketState): void {
    if (conversationKey !== null && this.window.holders.has(conversationKey)) this.window.holders.set(conversationKey, holder);
  }

  /**
   * Puts an inbound activity on the ticket that holds its conversation, reopening it if needed;
   * `attached`: the activity was recorded on it already.
   */
  async join(
    holder: TicketState,
    activityId: string,
    placement: Placement,
    { attached = false, conversationKey = null, text = null }: { attached?: boolean; conversationKey?: string | null; text?: string | null } = {},
  ): Promise<void> {
    if (!attached) await this.tx.activities.attach(activityId, holder.id);
    await this.noteOrderReferences(holder.id, text);
    if (placement === 'reopen' || holder.status === 'pending') {
      await this.reopen(holder.id);
      this.heldBy(conversationKey, { ...holder, status: 'open' });
    }
    this.changedTicket(holder.id);
    this.announcePlaced(holder.id, activityId);
  }

  /** A customer wrote again: the ticket is open, and its SLA clocks resume. */
  async reopen(ticketId: string): Promise<void> {
    await recordReopen(this.tx, ticketId, this.now);
    await reevaluateSlaIn(this.tx, ticketId, this.now, this.config ?? undefined);
  }

  /** Puts an outbound activity on the ticket that holds what it answers. */
  async appendOutbound(holder: TicketState, activityId: string, { attached = false }: { attached?: boolean } = {}): Promise<void> {
    if (!attached) await this.tx.activities.attach(activityId, holder.id);
    this.changedTicket(holder.id);
    this.announcePlaced(holder.id, activityId);
  }

  /** The CRM hears of each activity placed on a ticket once the window's summaries are brought up to date. */
  private announcePlaced(ticketId: string, activityId: string): void {
    this.announcements.placed.push({ type: 'ticket.activity', ticketId, actor: SYSTEM_ACTOR, activityId });
  }
}
