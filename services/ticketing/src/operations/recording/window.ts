import type { NewActivity } from '../../adapters/db/activities';
import type { CrmEventSpec } from '../../adapters/db/crm-events';
import type { TicketingTx } from '../../adapters/db/store';
import { contactOf } from '../../domain/event-kinds';
import { dmConversationKey } from '../../domain/events';
import { route, type PartnerConfig } from '../../domain/partner-config';
import type { SocialEvent, SocialUser } from '../../domain/social-events';
import { subjectOf, type TicketState } from '../../domain/tickets';

/** An activity's key: one account's platform event. */
const eventKey = (activity: NewActivity) => `${activity.accountId}\u0000${activity.platformEventId}`;

/** A contact's key within a window: one account's platform user. */
const contactKey = (accountId: string, userId: string) => `${accountId}\u0000${userId}`;

/** Events in the order they are applied: by time, then platform id. */
export const inTimeOrder = (events: SocialEvent[]): SocialEvent[] => [...events].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.platformEventId.localeCompare(b.platformEventId));

interface Sighting {
  accountId: string;
  user: SocialUser;
  observedAt: Date;
}

/**
 * The user objects worth upserting, in time order: of the same user seen several times with
 * the same profile, only the latest sighting (the earlier ones change nothing the latest does
 * not), so a long conversation upserts its contact once.
 */
function sightings(ordered: SocialEvent[]): Sighting[] {
  const latest = new Map<string, Sighting>();
  for (const event of ordered) {
    const user = contactOf(event);
    if (user === null || user.id === event.accountId) continue;
    latest.set(`${contactKey(event.accountId, user.id)}\u0000${JSON.stringify(user)}`, { user, observedAt: new Date(event.occurredAt), accountId: event.accountId });
  }
  return [...latest.values()];
}

/**
 * Rounds of upserts in which each contact appears once (a statement may not change a row
 * twice): a contact's sightings in time order, its first in the first round, and so on, so it
 * ends as one upsert per sighting in that order would leave it. Within a round, sorted by
 * account and user, so concurrent transactions never wait on each other crosswise.
 */
function upsertRounds(all: Sighting[]): Sighting[][] {
  const byContact = new Map<string, Sighting[]>();
  for (const sighting of [...all].sort((a, b) => a.observedAt.getTime() - b.observedAt.getTime())) {
    const key = contactKey(sighting.accountId, sighting.user.id);
    byContact.set(key, [...(byContact.get(key) ?? []), sighting]);
  }
  const keys = [...byContact.keys()].sort();
  const rounds: Sighting[][] = [];
  for (let round = 0; ; round += 1) {
    const these = keys.flatMap((key) => byContact.get(key)![round] ?? []);
    if (these.length === 0) return rounds;
    rounds.push(these);
  }
}

/** The DM conversations of the events, whose tickets are read (and locked) at once. */
function dmConversations(events: SocialEvent[]): { accountId: string; conversationKey: string }[] {
  return events.flatMap((event) => (event.kind === 'dm_received' || event.kind === 'dm_sent' ? [{ accountId: event.accountId, conversationKey: dmConversationKey(event.accountId, event.counterpart.id) }] : []));
}

/**
 * What the deliveries recorded in one transaction share, so that the work every delivery
 * needs is done once for all of them: their contacts upserted and their DM conversations'
 * tickets read before any event is applied (one statement each), and at the end the summaries
 * of the tickets they changed brought up to date and the CRM told of their changes (a few
 * statements whatever their number). Under the conversations' locks only this transaction
 * changes those tickets, so what it read and did stands until it commits.
 */
export class RecordingWindow {
  /** The ticket holding each DM conversation, as this transaction left it. */
  readonly holders = new Map<string, TicketState | null>();
  private readonly contacts = new Map<string, string>();
  /** Tickets whose activities changed, with their account's configuration (routing looks at it). */
  private readonly changed = new Map<string, PartnerConfig | null>();
  /** Activities recorded before their events are applied (prerecord), by account and platform event. */
  private readonly prerecorded = new Map<string, { id: string; ticketId: string | null }>();
  /** CRM events, per delivery: the tickets it opened first, then the activities it placed. */
  private readonly announcements: { created: CrmEventSpec[]; placed: CrmEventSpec[] }[] = [];

  constructor(
    readonly tx: TicketingTx,
    readonly now: Date,
  ) {}

