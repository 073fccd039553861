import { hashSecret, newApiToken, parseApiToken } from '@crm/access';
import type { CredentialGrant, Scope } from '@crm/contracts';
import type { Pool, PoolClient } from '@crm/db';
import { sameSecret } from '@crm/secrets';

interface CredentialRow {
  id: string;
  name: string;
  secret_sha256: string;
  scopes: Scope[];
  account_ids: string[] | null;
  tracking_client_ids: string[] | null;
  created_at: Date;
  revoked_at: Date | null;
}

export interface CredentialSpec {
  name: string;
  scopes: Scope[];
  accountIds: string[] | null;
  trackingClientIds: string[] | null;
}

/** A credential as listed: never its secret or hash. */
export interface CredentialInfo extends CredentialGrant {
  createdAt: string;
  revokedAt: string | null;
}

const info = (row: CredentialRow): CredentialInfo => ({
  ...grantOf(row),
  createdAt: row.created_at.toISOString(),
  revokedAt: row.revoked_at?.toISOString() ?? null,
});

const grantOf = (row: CredentialRow): CredentialGrant => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes,
  accountIds: row.account_ids,
  trackingClientIds: row.tracking_client_ids,
});

/** Compared when the id is unknown, so an unknown id costs the same as a wrong secret. */
const NO_SUCH_HASH = hashSecret('no such credential');

/** The CRM's API credentials: created with a token shown once, listed, revoked, verified. */
export class ApiCredentialStore {
  constructor(private readonly pool: Pool) {}

  /** Stores a new credential; the token in the answer is the only copy of its secret. */
  async create(spec: CredentialSpec): Promise<{ credential: CredentialInfo; token: string }> {
    const { id, secret, token } = newApiToken();
    const { rows } = await this.pool.query<CredentialRow>(
      `INSERT INTO api_credentials (id, name, secret_sha256, scopes, account_ids, tracking_client_ids)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [id, spec.name, hashSecret(secret), spec.scopes, spec.accountIds, spec.trackingClientIds],
    );
    return { credential: info(rows[0]!), token };
  }

  async list(): Promise<CredentialInfo[]> {
    const { rows } = await this.pool.query<CredentialRow>('SELECT * FROM api_credentials ORDER BY created_at, id');
    return rows.map(info);
  }

  /** Revokes a credential at once; false when there is no such credential or it was revoked already. */
  async revoke(id: string, client: Pick<PoolClient, 'query'> = this.pool): Promise<boolean> {
    const { rowCount } = await client.query('UPDATE api_credentials SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [id]);
    return rowCount === 1;
  }

  /** The grant of a presented token; null when it is malformed, unknown, revoked or its secret is wrong. */
  async verify(token: string): Promise<CredentialGrant | null> {
    const parsed = parseApiToken(token);
    if (parsed?.kind !== 'credential') return null;
    const { rows } = await this.pool.query<CredentialRow>('SELECT * FROM api_credentials WHERE id = $1', [parsed.id]);
    const row = rows[0];
    const matches = sameSecret(hashSecret(parsed.secret), row?.secret_sha256 ?? NO_SUCH_HASH);
    return row && matches && row.revoked_at === null ? grantOf(row) : null;
  }
}
