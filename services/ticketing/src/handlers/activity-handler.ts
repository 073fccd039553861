import type { Envelope, RawActivityPayload } from '@crm/contracts';
import { withTransaction, type Pool, type PoolClient } from '@crm/db';
import type { Logger } from '@crm/logging';
import { PermanentFailure, type MessageContext, type MessageHandler } from '@crm/messaging';
import { interpretActivity } from '../domain/activity';
import { InvalidActivity } from '../domain/errors';
import type { DmReceived, Interpretation } from '../domain/events';
import { subjectOf, threadDmReceived, type TicketDefaults } from '../domain/tickets';
import { activityExists, insertActivity } from '../adapters/db/activities';
import { upsertContact } from '../adapters/db/contacts';
import { deleteTicket, findActiveTicket, insertTicket, lockConversations, noteInboundActivity } from '../adapters/db/tickets';

export interface ActivityHandlerDeps {
  pool: Pool;
  logger: Logger;
  defaults: TicketDefaults;
}

type Outcome = 'opened' | 'appended' | 'duplicate';

/** Records one received DM: contact, then the ticket it opens or joins, then the activity. */
async function recordDmReceived(client: PoolClient, event: DmReceived, now: Date, envelopeId: string, defaults: TicketDefaults): Promise<Outcome> {
  const contactId = await upsertContact(client, event.accountId, event.sender, event.occurredAt);
  if (await activityExists(client, event.accountId, event.platformEventId)) return 'duplicate';

  const decision = threadDmReceived(event, await findActiveTicket(client, event.accountId, event.conversationKey), defaults, now);
  const ticketId = decision.action === 'open' ? await insertTicket(client, decision.ticket, contactId) : decision.ticketId;
  const activityId = await insertActivity(client, {
    accountId: event.accountId,
    ticketId,
    kind: 'dm_received',
    direction: 'inbound',
    text: event.text,
    platformEventId: event.platformEventId,
    occurredAt: event.occurredAt,
    authorContactId: contactId,
    sourceEnvelopeId: envelopeId,
    raw: event.raw,
  });
  if (!activityId) {
    // Recorded meanwhile under another conversation key: leave no empty ticket behind.
    if (decision.action === 'open') await deleteTicket(client, ticketId);
    return 'duplicate';
  }
  if (decision.action === 'append') {
    await noteInboundActivity(client, {
      ticketId,
      activityId,
      status: decision.status,
      occurredAt: event.occurredAt,
      subject: subjectOf(event.text),
      now,
    });
  }
  return decision.action === 'open' ? 'opened' : 'appended';
}

function interpret(envelope: Envelope<RawActivityPayload>): Interpretation {
  try {
    return interpretActivity(envelope.payload);
  } catch (error) {
    if (error instanceof InvalidActivity) throw new PermanentFailure(`invalid ${envelope.payload.kind} delivery: ${error.message}`);
    throw error;
  }
}

/**
 * Consumes raw activity: delivery -> domain events -> contact, ticket and activity, all in one
 * transaction that holds the conversation locks. Redelivery and duplicates change nothing.
 */
export function createActivityHandler({ pool, logger, defaults }: ActivityHandlerDeps): MessageHandler<RawActivityPayload> {
  return async (envelope: Envelope<RawActivityPayload>, context: MessageContext) => {
    const { kind } = envelope.payload;
    const interpretation = interpret(envelope);
    for (const ignored of interpretation.ignored) logger.debug('activity ignored', { envelopeId: envelope.id, kind, reason: ignored.reason });

    const received: DmReceived[] = [];
    for (const event of interpretation.events) {
      if (event.type === 'dm_received') received.push(event);
      else logger.debug('activity ignored', { envelopeId: envelope.id, kind, reason: `${event.type} is not handled yet`, platformEventId: event.platformEventId });
    }

    const counts: Record<Outcome, number> = { opened: 0, appended: 0, duplicate: 0 };
    if (received.length > 0) {
      received.sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime() || a.platformEventId.localeCompare(b.platformEventId));
      await withTransaction(pool, async (client) => {
        const now = await lockConversations(client, received.map((event) => event.conversationKey));
        for (const event of received) counts[await recordDmReceived(client, event, now, envelope.id, defaults)] += 1;
      });
    }
    logger.info('activity handled', {
      envelopeId: envelope.id,
      kind,
      accountId: interpretation.accountId ?? undefined,
      attempt: context.attempt,
      ticketsOpened: counts.opened,
      activitiesAppended: counts.appended,
      duplicates: counts.duplicate,
      ignored: interpretation.ignored.length + interpretation.events.length - received.length,
    });
  };
}