  /** Upserts the contacts of the deliveries' events and reads their DM conversations' tickets. */
  async prepare(deliveries: SocialEvent[][]): Promise<void> {
    for (const round of upsertRounds(sightings(inTimeOrder(deliveries.flat())))) {
      const ids = await this.tx.contacts.upsertMany(round);
      round.forEach((sighting, i) => this.contacts.set(contactKey(sighting.accountId, sighting.user.id), ids[i]!));
    }
    const conversations = dmConversations(deliveries.flat()).filter(({ conversationKey }) => !this.holders.has(conversationKey));
    for (const [key, holder] of await this.tx.tickets.conversationHolders(conversations)) this.holders.set(key, holder);
  }

  contactId(accountId: string, user: SocialUser | null): string | null {
    return user ? (this.contacts.get(contactKey(accountId, user.id)) ?? null) : null;
  }

  /** The ticket a DM conversation's next message belongs with, read once per transaction. */
  async conversationHolder(accountId: string, conversationKey: string): Promise<TicketState | null> {
    if (!this.holders.has(conversationKey)) this.holders.set(conversationKey, await this.tx.tickets.conversationHolder(accountId, conversationKey));
    return this.holders.get(conversationKey)!;
  }

  /** A new delivery's CRM events follow those of the one before. */
  startDelivery(): { created: CrmEventSpec[]; placed: CrmEventSpec[] } {
    const announcements = { created: [], placed: [] };
    this.announcements.push(announcements);
    return announcements;
  }

  changedTicket(ticketId: string, config: PartnerConfig | null): void {
    this.changed.set(ticketId, config);
  }

  deletedTicket(ticketId: string): void {
    this.changed.delete(ticketId);
  }

  /**
   * Records, in one statement, activities whose place is known before any event is applied
   * (a DM joining its conversation's open ticket): applying their events then finds them
   * recorded (takePrerecorded) instead of inserting each.
   */
  async prerecord(activities: NewActivity[]): Promise<void> {
    const ids = await this.tx.activities.recordMany(activities);
    activities.forEach((activity, i) => {
      const id = ids[i];
      if (id) this.prerecorded.set(eventKey(activity), { id, ticketId: activity.ticketId });
    });
  }

  /** The id of the activity prerecord recorded for this one (put on the activity's ticket, should that have changed since); null when it did not. */
  async takePrerecorded(activity: NewActivity & { ticketId: string }): Promise<string | null> {
    const key = eventKey(activity);
    const found = this.prerecorded.get(key);
    if (!found) return null;
    this.prerecorded.delete(key);
    if (found.ticketId !== activity.ticketId) await this.tx.activities.attach(found.id, activity.ticketId);
    return found.id;
  }

  /** The summaries of the changed tickets brought up to date, then the CRM events emitted, in order. */
  async finish(): Promise<void> {
    await this.refreshChangedTickets();
    const events = this.announcements.flatMap(({ created, placed }) => [...created.splice(0), ...placed.splice(0)]);
    await this.tx.crmEvents.emitAll(events);
  }

  /** What another transaction may have changed since (an automatic merge moved tickets): read again when needed. */
  forgetHolders(): void {
    this.holders.clear();
  }

  /**
   * Brings the summaries of the changed tickets up to date after their activities changed
   * (deliveries arrive in any order, and activities move between tickets): the last activity,
   * the subject from the earliest inbound message, and routing, which is decided on that same
   * message unless a person has moved the ticket since. It depends only on the ticket's
   * activities as they are at the end, so one refresh per transaction gives what one per event gave.
   */
  private async refreshChangedTickets(): Promise<void> {
    const changed = [...this.changed.entries()];
    this.changed.clear();
    const summaries = await this.tx.tickets.touchSummaries(changed.map(([ticketId]) => ticketId), this.now);
    for (const [ticketId, config] of changed.sort(([a], [b]) => a.localeCompare(b))) {
      const summary = summaries.get(ticketId);
      if (!summary?.first) continue;
      const { first, lastActivityAt, reroutable, subject } = summary;
      const routing =
        reroutable && config
          ? {
              ...route({ kind: first.kind as SocialEvent['kind'], text: first.text, senderId: first.senderId, senderScreenName: first.senderScreenName, lang: first.lang }, config),
              byEventId: first.platformEventId,
              kind: first.kind,
            }
          : null;
      const newSubject = subjectOf(first.text);
      if (routing || newSubject !== subject) await this.tx.tickets.updateSummary(ticketId, { now: this.now, lastActivityAt, subject: newSubject, routing });
    }
  }
}
