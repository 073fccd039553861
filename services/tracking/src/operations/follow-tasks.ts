import type { Logger } from '@crm/logging';
import type { FollowedTasks } from '../adapters/followed-tasks';
import type { TaskLookups } from '../lookups';
import type { TaskWatch } from './watch-tasks';

export interface FollowResult {
  clientId: string;
  taskId: string;
  follower: string;
  followers: string[];
}

/**
 * Following tasks for other services' followers (a ticket). Idempotent both ways. A task is
 * followed only when the client is enabled and the provider knows the task (a clear refusal
 * otherwise); its current record is the baseline that later changes are measured from. A
 * task delivered, failed or cancelled already is not followed (its followers come back empty).
 */
export class TaskFollowing {
  constructor(
    private readonly deps: { followed: FollowedTasks; lookups: TaskLookups; watch: TaskWatch; logger: Logger },
  ) {}

  async follow(clientId: string, taskId: string, follower: string): Promise<FollowResult> {
    const { lookups, followed, watch, logger } = this.deps;
    const client = await lookups.client(clientId);
    const { task, freshness } = await lookups.taskOf(client, taskId);
    const { followers, added } = await followed.follow(clientId, taskId, follower);
    if (!added || freshness.stale) return { clientId, taskId, follower, followers };
    logger.info('task followed', { clientId, taskId, follower, followers: followers.length });
    await watch.observe(clientId, taskId, task, new Date(freshness.fetchedAt));
    // A task that had ended already is not followed: nothing of it will change.
    return { clientId, taskId, follower, followers: (await followed.followers(clientId, taskId)) ?? [] };
  }

  async unfollow(clientId: string, taskId: string, follower: string): Promise<FollowResult> {
    const { followers, removed } = await this.deps.followed.unfollow(clientId, taskId, follower);
    if (removed) this.deps.logger.info(followers.length ? 'task unfollowed' : 'task no longer followed by anyone', { clientId, taskId, follower });
    return { clientId, taskId, follower, followers };
  }
}
