import { Exchanges, SocialCommand, validateActionInput } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import { makeEnvelope } from '@crm/messaging';
import type { TicketingStore, TicketingTx } from '../adapters/db/store';
import type { ReplyTarget } from '../adapters/db/tickets';
import { POST_ACTIONS, readTicketAction, type TicketAction } from '../domain/actions';
import { unavailableBecause } from '../domain/replies';
import { AccountUnavailable, conflict, invalid, TicketNotFound } from './errors';
import { once, type IdempotencyKey } from './idempotency';

export interface TicketActionsDeps {
  store: TicketingStore;
  logger: Logger;
  isId: (id: string) => boolean;
  kick: () => void;
  commandsExchange?: string;
}

/** The command's input: the post given (else the ticket's newest customer post), or the ticket's contact. */
async function inputFor(tx: TicketingTx, ticket: ReplyTarget, action: TicketAction, postId: string | null): Promise<Record<string, unknown>> {
  if (POST_ACTIONS.includes(action)) {
    const post = postId ?? (await tx.tickets.lastInboundPost(ticket.id))?.postId;
    if (!post) throw conflict('nothing_to_act_on', `this ticket holds no customer post to ${action}; give postId`);
    return { postId: post };
  }
  if (!ticket.contact_user_id) throw conflict('nothing_to_act_on', `this ticket has no contact to ${action}`);
  return { userId: ticket.contact_user_id };
}

/**
 * Like, repost, follow, mute, block (and their undoing) on the account's behalf from a ticket:
 * an `action` entry on the timeline (pending, by whom) and the command for auth in one
 * transaction (the outbox), the command id being the entry's id and its context naming the
 * ticket and the entry; auth's result settles the entry's outcome (`action-outcomes`).
 */
export class TicketActions {
  constructor(private readonly deps: TicketActionsDeps) {}

  /** With an idempotency key, a repeated request gets the first answer and sends nothing (see `once`). */
  async request(ticketId: string, body: unknown, actor: string, idempotencyKey?: IdempotencyKey): Promise<{ activityId: string; replayed: boolean }> {
    const read = readTicketAction(body);
    if ('problems' in read) throw invalid('invalid_action', read.problems);
    if (!this.deps.isId(ticketId)) throw new TicketNotFound(ticketId);
    const { action } = read;
    const { answer, replayed } = await this.deps.store.transaction(async (tx) => {
      const ticket = await tx.tickets.replyTarget(ticketId);
      if (!ticket) throw new TicketNotFound(ticketId);
      return once(tx, { key: idempotencyKey, operation: 'action', ticketId, accountId: ticket.account_id, body }, async () => {
        const unavailable = unavailableBecause(ticket.account_id, ticket.account_status);
        if (unavailable) throw new AccountUnavailable(unavailable);
        const input = await inputFor(tx, ticket, action, read.postId);
        const problems = validateActionInput(action, input);
        if (problems.length > 0) throw invalid('invalid_action', problems);
        const entry = await tx.life.addEntry({ accountId: ticket.account_id, ticketId, kind: 'action', text: action, actor, data: { action, input }, contactId: ticket.contact_id, occurredAt: await tx.now() });
        await tx.life.markActionPending(entry.id);
        const payload = { commandId: entry.id, action, accountId: ticket.account_id, input, context: { ticketId, activityId: entry.id } };
        await tx.outbox.enqueue(this.deps.commandsExchange ?? Exchanges.socialCommands, action, makeEnvelope(SocialCommand, 'ticketing', payload, { id: `command-${entry.id}` }));
        await tx.crmEvents.emit('ticket.activity', ticketId, actor, { activity: entry });
        return { activityId: entry.id };
      });
    });
    if (replayed) {
      this.deps.logger.info('action repeated with its idempotency key; the first answer replayed', { ticketId, activityId: answer.activityId, action, actor });
      return { ...answer, replayed };
    }
    this.deps.kick();
    this.deps.logger.info('action recorded; command queued', { ticketId, activityId: answer.activityId, action, actor });
    return { ...answer, replayed };
  }
}
