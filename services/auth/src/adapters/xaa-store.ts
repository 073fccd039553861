import { withTransaction, type Pool } from '@crm/db';

export interface XaaWebhookRecord {
  webhookId: string;
  url: string;
}

export interface XaaSubscriptionRecord {
  subscriptionId: string;
  accountId: string;
  eventType: string;
}

export type ReplayStatus = 'waiting' | 'requesting' | 'requested' | 'failed';

export interface ReplayRecord {
  id: string;
  from: Date;
  to: Date;
  reason: string;
  status: ReplayStatus;
  notBefore: Date;
  jobId: string | null;
  error: string | null;
}

interface ReplayRow {
  id: string;
  from_at: Date;
  to_at: Date;
  reason: string;
  status: ReplayStatus;
  not_before: Date;
  job_id: string | null;
  error: string | null;
}

const replayOf = (row: ReplayRow): ReplayRecord => ({
  id: String(row.id),
  from: row.from_at,
  to: row.to_at,
  reason: row.reason,
  status: row.status,
  notBefore: row.not_before,
  jobId: row.job_id,
  error: row.error,
});

/** A claim on a replay held longer than this belongs to a process that died: another may take it. */
const STALE_CLAIM = "interval '5 minutes'";

/** What auth registered with the X Activity API per environment, its heartbeat, and its replay windows. */
export class XaaStore {
  constructor(
    private readonly pool: Pool,
    private readonly envName: string,
  ) {}

  async saveWebhook(webhook: XaaWebhookRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO xaa_webhooks (env_name, webhook_id, url) VALUES ($1, $2, $3)
       ON CONFLICT (env_name) DO UPDATE SET webhook_id = $2, url = $3, registered_at = now()`,
      [this.envName, webhook.webhookId, webhook.url],
    );
  }

  async webhook(): Promise<XaaWebhookRecord | null> {
    const { rows } = await this.pool.query<{ webhook_id: string; url: string }>('SELECT webhook_id, url FROM xaa_webhooks WHERE env_name = $1', [this.envName]);
    return rows[0] ? { webhookId: rows[0].webhook_id, url: rows[0].url } : null;
  }

  async deleteWebhook(webhookId: string): Promise<void> {
    await this.pool.query('DELETE FROM xaa_webhooks WHERE env_name = $1 AND webhook_id = $2', [this.envName, webhookId]);
  }

  async saveSubscription(subscription: XaaSubscriptionRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO xaa_subscriptions (subscription_id, env_name, account_id, event_type) VALUES ($1, $2, $3, $4)
       ON CONFLICT (env_name, account_id, event_type) DO UPDATE SET subscription_id = $1`,
      [subscription.subscriptionId, this.envName, subscription.accountId, subscription.eventType],
    );
  }

  async subscriptionsOf(accountId: string): Promise<XaaSubscriptionRecord[]> {
    const { rows } = await this.pool.query<{ subscription_id: string; account_id: string; event_type: string }>(
      'SELECT subscription_id, account_id, event_type FROM xaa_subscriptions WHERE env_name = $1 AND account_id = $2 ORDER BY event_type',
      [this.envName, accountId],
    );
    return rows.map((row) => ({ subscriptionId: row.subscription_id, accountId: row.account_id, eventType: row.event_type }));
  }

  async deleteSubscription(subscriptionId: string): Promise<void> {
    await this.pool.query('DELETE FROM xaa_subscriptions WHERE env_name = $1 AND subscription_id = $2', [this.envName, subscriptionId]);
  }

  /**
   * Notes that auth is alive now, and answers the previous heartbeat (null on the first): the row
   * is locked while read, so of replicas starting together only the first sees the old one.
   */
  async beat(): Promise<Date | null> {
    return withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ beat_at: Date }>('SELECT beat_at FROM heartbeats WHERE env_name = $1 FOR UPDATE', [this.envName]);
      await client.query(
        `INSERT INTO heartbeats (env_name, beat_at) VALUES ($1, now())
         ON CONFLICT (env_name) DO UPDATE SET beat_at = GREATEST(heartbeats.beat_at, now())`,
        [this.envName],
      );
      return rows[0]?.beat_at ?? null;
    });
  }

  /** Records a window to replay; false when a replica recorded the same one first. */
  async addReplay(window: { from: Date; to: Date; notBefore: Date; reason: string }): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO xaa_replays (env_name, from_at, to_at, not_before, reason) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (env_name, from_at) DO NOTHING`,
      [this.envName, window.from, window.to, window.notBefore, window.reason],
    );
    return rowCount === 1;
  }

  /** Takes the earliest due window for this process (one process per window), or null. */
  async claimDueReplay(): Promise<ReplayRecord | null> {
    const { rows } = await this.pool.query<ReplayRow>(
      `UPDATE xaa_replays SET status = 'requesting', claimed_at = now()
       WHERE id = (
         SELECT id FROM xaa_replays
         WHERE env_name = $1 AND not_before <= now()
           AND (status = 'waiting' OR (status = 'requesting' AND claimed_at < now() - ${STALE_CLAIM}))
         ORDER BY not_before, id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [this.envName],
    );
    return rows[0] ? replayOf(rows[0]) : null;
  }

  async replayRequested(id: string, jobId: string): Promise<void> {
    await this.pool.query(`UPDATE xaa_replays SET status = 'requested', job_id = $2, requested_at = now(), error = NULL WHERE id = $1`, [id, jobId]);
  }

  /** Puts a window back in the queue, to be asked for again at `notBefore`. */
  async replayWaits(id: string, notBefore: Date, reason: string): Promise<void> {
    await this.pool.query(`UPDATE xaa_replays SET status = 'waiting', not_before = $2, error = $3, claimed_at = NULL WHERE id = $1`, [id, notBefore, reason]);
  }

  async replayFailed(id: string, reason: string): Promise<void> {
    await this.pool.query(`UPDATE xaa_replays SET status = 'failed', error = $2 WHERE id = $1`, [id, reason]);
  }

  async replays(): Promise<ReplayRecord[]> {
    const { rows } = await this.pool.query<ReplayRow>('SELECT * FROM xaa_replays WHERE env_name = $1 ORDER BY from_at', [this.envName]);
    return rows.map(replayOf);
  }
}
