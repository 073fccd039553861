import { dmConversationKey } from '../../domain/events';
import { dispositionOf } from '../../domain/partner-config';
import type { DmReceived, DmSent } from '../../domain/social-events';
import { placeInbound } from '../../domain/tickets';
import type { Outcome, Recorder } from './recorder';

/** A customer's DM: joins the conversation's ticket (reopening it within the window), else opens one. */
export async function recordDmReceived(recorder: Recorder, event: DmReceived): Promise<Outcome> {
  const { tx, partner } = recorder;
  const disposition = dispositionOf(event.kind, partner);
  if (disposition === 'ignore') return 'ignored';
  const conversationKey = dmConversationKey(event.accountId, event.counterpart.id);
  const activityId = await tx.activities.record(recorder.activity(event, 'inbound', { text: event.text, conversationKey, attachments: event.attachments }));
  if (!activityId) return 'duplicate';
  if (disposition === 'timeline') return 'timeline';

  const holder = await tx.tickets.conversationHolder(event.accountId, conversationKey);
  const placement = placeInbound(holder, new Date(event.occurredAt), partner.policy.reopenWindowMinutes);
  if (holder && placement !== 'new') {
    await recorder.join(holder, activityId, placement);
    return 'appended';
  }
  const ticketId = await recorder.open(event, activityId, { channel: 'dm', conversationKey, text: event.text, sender: event.counterpart, lang: null });
  // DMs of the conversation recorded before it had any ticket (the account wrote first, or its reply arrived first);
  // the summary open() wrote stands unless some moved.
  if (!holder && (await tx.activities.adoptConversation(event.accountId, conversationKey, ticketId)) > 0) recorder.changedTicket(ticketId);
  return 'opened';
}

/** The account's own DM: an outbound entry on the conversation's ticket, never a new ticket. */
export async function recordDmSent(recorder: Recorder, event: DmSent): Promise<Outcome> {
  const { tx } = recorder;
  const conversationKey = dmConversationKey(event.accountId, event.counterpart.id);
  const activityId = await tx.activities.record(recorder.activity(event, 'outbound', { text: event.text, conversationKey, attachments: event.attachments }));
  if (!activityId) return 'duplicate';
  const holder = await tx.tickets.conversationHolder(event.accountId, conversationKey);
  if (!holder) return 'timeline';
  await recorder.appendOutbound(holder, activityId);
  return 'appended';
}
