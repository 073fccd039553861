import { SYSTEM_ACTOR } from '../domain/workflow';
import { mergeInTransaction } from './merges';
import type { Recorder } from './recording/recorder';

/** The merge rule of the partner configuration's `merge` settings: the same contact's tickets within the window. */
export const SAME_CONTACT_RULE = 'same_contact_within_window';

/**
 * The partner configuration's automatic merge, at the end of a delivery's recording: each
 * ticket it opened merges into an open or pending ticket of the same contact (DM or public)
 * opened within `merge.windowMinutes` before it, recorded with the rule and by `system`.
 */
export async function autoMerge(recorder: Recorder): Promise<void> {
  const config = recorder.configuration;
  if (!config?.merge.enabled) return;
  for (const ticketId of recorder.opened) {
    const targetId = await recorder.tx.merges.sameContactTarget(ticketId, config.merge.windowMinutes);
    if (targetId) await mergeInTransaction(recorder.tx, { targetId, sourceIds: [ticketId], actor: SYSTEM_ACTOR, rule: SAME_CONTACT_RULE });
  }
}
