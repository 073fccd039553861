import type { DmRead, DmTyping } from '../../domain/social-events';
import type { Outcome, Recorder } from './recorder';

/** Typing indicators and read receipts: the current state of a DM conversation, not history. */
export async function recordIndicator({ tx }: Recorder, event: DmTyping | DmRead): Promise<Outcome> {
  const party = event.byAccount ? 'account' : 'contact';
  const at = new Date(event.occurredAt);
  if (event.kind === 'dm_typing') await tx.dmConversations.noteTyping(event.accountId, event.counterpartId, party, at);
  else await tx.dmConversations.noteRead(event.accountId, event.counterpartId, party, { eventId: event.lastReadEventId, at });
  return 'state';
}
