import type {
  ContactActionEvent,
  DmRead,
  DmReceived,
  DmSent,
  DmTyping,
  FollowEvent,
  LikeByAccount,
  LikeOfAccount,
  Mention,
  Post,
  PostDeleted,
  QuoteOfAccount,
  ReplyToAccount,
  RepostByAccount,
  RepostOfAccount,
  SocialEvent,
  SocialUser,
  SubscriptionRevoked,
} from '@crm/contracts';
import type { PoolClient } from '@crm/db';
import { dmConversationKey, eventConversationKey, lockKeyOf, postConversationKey } from '../domain/events';
import { dispositionOf, route, type PartnerConfig } from '../domain/partner-config';
import { isActive, newTicket, placeInbound, subjectOf, type TicketState } from '../domain/tickets';
import { userById } from '../domain/users';
import { recordAccountChange } from '../adapters/db/accounts';
import {
  adoptConversation,
  adoptReplies,
  attachToTicket,
  insertActivity,
  markPostDeleted,
  moveTicketActivities,
  type Direction,
  type MovedActivity,
  type NewActivity,
} from '../adapters/db/activities';
import { setContactFlag, upsertContact } from '../adapters/db/contacts';
import { noteRead, noteTyping } from '../adapters/db/dm-conversations';
import { lockKeys } from '../adapters/db/locks';
import {
  deleteTicket,
  findConversationTicket,
  findTicketHoldingPost,
  findTicketsAwaiting,
  insertTicket,
  readTicketSummary,
  reopenTicket,
  stopAwaiting,
  updateTicketSummary,
} from '../adapters/db/tickets';
import { reevaluateSlaIn } from '../operations/sla';

/** What happened to each event of a delivery. */
export type Outcome = 'opened' | 'appended' | 'timeline' | 'state' | 'deleted' | 'duplicate' | 'ignored';
export type Counts = Record<Outcome, number>;

export interface Recorded {
  counts: Counts;
  /** Revokes recorded (or seen again): published as `account.revoked` after the commit. */
  revocations: SubscriptionRevoked[];
}

export const emptyCounts = (): Counts => ({ opened: 0, appended: 0, timeline: 0, state: 0, deleted: 0, duplicate: 0, ignored: 0 });

/** The customer an event is about, if any: the other party, never the account itself. */
function contactOf(event: SocialEvent): SocialUser | null {
  switch (event.kind) {
    case 'dm_received':
    case 'dm_sent':
      return event.counterpart;
    case 'mention':
    case 'reply_to_account':
    case 'quote_of_account':
    case 'repost_of_account':
      return event.post.author;
    case 'reply_by_account':
      return event.post.inReplyToUserId && event.post.inReplyToUserId !== event.accountId
        ? userById(event.post.inReplyToUserId, event.post.inReplyToScreenName)
        : null;
    case 'quote_by_account':
      return event.post.quotedPost?.author ?? null;
    case 'repost_by_account':
      return event.original.author;
    case 'like_by_account':
      return event.likedPost.author;
    case 'like_of_account':
      return event.liker;
    case 'follow_by_account':
    case 'unfollow_by_account':
      return event.target;
    case 'follow_of_account':
    case 'unfollow_of_account':
      return event.source;
    case 'block':
    case 'unblock':
    case 'mute':
    case 'unmute':
      return event.target;
    default:
      return null;
  }
}

/**
 * Records the events of one delivery in the caller's transaction: takes the locks of their
 * conversations (sorted), upserts their contacts (sorted by user id, so concurrent
 * transactions never wait on each other crosswise), then applies each event in time order.
 */
export async function recordEvents(client: PoolClient, events: SocialEvent[], config: PartnerConfig | null, envelopeId: string): Promise<Recorded> {
  const now = await lockKeys(client, events.map(lockKeyOf));
  const ordered = [...events].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.platformEventId.localeCompare(b.platformEventId));

  const profiles = ordered
    .map((event) => ({ user: contactOf(event), at: new Date(event.occurredAt), accountId: event.accountId }))
    .filter((entry): entry is { user: SocialUser; at: Date; accountId: string } => entry.user !== null && entry.user.id !== entry.accountId)
    .sort((a, b) => a.user.id.localeCompare(b.user.id) || a.at.getTime() - b.at.getTime());
  const contacts = new Map<string, string>();
  for (const { user, at, accountId } of profiles) contacts.set(user.id, await upsertContact(client, accountId, user, at));

  const recorder = new Recorder(client, config, envelopeId, now, contacts);
  const counts = emptyCounts();
  const revocations: SubscriptionRevoked[] = [];
  for (const event of ordered) {
    counts[await recorder.apply(event)] += 1;
    if (event.kind === 'subscription_revoked') revocations.push(event);
  }
  return { counts, revocations };
}

