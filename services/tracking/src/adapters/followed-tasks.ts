import type { TaskStatus } from '@crm/contracts';
import { withTransaction, type Pool, type PoolClient } from '@crm/db';
import type { KnownTask } from '../domain/task-changes';

/** A followed task as stored: its followers and what tracking last knew of it. */
export interface FollowedTask {
  clientId: string;
  taskId: string;
  followers: string[];
  known: KnownTask;
}

interface FollowedRow {
  client_id: string;
  task_id: string;
  followers: string[];
  status: TaskStatus | null;
  provider_status: string | null;
  status_at: Date | null;
  eta: Date | null;
  rider_position_at: Date | null;
  silence_announced_for: Date | null;
  observed_at: Date | null;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

const followed = (row: FollowedRow): FollowedTask => ({
  clientId: row.client_id,
  taskId: row.task_id,
  followers: row.followers,
  known: {
    status: row.status,
    providerStatus: row.provider_status,
    statusAt: iso(row.status_at),
    eta: iso(row.eta),
    riderPositionAt: iso(row.rider_position_at),
    silenceAnnouncedFor: iso(row.silence_announced_for),
    observedAt: iso(row.observed_at),
  },
});

/** What a replica may claim of a client's due tasks: at most `perMinute` and `perRound` calls in each such window, all replicas together. */
export interface ClaimLimits {
  perMinute: number;
  perRound: number;
  roundMs: number;
  pollIntervalSeconds: number;
}

/** The row of the window of `window_ms` ($2) that now falls in, made at 0 calls when it is the window's first claim. */
const LOCK_WINDOW = `
  INSERT INTO poll_budget (client_id, window_ms, window_start, calls)
  VALUES ($1, $2::int, to_timestamp(floor(extract(epoch FROM now()) * 1000 / $2::int) * $2::int / 1000.0), 0)
  ON CONFLICT DO NOTHING`;

/** The followed tasks (followed_tasks) and the shared poll budget of each client (poll_budget). */
export class FollowedTasks {
  constructor(private readonly pool: Pool) {}

  /** Adds a follower (no change when it follows already); the task is polled at the next round. */
  async follow(clientId: string, taskId: string, follower: string): Promise<{ followers: string[]; added: boolean }> {
    const { rows } = await this.pool.query<{ followers: string[]; added: boolean }>(
      `WITH before AS (SELECT followers FROM followed_tasks WHERE client_id = $1 AND task_id = $2)
       INSERT INTO followed_tasks (client_id, task_id, followers) VALUES ($1, $2, ARRAY[$3::text])
       ON CONFLICT (client_id, task_id) DO UPDATE
         SET followers = CASE WHEN $3 = ANY (followed_tasks.followers) THEN followed_tasks.followers ELSE followed_tasks.followers || $3::text END
       RETURNING followers, NOT coalesce((SELECT $3 = ANY (followers) FROM before), false) AS added`,
      [clientId, taskId, follower],
    );
    return rows[0]!;
  }

