import type { Pool, PoolClient } from '@crm/db';

export interface WebhookRegistration {
  envName: string;
  webhookId: string;
  url: string;
  ownerAccountId: string;
  invalidReportedAt: string | null;
}

interface Row {
  env_name: string;
  webhook_id: string;
  url: string;
  owner_account_id: string;
  invalid_reported_at: Date | null;
}

const fromRow = (row: Row): WebhookRegistration => ({
  envName: row.env_name,
  webhookId: row.webhook_id,
  url: row.url,
  ownerAccountId: row.owner_account_id,
  invalidReportedAt: row.invalid_reported_at?.toISOString() ?? null,
});

/** The webhook auth registered for each environment, and in whose user context. */
export class WebhookRegistrations {
  constructor(private readonly pool: Pool) {}

  async save(registration: Omit<WebhookRegistration, 'invalidReportedAt'>): Promise<void> {
    await this.pool.query(
      `INSERT INTO webhook_registrations (env_name, webhook_id, url, owner_account_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (env_name) DO UPDATE SET webhook_id = $2, url = $3, owner_account_id = $4, registered_at = now(), invalid_reported_at = NULL`,
      [registration.envName, registration.webhookId, registration.url, registration.ownerAccountId],
    );
  }

  async find(envName: string): Promise<WebhookRegistration | null> {
    const { rows } = await this.pool.query<Row>('SELECT * FROM webhook_registrations WHERE env_name = $1', [envName]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async delete(envName: string, webhookId: string): Promise<void> {
    await this.pool.query('DELETE FROM webhook_registrations WHERE env_name = $1 AND webhook_id = $2', [envName, webhookId]);
  }

  /** Records that webhook.invalid went out (true), or that the webhook is valid again (false). */
  async setInvalidReported(envName: string, webhookId: string, reported: boolean, db: Pool | PoolClient = this.pool): Promise<void> {
    await db.query(`UPDATE webhook_registrations SET invalid_reported_at = CASE WHEN $3 THEN now() ELSE NULL END WHERE env_name = $1 AND webhook_id = $2`, [envName, webhookId, reported]);
  }
}