class Recorder {
  constructor(
    private readonly client: PoolClient,
    private readonly config: PartnerConfig | null,
    private readonly envelopeId: string,
    private readonly now: Date,
    private readonly contacts: Map<string, string>,
  ) {}

  private get partner(): PartnerConfig {
    if (!this.config) throw new Error('a partner configuration is needed to record this activity');
    return this.config;
  }

  private contactId(user: SocialUser | null): string | null {
    return user ? (this.contacts.get(user.id) ?? null) : null;
  }

  async apply(event: SocialEvent): Promise<Outcome> {
    switch (event.kind) {
      case 'dm_received':
        return this.dmReceived(event);
      case 'dm_sent':
        return this.dmSent(event);
      case 'dm_typing':
      case 'dm_read':
        return this.indicator(event);
      case 'mention':
      case 'reply_to_account':
      case 'quote_of_account':
        return this.inboundPost(event);
      case 'post_by_account':
      case 'reply_by_account':
      case 'quote_by_account':
        return this.ownPost(event.kind, event);
      case 'repost_of_account':
      case 'like_of_account':
      case 'follow_of_account':
      case 'unfollow_of_account':
        return this.reaction(event);
      case 'repost_by_account':
      case 'like_by_account':
      case 'follow_by_account':
      case 'unfollow_by_account':
        return this.timeline(event);
      case 'block':
      case 'unblock':
      case 'mute':
      case 'unmute':
        return this.contactAction(event);
      case 'post_deleted':
        return this.postDeleted(event);
      case 'subscription_revoked':
        return this.revoked(event);
    }
  }

