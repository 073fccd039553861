import { Exchanges, SocialCommand, validateActionInput } from '@crm/contracts';
import { withTransaction, type Pool } from '@crm/db';
import type { Logger } from '@crm/logging';
import { makeEnvelope } from '@crm/messaging';
import { emitCrmEvent } from '../adapters/db/crm-events';
import { enqueue } from '../adapters/db/outbox';
import { findReplyTarget, lastInboundPost } from '../adapters/db/replies';
import { insertInternalActivity, markActionPending, transactionNow } from '../adapters/db/ticket-life';
import { POST_ACTIONS, readTicketAction } from '../domain/actions';
import { unavailableBecause } from '../domain/replies';
import { conflict, invalid, ticketNotFound } from './ticket-errors';

export interface TicketActionsDeps {
  pool: Pool;
  logger: Logger;
  isId: (id: string) => boolean;
  kick: () => void;
  commandsExchange?: string;
}

/**
 * Like, repost, follow, mute, block (and their undoing) on the account's behalf from a ticket:
 * an `action` entry on the timeline (pending, by whom) and the command for auth in one
 * transaction (the outbox), the command id being the entry's id; auth's result settles the
 * entry's outcome (`handlers/command-results-handler`).
 */
export class TicketActions {
  constructor(private readonly deps: TicketActionsDeps) {}

  async request(ticketId: string, body: unknown, actor: string): Promise<{ activityId: string }> {
    const read = readTicketAction(body);
    if ('problems' in read) throw invalid('invalid_action', read.problems);
    if (!this.deps.isId(ticketId)) throw ticketNotFound(ticketId);
    const { action } = read;
    const activityId = await withTransaction(this.deps.pool, async (client) => {
      const ticket = await findReplyTarget(client, ticketId);
      if (!ticket) throw ticketNotFound(ticketId);
      const unavailable = unavailableBecause(ticket.account_id, ticket.account_status);
      if (unavailable) throw conflict('account_unavailable', unavailable);
      let input: Record<string, unknown>;
      if (POST_ACTIONS.includes(action)) {
        const postId = read.postId ?? (await lastInboundPost(client, ticketId))?.postId;
        if (!postId) throw conflict('nothing_to_act_on', `this ticket holds no customer post to ${action}; give postId`);
        input = { postId };
      } else {
        if (!ticket.contact_user_id) throw conflict('nothing_to_act_on', `this ticket has no contact to ${action}`);
        input = { userId: ticket.contact_user_id };
      }
      const problems = validateActionInput(action, input);
      if (problems.length > 0) throw invalid('invalid_action', problems);
      const now = await transactionNow(client);
      const entry = await insertInternalActivity(client, { accountId: ticket.account_id, ticketId, kind: 'action', text: action, actor, data: { action, input }, contactId: ticket.contact_id, occurredAt: now });
      await markActionPending(client, entry.id);
      const envelope = makeEnvelope(SocialCommand, 'ticketing', { commandId: entry.id, action, accountId: ticket.account_id, input, context: { ticketId, activityId: entry.id } }, { id: `command-${entry.id}` });
      await enqueue(client, this.deps.commandsExchange ?? Exchanges.socialCommands, action, envelope);
      await emitCrmEvent(client, 'ticket.activity', ticketId, actor, { activity: entry });
      return entry.id;
    });
    this.deps.kick();
    this.deps.logger.info('action recorded; command queued', { ticketId, activityId, action, actor });
    return { activityId };
  }
}
