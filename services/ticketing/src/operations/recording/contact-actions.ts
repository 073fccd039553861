import type { ContactActionEvent } from '../../domain/social-events';
import type { Outcome, Recorder } from './recorder';

/** Block, unblock, mute, unmute by the account: a flag on the contact and an entry on its timeline. */
export async function recordContactAction(recorder: Recorder, event: ContactActionEvent): Promise<Outcome> {
  const { tx } = recorder;
  const contactId = recorder.contactId(event.target);
  if (contactId) {
    const flag = event.kind === 'block' || event.kind === 'unblock' ? 'blocked' : 'muted';
    await tx.contacts.setFlag(contactId, flag, { value: event.kind === 'block' || event.kind === 'mute', at: new Date(event.occurredAt), eventId: event.platformEventId });
  }
  const recorded = await recorder.record(recorder.activity(event, 'event'));
  return 'id' in recorded ? 'timeline' : recorded.outcome;
}
