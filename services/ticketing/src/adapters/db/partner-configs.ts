import type { Queryable } from './queryable';
import type { PartnerConfig } from '../../domain/partner-config';

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

/** Partner configurations: how an account's activity becomes tickets. */
export class PartnerConfigRepository {
  constructor(private readonly db: Queryable) {}

  /** The stored configuration of an account (page), or null when it has none yet. */
  async load(pageId: string): Promise<PartnerConfig | null> {
    const { rows } = await this.db.query<{ config: Omit<PartnerConfig, 'pageId'> }>('SELECT config FROM partner_configs WHERE page_id = $1', [pageId]);
    return rows[0] ? { ...rows[0].config, pageId } : null;
  }

  /** The stored configurations of several accounts, by page id (those with none are missing). */
  async loadMany(pageIds: string[]): Promise<Map<string, PartnerConfig>> {
    if (pageIds.length === 0) return new Map();
    const { rows } = await this.db.query<{ page_id: string; config: Omit<PartnerConfig, 'pageId'> }>('SELECT page_id, config FROM partner_configs WHERE page_id = ANY ($1::text[])', [pageIds]);
    return new Map(rows.map((row) => [row.page_id, { ...row.config, pageId: row.page_id }]));
  }

  /** Stores (replaces) a configuration; true when it is the account's first. */
  async save(config: PartnerConfig): Promise<boolean> {
    const { pageId, ...rest } = config;
    const { rows } = await this.db.query<{ created: boolean }>(
      `INSERT INTO partner_configs (page_id, config) VALUES ($1, $2::jsonb)
       ON CONFLICT (page_id) DO UPDATE SET config = EXCLUDED.config, updated_at = now()
       RETURNING (xmax = 0) AS created`,
      [pageId, rest],
    );
    return rows[0]!.created;
  }

  async row(pageId: string): Promise<PartnerConfigRow | null> {
    const { rows } = await this.db.query<PartnerConfigRow>(`${SELECT} WHERE p.page_id = $1`, [pageId]);
    return rows[0] ?? null;
  }

  async rows(): Promise<PartnerConfigRow[]> {
    const { rows } = await this.db.query<PartnerConfigRow>(`${SELECT} ORDER BY p.page_id`);
    return rows;
  }
}
