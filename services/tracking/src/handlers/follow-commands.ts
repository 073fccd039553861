import { FollowTask, type FollowTaskPayload, type UnfollowTaskPayload } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import { PermanentFailure, type MessageHandler } from '@crm/messaging';
import { TrackingError } from '../domain/errors';
import type { TaskFollowing } from '../operations/follow-tasks';

/**
 * `follow_task` / `unfollow_task` from `tracking.follows`. A refusal that trying again cannot
 * change (unknown client or task, a disabled client, a refused key) dead-letters the command
 * with its reason; a provider that fails for now is retried.
 */
export function followCommandHandler(deps: { following: TaskFollowing; logger: Logger }): MessageHandler<FollowTaskPayload | UnfollowTaskPayload> {
  return async (envelope) => {
    const { clientId, taskId, follower } = envelope.payload;
    if (envelope.type !== FollowTask.type) {
      await deps.following.unfollow(clientId, taskId, follower);
      return;
    }
    try {
      await deps.following.follow(clientId, taskId, follower);
    } catch (error) {
      if (error instanceof TrackingError && !error.transient) {
        deps.logger.warn('follow_task refused', { clientId, taskId, follower, code: error.code });
        throw new PermanentFailure(`${error.code}: ${error.message}`);
      }
      throw error;
    }
  };
}
