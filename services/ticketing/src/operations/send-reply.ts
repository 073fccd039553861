import { Exchanges, SocialCommand, validateActionInput, type SocialCommandPayload } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import { makeEnvelope } from '@crm/messaging';
import type { PendingOutbound } from '../adapters/db/outbound';
import type { TicketingStore, TicketingTx } from '../adapters/db/store';
import type { ReplyTarget } from '../adapters/db/tickets';
import { IMAGE_ON_PUBLIC_REPLY, mergedAway, readReply, tooLong, unavailableBecause, type ReplyContent } from '../domain/replies';
import { AccountUnavailable, conflict, InvalidReply, NoRecipient, NothingToReplyTo, TicketNotFound } from './errors';
import { once, type IdempotencyKey } from './idempotency';

export interface RepliesDeps {
  store: TicketingStore;
  logger: Logger;
  /** Publishes the outbox now (the periodic relay is the safety net). */
  relay: { kick: () => Promise<void> };
  /** The exchange commands go to (tests rename it). */
  commandsExchange?: string;
}

/** What a reply records (the pending activity) and asks auth to do (the command). */
interface PlannedReply {
  pending: Omit<PendingOutbound, 'text' | 'actor' | 'attachments'>;
  command: Pick<SocialCommandPayload, 'action' | 'input'>;
}

/**
 * A DM to the contact on a DM ticket; on a public one, a reply to its newest customer post that
 * is not deleted. A ticket that took merged tickets answers its newest customer DM or post.
 */
async function planReply(tx: TicketingTx, ticket: ReplyTarget, { text, mediaId }: ReplyContent): Promise<PlannedReply> {
  const base = { accountId: ticket.account_id, ticketId: ticket.id };
  const dm = (recipientId: string) => ({ recipientId, ...(text !== null ? { text } : {}), ...(mediaId !== null ? { mediaId } : {}) });
  // A ticket holding merged conversations answers the newest customer message, wherever it came from.
  const latest = await tx.merges.latestInboundOfMerged(ticket.id);
  if (latest?.kind === 'dm_received' && latest.authorUserId) {
    return {
      pending: { ...base, kind: 'dm_sent', contactId: latest.authorContactId, conversationKey: latest.conversationKey, parentPostId: null },
      command: { action: 'send_dm', input: dm(latest.authorUserId) },
    };
  }
  if (ticket.channel === 'dm' && !latest) {
    if (!ticket.contact_user_id) throw new NoRecipient();
    return {
      pending: { ...base, kind: 'dm_sent', contactId: ticket.contact_id, conversationKey: ticket.conversation_key, parentPostId: null },
      command: { action: 'send_dm', input: dm(ticket.contact_user_id) },
    };
  }
  if (mediaId !== null || text === null) throw new InvalidReply(IMAGE_ON_PUBLIC_REPLY);
  const post = await tx.tickets.lastInboundPost(ticket.id);
  if (!post) throw new NothingToReplyTo();
  return {
    pending: { ...base, kind: 'reply_by_account', contactId: post.authorContactId ?? ticket.contact_id, conversationKey: null, parentPostId: post.postId },
    command: { action: 'reply', input: { inReplyToPostId: post.postId, text } },
  };
}

/**
 * Sends an agent's reply from a ticket: records the pending outbound activity and the command
 * for auth (`social.command.v1`, command id = activity id, context = ticket and activity) in
 * one transaction, then lets the outbox relay publish it. Everything is checked before anything is stored.
 */
export class Replies {
  constructor(private readonly deps: RepliesDeps) {}

  /** With an idempotency key, a repeated request gets the first answer and sends nothing (see `once`). */
  async send(ticketId: string, body: unknown, idempotencyKey?: IdempotencyKey, actor = 'crm'): Promise<{ activityId: string; replayed: boolean }> {
    const content = readReply(body);
    if ('problem' in content) throw new InvalidReply(content.problem);

    const { answer, replayed } = await this.deps.store.transaction(async (tx) => {
      const ticket = await tx.tickets.replyTarget(ticketId);
      if (!ticket) throw new TicketNotFound(ticketId);
      return once(tx, { key: idempotencyKey, operation: 'reply', ticketId, accountId: ticket.account_id, body }, async () => {
        if (ticket.status === 'merged') throw conflict('ticket_merged', mergedAway(ticket.merged_into));
        const unavailable = unavailableBecause(ticket.account_id, ticket.account_status);
        if (unavailable) throw new AccountUnavailable(unavailable);
        const { pending, command } = await planReply(tx, ticket, content);
        // The command's contract decides (the text's limit is the platform's, per channel); its problems name the body's fields.
        const problems = validateActionInput(command.action, command.input);
        if (problems.length > 0) throw new InvalidReply(tooLong(content.text ?? '', ticket.channel, problems) ?? problems.join('; ').replace(/\/input\//g, '/'));

        const now = await tx.now();
        const attachments = content.mediaId !== null ? [{ type: 'photo', url: null, mediaId: content.mediaId }] : [];
        const activityId = await tx.outbound.recordPending({ ...pending, text: content.text ?? '', actor, attachments }, now);
        const envelope = makeEnvelope(
          SocialCommand,
          'ticketing',
          { commandId: activityId, action: command.action, accountId: ticket.account_id, input: command.input, context: { ticketId, activityId } },
          // Derived from the activity: a command relayed twice is one message to whoever looks.
          { id: `command-${activityId}` },
        );
        await tx.outbox.enqueue(this.deps.commandsExchange ?? Exchanges.socialCommands, command.action, envelope);
        await tx.tickets.touch(ticketId, now);
        // Announced like a note: the CRM and every open console (another agent on the ticket) hear who replied, at once.
        await tx.crmEvents.emitAll([{ type: 'ticket.activity', ticketId, actor, activityId }]);
        this.deps.logger.info('reply recorded; command queued', { ticketId, activityId, action: command.action });
        return { activityId };
      });
    });
    if (replayed) this.deps.logger.info('reply repeated with its idempotency key; the first answer replayed', { ticketId, activityId: answer.activityId });
    else void this.deps.relay.kick();
    return { ...answer, replayed };
  }
}
