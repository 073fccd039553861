import { dmConversationKey } from '../../domain/events';
import { dispositionOf } from '../../domain/partner-config';
import type { DmReceived, DmSent, SocialEvent } from '../../domain/social-events';
import { isActive, placeInbound } from '../../domain/tickets';
import type { NewActivity } from '../../adapters/db/activities';
import type { Outcome, Recorder } from './recorder';

/**
 * The activity of a customer's DM that joins its conversation's open or pending ticket, as the
 * window read it before any event was applied; null for any other event. Recording never makes
 * an active ticket inactive (a merge does: not with automatic merges), so it is where the DM
 * goes when its event is applied, and it can be recorded with the window's others at once.
 */
export function activeJoinOf(recorder: Recorder, event: SocialEvent): NewActivity | null {
  if (event.kind !== 'dm_received' || recorder.partner.merge.enabled || dispositionOf(event.kind, recorder.partner) !== 'ticket') return null;
  const conversationKey = dmConversationKey(event.accountId, event.counterpart.id);
  const holder = recorder.knownHolder(conversationKey);
  if (!holder || !isActive(holder.status)) return null;
  return recorder.activity(event, 'inbound', { text: event.text, conversationKey, attachments: event.attachments, ticketId: holder.id });
}

/** A customer's DM: joins the conversation's ticket (reopening it within the window), else opens one. */
export async function recordDmReceived(recorder: Recorder, event: DmReceived): Promise<Outcome> {
  const { tx, partner } = recorder;
  const disposition = dispositionOf(event.kind, partner);
  if (disposition === 'ignore') return 'ignored';
  const conversationKey = dmConversationKey(event.accountId, event.counterpart.id);
  const activity = recorder.activity(event, 'inbound', { text: event.text, conversationKey, attachments: event.attachments });
  if (disposition === 'timeline') {
    const recorded = await recorder.record(activity);
    return 'id' in recorded ? 'timeline' : recorded.outcome;
  }

  const holder = await recorder.conversationHolder(event.accountId, conversationKey);
  const placement = placeInbound(holder, new Date(event.occurredAt), partner.policy.reopenWindowMinutes);
  if (holder && placement !== 'new') {
    // Recorded on the ticket at once: one statement for the common case of a conversation going on.
    const joined = await recorder.record({ ...activity, ticketId: holder.id });
    if (!('id' in joined)) return joined.outcome;
    await recorder.join(holder, joined.id, placement, { attached: true, conversationKey, text: event.text });
    return 'appended';
  }
  const recorded = await recorder.record(activity);
  if (!('id' in recorded)) return recorded.outcome;
  const activityId = recorded.id;
  const ticketId = await recorder.open(event, activityId, { channel: 'dm', conversationKey, text: event.text, sender: event.counterpart, lang: null });
  // DMs of the conversation recorded before it had any ticket (the account wrote first, or its reply arrived first);
  // the summary open() wrote stands unless some moved.
  if (!holder && (await tx.activities.adoptConversation(event.accountId, conversationKey, ticketId)) > 0) recorder.changedTicket(ticketId);
  return 'opened';
}

/** The account's own DM: an outbound entry on the conversation's ticket, never a new ticket. */
export async function recordDmSent(recorder: Recorder, event: DmSent): Promise<Outcome> {
  const conversationKey = dmConversationKey(event.accountId, event.counterpart.id);
  const holder = await recorder.conversationHolder(event.accountId, conversationKey);
  const recorded = await recorder.record(recorder.activity(event, 'outbound', { text: event.text, conversationKey, attachments: event.attachments, ticketId: holder?.id ?? null }));
  if (!('id' in recorded)) return recorded.outcome;
  if (!holder) return 'timeline';
  await recorder.appendOutbound(holder, recorded.id, { attached: true });
  return 'appended';
}