  /** The activity row an event becomes, on no ticket yet. */
  private activity(event: SocialEvent, direction: Direction, fields: Partial<NewActivity> = {}): NewActivity {
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
      sourceEnvelopeId: this.envelopeId,
      raw: event.raw,
      ...fields,
    };
  }

  private postActivity(event: SocialEvent & { post: Post }, direction: Direction, parentPostId: string | null): NewActivity {
    return this.activity(event, direction, {
      text: event.post.text,
      parentPostId,
      relatedPostId: event.post.quotedPost?.id ?? null,
      attachments: event.post.media,
    });
  }

  /** Opens a ticket for the activity (already inserted) and puts it there. */
  private async open(event: SocialEvent, activityId: string, spec: { channel: 'dm' | 'public'; conversationKey: string; text: string | null; sender: SocialUser | null; lang: string | null; awaitingPostId?: string | null }): Promise<string> {
    const routing = route({ kind: event.kind, text: spec.text, senderId: spec.sender?.id ?? null, senderScreenName: spec.sender?.screenName ?? null, lang: spec.lang }, this.partner);
    const ticket = newTicket({
      accountId: event.accountId,
      channel: spec.channel,
      conversationKey: spec.conversationKey,
      openedByKind: event.kind,
      openedByEventId: event.platformEventId,
      text: spec.text,
      occurredAt: new Date(event.occurredAt),
      routing,
      config: this.partner,
      now: this.now,
      awaitingPostId: spec.awaitingPostId ?? null,
    });
    const ticketId = await insertTicket(this.client, ticket, this.contactId(spec.sender));
    await attachToTicket(this.client, activityId, ticketId);
    await reevaluateSlaIn(this.client, ticketId, this.now); // its SLA timers
    return ticketId;
  }

  /**
   * Brings a ticket's summary up to date after its activities changed (deliveries arrive in
   * any order, and activities move between tickets): the last activity, the subject from the
   * earliest inbound message, and routing, which is decided on that same message unless a
   * person has moved the ticket since.
   */
  private async refresh(ticketId: string): Promise<void> {
    const { first, lastActivityAt, reroutable } = await readTicketSummary(this.client, ticketId);
    const routing =
      first && reroutable && this.config
        ? {
            ...route({ kind: first.kind as SocialEvent['kind'], text: first.text, senderId: first.senderId, senderScreenName: first.senderScreenName, lang: first.lang }, this.config),
            byEventId: first.platformEventId,
            kind: first.kind,
          }
        : null;
    await updateTicketSummary(this.client, ticketId, { now: this.now, lastActivityAt, subject: first ? subjectOf(first.text) : null, routing });
  }

  /** Puts an inbound activity on the ticket that holds its conversation, reopening it if needed. */
  private async join(holder: TicketState, activityId: string, placement: 'append' | 'reopen'): Promise<void> {
    await attachToTicket(this.client, activityId, holder.id);
    if (placement === 'reopen' || holder.status === 'pending') {
      await reopenTicket(this.client, holder.id, this.now);
      await reevaluateSlaIn(this.client, holder.id, this.now); // the clocks resume
    }
    await this.refresh(holder.id);
  }

  private async dmReceived(event: DmReceived): Promise<Outcome> {
    const disposition = dispositionOf(event.kind, this.partner);
    if (disposition === 'ignore') return 'ignored';
    const conversationKey = dmConversationKey(event.accountId, event.counterpart.id);
    const activityId = await insertActivity(this.client, this.activity(event, 'inbound', { text: event.text, conversationKey, attachments: event.attachments }));
    if (!activityId) return 'duplicate';
    if (disposition === 'timeline') return 'timeline';

    const holder = await findConversationTicket(this.client, event.accountId, conversationKey);
    const placement = placeInbound(holder, new Date(event.occurredAt), this.partner.policy.reopenWindowMinutes);
    if (holder && placement !== 'new') {
      await this.join(holder, activityId, placement);
      return 'appended';
    }
    const ticketId = await this.open(event, activityId, { channel: 'dm', conversationKey, text: event.text, sender: event.counterpart, lang: null });
    // DMs of the conversation recorded before it had any ticket (the account wrote first, or its reply arrived first);
    // the summary open() wrote stands unless some moved.
    if (!holder && (await adoptConversation(this.client, event.accountId, conversationKey, ticketId)) > 0) await this.refresh(ticketId);
    return 'opened';
  }

  /** The account's own DM: an outbound entry on the conversation's ticket, never a new ticket. */
  private async dmSent(event: DmSent): Promise<Outcome> {
    const conversationKey = dmConversationKey(event.accountId, event.counterpart.id);
    const activityId = await insertActivity(this.client, this.activity(event, 'outbound', { text: event.text, conversationKey, attachments: event.attachments }));
    if (!activityId) return 'duplicate';
    const holder = await findConversationTicket(this.client, event.accountId, conversationKey);
    if (!holder) return 'timeline';
    await attachToTicket(this.client, activityId, holder.id);
    await this.refresh(holder.id);
    return 'appended';
  }

  private async indicator(event: DmTyping | DmRead): Promise<Outcome> {
    const party = event.byAccount ? 'account' : 'contact';
    const at = new Date(event.occurredAt);
    if (event.kind === 'dm_typing') await noteTyping(this.client, event.accountId, event.counterpartId, party, at);
    else await noteRead(this.client, event.accountId, event.counterpartId, party, { eventId: event.lastReadEventId, at });
    return 'state';
  }

  /**
   * A customer's public post. A reply joins the ticket that holds its parent (reply chains
   * beat the policy); otherwise the policy decides between a new ticket, the contact's
   * timeline and nothing. A mention by a user the account has blocked never opens a ticket.
   */
  private async inboundPost(event: Mention | ReplyToAccount | QuoteOfAccount): Promise<Outcome> {
    const parentId = event.post.inReplyToPostId;
    const holder = parentId ? await findTicketHoldingPost(this.client, event.accountId, parentId) : null;
    const placement = placeInbound(holder, new Date(event.occurredAt), this.partner.policy.reopenWindowMinutes);
    const blocked = event.kind === 'mention' && event.authorBlockedByAccount === true;
    const disposition = blocked ? 'timeline' : dispositionOf(event.kind, this.partner);
    if (placement === 'new' && disposition === 'ignore') return 'ignored';

    const activityId = await insertActivity(this.client, this.postActivity(event, 'inbound', parentId));
    if (!activityId) return 'duplicate';
    if (holder && placement !== 'new') {
      await this.join(holder, activityId, placement);
      await this.adoptThread(holder.id, true, event.accountId, [event.post.id]); // joining left it open
      return 'appended';
    }
    if (disposition === 'timeline') return 'timeline';
    const ticketId = await this.open(event, activityId, {
      channel: 'public',
      conversationKey: postConversationKey(event.accountId, event.post.id),
      text: event.post.text,
      sender: event.post.author,
      lang: event.post.lang,
      // No ticket holds the parent (yet): if one comes to hold it, this ticket folds into it.
      awaitingPostId: holder ? null : parentId,
    });
    await this.adoptThread(ticketId, true, event.accountId, [event.post.id]);
    return 'opened';
  }

  /** The account's own post: outbound on the ticket holding what it replies to (or quotes), never a new ticket. */
  private async ownPost(kind: 'post_by_account' | 'reply_by_account' | 'quote_by_account', event: SocialEvent & { post: Post }): Promise<Outcome> {
    const parentId = kind === 'quote_by_account' ? (event.post.quotedPost?.id ?? null) : event.post.inReplyToPostId;
    const activityId = await insertActivity(this.client, this.postActivity(event, 'outbound', parentId));
    if (!activityId) return 'duplicate';
    const holder = parentId ? await findTicketHoldingPost(this.client, event.accountId, parentId) : null;
    if (!holder) return 'timeline';
    await attachToTicket(this.client, activityId, holder.id);
    await this.refresh(holder.id);
    await this.adoptThread(holder.id, isActive(holder.status), event.accountId, [event.post.id]);
    return 'appended';
  }

  /**
   * Posts just placed on a ticket may be the parents of activity recorded earlier (deliveries
   * come in any order): ticketless replies join the ticket, and tickets opened by replies
   * while their parent was unknown fold into it, so the result is what in-order processing
   * gives. Customers' replies only join an `active` (open or pending) ticket; a ticket an
   * agent has worked on stays on its own.
   */
  private async adoptThread(ticketId: string, active: boolean, accountId: string, postIds: string[]): Promise<void> {
    const queue = [...postIds];
    let changed = false;
    let inbound = false;
    const note = (moved: MovedActivity[]) => {
      for (const activity of moved) {
        changed = true;
        inbound ||= activity.direction === 'inbound';
        if (activity.platform_event_id) queue.push(activity.platform_event_id);
      }
    };
    for (let postId = queue.shift(); postId !== undefined; postId = queue.shift()) {
      note(await adoptReplies(this.client, accountId, postId, ticketId, active));
      for (const orphan of await findTicketsAwaiting(this.client, accountId, postId)) {
        if (orphan.id === ticketId) continue;
        if (!active || !orphan.adoptable) {
          await stopAwaiting(this.client, orphan.id);
          continue;
        }
        note(await moveTicketActivities(this.client, orphan.id, ticketId));
        await deleteTicket(this.client, orphan.id);
      }
    }
    if (!changed) return;
    if (inbound) {
      await reopenTicket(this.client, ticketId, this.now);
      await reevaluateSlaIn(this.client, ticketId, this.now);
    }
    await this.refresh(ticketId);
  }

  /** Repost, like, follow or unfollow of the account: the contact's timeline, or a ticket of its own if the policy says so. */
  private async reaction(event: RepostOfAccount | LikeOfAccount | FollowEvent): Promise<Outcome> {
    const disposition = dispositionOf(event.kind, this.partner);
    if (disposition === 'ignore') return 'ignored';
    const fields = reactionFields(event);
    const activityId = await insertActivity(this.client, this.activity(event, 'event', fields));
    if (!activityId) return 'duplicate';
    if (disposition !== 'ticket') return 'timeline';
    const contact = contactOf(event);
    const conversationKey = 'post' in event ? postConversationKey(event.accountId, event.post.id) : eventConversationKey(event.accountId, event.platformEventId);
    const text = fields.text ?? `${event.kind.replace(/_/g, ' ')} by @${contact?.screenName ?? contact?.id ?? 'unknown'}`;
    // The ticket holds this activity alone: open() wrote its summary.
    await this.open(event, activityId, { channel: 'public', conversationKey, text, sender: contact, lang: 'post' in event ? event.post.lang : null });
    return 'opened';
  }

  /** The account's own repost, like, follow or unfollow: an entry on the contact's timeline. */
  private async timeline(event: RepostByAccount | LikeByAccount | FollowEvent): Promise<Outcome> {
    const activityId = await insertActivity(this.client, this.activity(event, 'event', reactionFields(event)));
    return activityId ? 'timeline' : 'duplicate';
  }

  /** Block, unblock, mute, unmute by the account: a flag on the contact and an entry on its timeline. */
  private async contactAction(event: ContactActionEvent): Promise<Outcome> {
    const contactId = this.contactId(event.target);
    if (contactId) {
      const flag = event.kind === 'block' || event.kind === 'unblock' ? 'blocked' : 'muted';
      await setContactFlag(this.client, contactId, flag, { value: event.kind === 'block' || event.kind === 'mute', at: new Date(event.occurredAt), eventId: event.platformEventId });
    }
    const activityId = await insertActivity(this.client, this.activity(event, 'event'));
    return activityId ? 'timeline' : 'duplicate';
  }

  private async postDeleted(event: PostDeleted): Promise<Outcome> {
    const marked = await markPostDeleted(this.client, event.accountId, event.postId, new Date(event.occurredAt));
    return marked ? 'deleted' : 'state';
  }

  private async revoked(event: SubscriptionRevoked): Promise<Outcome> {
    await recordAccountChange(this.client, { accountId: event.accountId, status: 'revoked', at: new Date(event.occurredAt), consumerKeyMasked: null, accessTokenMasked: null });
    return 'state';
  }
}

/** Text and related post of a reaction's timeline entry: the post it is about. */
function reactionFields(event: RepostOfAccount | RepostByAccount | LikeOfAccount | LikeByAccount | FollowEvent): Partial<NewActivity> {
  if ('likedPost' in event) return { text: event.likedPost.text, relatedPostId: event.likedPost.id };
  if ('original' in event) return { text: event.original.text ?? event.post.text, relatedPostId: event.original.id };
  return {};
}