  /** Removes a follower; a task with none left is no longer followed. */
  async unfollow(clientId: string, taskId: string, follower: string): Promise<{ followers: string[]; removed: boolean }> {
    return withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ followers: string[]; had: boolean }>(
        `UPDATE followed_tasks SET followers = array_remove(followers, $3) WHERE client_id = $1 AND task_id = $2
         RETURNING followers, true AS had`,
        [clientId, taskId, follower],
      );
      const followers = rows[0]?.followers ?? [];
      if (rows[0] && followers.length === 0) await client.query('DELETE FROM followed_tasks WHERE client_id = $1 AND task_id = $2 AND followers = $3', [clientId, taskId, []]);
      return { followers, removed: Boolean(rows[0]) };
    });
  }

  async followers(clientId: string, taskId: string): Promise<string[] | null> {
    const { rows } = await this.pool.query<{ followers: string[] }>('SELECT followers FROM followed_tasks WHERE client_id = $1 AND task_id = $2', [clientId, taskId]);
    return rows[0]?.followers ?? null;
  }

  /** The clients with tasks due for a poll. */
  async clientsDue(): Promise<string[]> {
    const { rows } = await this.pool.query<{ client_id: string }>('SELECT DISTINCT client_id FROM followed_tasks WHERE next_poll_at <= now()');
    return rows.map((row) => row.client_id);
  }

  /**
   * Claims a client's due tasks for this replica: their next poll moves an interval on (the
   * lease: no other replica sees them due this round; those another replica is claiming right
   * now are skipped), within what is left of the client's budget in this minute and in this
   * round's slot, which every replica counts in the same rows, under their locks (the minute's
   * first, always).
   */
  async claimDue(clientId: string, limits: ClaimLimits): Promise<string[]> {
    return withTransaction(this.pool, async (client) => {
      const left: number[] = [];
      for (const [windowMs, cap] of [[60_000, limits.perMinute], [limits.roundMs, limits.perRound]] as const) {
        await client.query(LOCK_WINDOW, [clientId, windowMs]);
        const { rows } = await client.query<{ calls: number }>(
          'SELECT calls FROM poll_budget WHERE client_id = $1 AND window_ms = $2::int AND window_start = to_timestamp(floor(extract(epoch FROM now()) * 1000 / $2::int) * $2::int / 1000.0) FOR UPDATE',
          [clientId, windowMs],
        );
        left.push(cap - rows[0]!.calls);
      }
      const allowed = Math.min(...left);
      if (allowed <= 0) return [];
      const { rows } = await client.query<{ task_id: string }>(
        `WITH due AS (
           SELECT task_id FROM followed_tasks WHERE client_id = $1 AND next_poll_at <= now()
            ORDER BY next_poll_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         UPDATE followed_tasks f SET next_poll_at = now() + make_interval(secs => $3)
           FROM due WHERE f.client_id = $1 AND f.task_id = due.task_id
         RETURNING f.task_id`,
        [clientId, allowed, limits.pollIntervalSeconds],
      );
      await client.query(
        `UPDATE poll_budget SET calls = calls + $2 WHERE client_id = $1 AND window_start = to_timestamp(floor(extract(epoch FROM now()) * 1000 / window_ms) * window_ms / 1000.0)`,
        [clientId, rows.length],
      );
      await client.query(`DELETE FROM poll_budget WHERE client_id = $1 AND window_start < now() - interval '1 hour'`, [clientId]);
      return rows.map((row) => row.task_id);
    });
  }

  /** The task, locked for the caller's transaction (a poll and a push compare one at a time); null when not followed. */
  async lock(client: PoolClient, clientId: string, taskId: string): Promise<FollowedTask | null> {
    const { rows } = await client.query<FollowedRow>('SELECT * FROM followed_tasks WHERE client_id = $1 AND task_id = $2 FOR UPDATE', [clientId, taskId]);
    return rows[0] ? followed(rows[0]) : null;
  }

  async store(client: PoolClient, task: Pick<FollowedTask, 'clientId' | 'taskId' | 'known'>): Promise<void> {
    const { known } = task;
    await client.query(
      `UPDATE followed_tasks SET status = $3, provider_status = $4, status_at = $5, eta = $6, rider_position_at = $7, silence_announced_for = $8, observed_at = $9
        WHERE client_id = $1 AND task_id = $2`,
      [task.clientId, task.taskId, known.status, known.providerStatus, known.statusAt, known.eta, known.riderPositionAt, known.silenceAnnouncedFor, known.observedAt],
    );
  }

  /** Stops following a task (it ended). */
  async end(client: PoolClient, clientId: string, taskId: string): Promise<void> {
    await client.query('DELETE FROM followed_tasks WHERE client_id = $1 AND task_id = $2', [clientId, taskId]);
  }
}
