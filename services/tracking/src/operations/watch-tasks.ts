import type { Logger } from '@crm/logging';
import type { FollowedTasks } from '../adapters/followed-tasks';
import type { TaskRecord } from '../adapters/provider-client';
import type { TaskEvents } from '../adapters/task-events';
import { TrackingError } from '../domain/errors';
import { compareTask, type TaskChange, type WatchSettings } from '../domain/task-changes';
import { readTask } from '../domain/task-record';
import type { TaskLookups } from '../lookups';

export interface PollSettings extends WatchSettings {
  /** Each followed task is polled once per interval at most. */
  pollIntervalSeconds: number;
  /** Provider calls the polls of one client may make per minute, all replicas together. */
  maxCallsPerMinutePerClient: number;
  /** How often a round runs: each takes its share of the minute's budget, so the calls are spread over it. */
  roundMs: number;
}

export interface WatchDeps {
  followed: FollowedTasks;
  events: TaskEvents;
  lookups: TaskLookups;
  logger: Logger;
  settings: PollSettings;
}

export type Observed = 'not_followed' | 'outdated' | 'compared';

/** Provider calls of one round made at once. */
const POLL_CONCURRENCY = 8;

/**
 * Watches followed tasks: compares each newer record (a poll's or a push's) with what is known,
 * under the task's row lock, and stores each change's event in the outbox in that transaction.
 */
export class TaskWatch {
  constructor(private readonly deps: WatchDeps) {}

  /** Compares a record of a task fetched at `observedAt`; its events go out after the commit. */
  async observe(clientId: string, taskId: string, record: TaskRecord, observedAt: Date): Promise<Observed> {
    const { settings, followed, events } = this.deps;
    const outcome = await events.storeAndAnnounce(async (client): Promise<{ observed: Observed; changes: TaskChange[]; ended?: boolean }> => {
      const task = await followed.lock(client, clientId, taskId);
      if (!task) return { observed: 'not_followed', changes: [] };
      const now = new Date();
      const comparison = compareTask(task.known, readTask(record), observedAt, settings, now);
      if (!comparison) return { observed: 'outdated', changes: [] };
      for (const change of comparison.changes) await events.changed(client, task, change, now.toISOString());
      if (comparison.ended) await followed.end(client, clientId, taskId);
      else await followed.store(client, { clientId, taskId, known: comparison.known });
      return { observed: 'compared', changes: comparison.changes, ended: comparison.ended };
    });
    if (outcome.changes.length > 0) this.deps.logger.info('followed task changed', { clientId, taskId, changes: outcome.changes.map((change) => change.kind), ended: outcome.ended });
    return outcome.observed;
  }

  /** One round: for each client, the due tasks this replica claimed, polled through the cache and breaker, compared. */
  async pollRound(): Promise<number> {
    const { followed, settings } = this.deps;
    // The round's share of the minute, rounded down: over any 60 s the rounds' calls stay within the budget but for one round's.
    const perRound = Math.max(1, Math.floor((settings.maxCallsPerMinutePerClient * settings.roundMs) / 60_000));
    let polled = 0;
    for (const clientId of await followed.clientsDue()) {
      const taskIds = await followed.claimDue(clientId, { perRound, perMinute: settings.maxCallsPerMinutePerClient, roundMs: settings.roundMs, pollIntervalSeconds: settings.pollIntervalSeconds });
      for (let i = 0; i < taskIds.length; i += POLL_CONCURRENCY) {
        await Promise.all(taskIds.slice(i, i + POLL_CONCURRENCY).map((taskId) => this.poll(clientId, taskId)));
      }
      polled += taskIds.length;
    }
    return polled;
  }

  private async poll(clientId: string, taskId: string): Promise<void> {
    try {
      const client = await this.deps.lookups.client(clientId);
      const { task, freshness } = await this.deps.lookups.taskOf(client, taskId);
      // A record served stale (the provider failing) says nothing new.
      if (!freshness.stale) await this.observe(clientId, taskId, task, new Date(freshness.fetchedAt));
    } catch (error) {
      const reason = error instanceof TrackingError ? error.code : (error as Error).message;
      this.deps.logger.warn('a followed task could not be polled; it is tried again next interval', { clientId, taskId, reason });
    }
  }
}
