import { Exchanges, SocialCommand, validateActionInput, type SocialCommandPayload } from '@crm/contracts';
import { withTransaction, type Pool, type PoolClient } from '@crm/db';
import { HttpError } from '@crm/http';
import type { Logger } from '@crm/logging';
import { makeEnvelope } from '@crm/messaging';
import { markOutboundFailed, insertPendingOutbound } from '../adapters/db/outbound';
import { enqueue, type OutboxRow } from '../adapters/db/outbox';
import { findReplyTarget, lastInboundPost, touchTicket } from '../adapters/db/replies';
import { isUuid } from '../domain/ids';
import { readReplyText, unavailableBecause } from '../domain/replies';

export interface RepliesDeps {
  pool: Pool;
  logger: Logger;
  /** Publishes the outbox now (the periodic relay is the safety net). */
  relay: { kick: () => Promise<void> };
  /** The exchange commands go to (tests rename it). */
  commandsExchange?: string;
}

const clock = async (client: PoolClient) => (await client.query<{ now: Date }>('SELECT now() AS now')).rows[0]!.now;

/**
 * Sends an agent's reply from a ticket: records the pending outbound activity and the command
 * for auth (`social.command.v1`, command id = activity id) in one transaction, then lets the
 * outbox relay publish it. Everything is checked before anything is stored.
 */
export class Replies {
  constructor(private readonly deps: RepliesDeps) {}

  async send(ticketId: string, body: unknown): Promise<{ activityId: string }> {
    const read = readReplyText(body);
    if ('problem' in read) throw new HttpError(400, 'invalid_reply', read.problem);
    const { text } = read;

    const { activityId, command } = await withTransaction(this.deps.pool, async (client) => {
      const ticket = await findReplyTarget(client, ticketId);
      if (!ticket) throw new HttpError(404, 'ticket_not_found', `no ticket with id '${ticketId}'`);
      const unavailable = unavailableBecause(ticket.account_id, ticket.account_status);
      if (unavailable) throw new HttpError(409, 'account_unavailable', unavailable);

      let pending: Parameters<typeof insertPendingOutbound>[1];
      let command: Pick<SocialCommandPayload, 'action' | 'input'>;
      if (ticket.channel === 'dm') {
        if (!ticket.contact_user_id) throw new HttpError(409, 'no_recipient', 'this DM ticket has no contact to write to');
        pending = { accountId: ticket.account_id, ticketId, kind: 'dm_sent', text, contactId: ticket.contact_id, conversationKey: ticket.conversation_key, parentPostId: null };
        command = { action: 'send_dm', input: { recipientId: ticket.contact_user_id, text } };
      } else {
        const post = await lastInboundPost(client, ticketId);
        if (!post) throw new HttpError(409, 'nothing_to_reply_to', 'this ticket holds no post of a customer to reply to (only deleted posts or reactions)');
        pending = { accountId: ticket.account_id, ticketId, kind: 'reply_by_account', text, contactId: post.authorContactId ?? ticket.contact_id, conversationKey: null, parentPostId: post.postId };
        command = { action: 'reply', input: { inReplyToPostId: post.postId, text } };
      }
      // The command's contract decides (the text's limit is the platform's, per channel); its problems name the body's fields.
      const problems = validateActionInput(command.action, command.input);
      if (problems.length > 0) throw new HttpError(400, 'invalid_reply', problems.join('; ').replace(/\/input\//g, '/'));

      const now = await clock(client);
      const activityId = await insertPendingOutbound(client, pending, now);
      const envelope = makeEnvelope(
        SocialCommand,
        'ticketing',
        { commandId: activityId, action: command.action, accountId: ticket.account_id, input: command.input, context: { ticketId, activityId } },
        // Derived from the activity: a command relayed twice is one message to whoever looks.
        { id: `command-${activityId}` },
      );
      await enqueue(client, this.deps.commandsExchange ?? Exchanges.socialCommands, command.action, envelope);
      await touchTicket(client, ticketId, now);
      return { activityId, command };
    });
    this.deps.logger.info('reply recorded; command queued', { ticketId, activityId, action: command.action });
    void this.deps.relay.kick();
    return { activityId };
  }
}

/** A queued command the broker contract refuses can never be sent: its activity fails, with the reason. */
export async function commandNotSendable(client: PoolClient, row: OutboxRow, reason: string): Promise<void> {
  const commandId = (row.envelope.payload as { commandId?: unknown }).commandId;
  if (row.envelope.type !== SocialCommand.type || typeof commandId !== 'string' || !isUuid(commandId)) return;
  await markOutboundFailed(client, commandId, 'failed', { code: 'not_sent', message: `the command could not be sent: ${reason}`, platformCode: null });
}
