import type { Pool, PoolClient } from '@crm/db';
import type { PartnerConfig } from '../../domain/partner-config';

/** The stored configuration of an account (page), or null when it has none yet. */
export async function loadPartnerConfig(client: PoolClient | Pool, pageId: string): Promise<PartnerConfig | null> {
  const { rows } = await client.query<{ config: Omit<PartnerConfig, 'pageId'> }>('SELECT config FROM partner_configs WHERE page_id = $1', [pageId]);
  return rows[0] ? { ...rows[0].config, pageId } : null;
}

/** Stores (replaces) a configuration; true when it is the account's first. */
export async function savePartnerConfig(client: PoolClient, config: PartnerConfig): Promise<boolean> {
  const { pageId, ...rest } = config;
  const { rows } = await client.query<{ created: boolean }>(
    `INSERT INTO partner_configs (page_id, config) VALUES ($1, $2::jsonb)
     ON CONFLICT (page_id) DO UPDATE SET config = EXCLUDED.config, updated_at = now()
     RETURNING (xmax = 0) AS created`,
    [pageId, rest],
  );
  return rows[0]!.created;
}

/** A configuration as the API shows it: with the masked credentials auth reported, and timestamps. */
export interface PartnerConfigRow {
  page_id: string;
  config: Omit<PartnerConfig, 'pageId'>;
  created_at: Date;
  updated_at: Date;
  consumer_key_masked: string | null;
  access_token_masked: string | null;
  account_status: string | null;
}

const SELECT = `SELECT p.page_id, p.config, p.created_at, p.updated_at,
                       a.consumer_key_masked, a.access_token_masked, a.status AS account_status
                  FROM partner_configs p LEFT JOIN accounts a ON a.account_id = p.page_id`;

export async function findPartnerConfigRow(client: PoolClient | Pool, pageId: string): Promise<PartnerConfigRow | null> {
  const { rows } = await client.query<PartnerConfigRow>(`${SELECT} WHERE p.page_id = $1`, [pageId]);
  return rows[0] ?? null;
}

export async function listPartnerConfigRows(pool: Pool): Promise<PartnerConfigRow[]> {
  const { rows } = await pool.query<PartnerConfigRow>(`${SELECT} ORDER BY p.page_id`);
  return rows;
}
