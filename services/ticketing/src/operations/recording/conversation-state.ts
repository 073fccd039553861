import type { DmRead, DmTyping } from '../../domain/social-events';
import { TYPING_TTL_MS } from '../live-events';
import type { Outcome, Recorder } from './recorder';

/** Typing indicators and read receipts: the current state of a DM conversation, not history. */
export async function recordIndicator({ tx }: Recorder, event: DmTyping | DmRead): Promise<Outcome> {
  const party = event.byAccount ? 'account' : 'contact';
  const at = new Date(event.occurredAt);
  if (event.kind === 'dm_typing') await tx.dmConversations.noteTyping(event.accountId, event.counterpartId, party, at);
  else await tx.dmConversations.noteRead(event.accountId, event.counterpartId, party, { eventId: event.lastReadEventId, at });
  await tx.crmEvents.conversationState({
    accountId: event.accountId,
    counterpartId: event.counterpartId,
    kind: event.kind === 'dm_typing' ? 'typing' : 'read',
    party,
    at,
    sourceId: event.platformEventId,
    typingTtlMs: TYPING_TTL_MS,
    ...(event.kind === 'dm_read' ? { lastReadEventId: event.lastReadEventId } : {}),
  });
  return 'state';
}
