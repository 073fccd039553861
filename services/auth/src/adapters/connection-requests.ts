import { createHash } from 'node:crypto';
import { withTransaction, type Pool } from '@crm/db';
import { registerSecret } from '@crm/logging';
import { aadFor } from './key-rotation';
import type { Keyring } from './keyring';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export type ClaimResult =
  | { status: 'claimed'; tokenSecret: string }
  | { status: 'unknown' }
  | { status: 'replayed' }
  | { status: 'expired' };

/** Connections waiting for their OAuth callback: each request token can be used once, before it expires. */
export class ConnectionRequests {
  constructor(
    private readonly pool: Pool,
    private readonly keys: Keyring,
  ) {}

  async create(envName: string, token: string, tokenSecret: string, ttlSeconds: number): Promise<Date> {
    const hash = sha256(token);
    // Requests a day past their expiry are of no use, even to tell a replay from an unknown token.
    await this.pool.query(`DELETE FROM connection_requests WHERE expires_at < now() - interval '1 day'`);
    const { rows } = await this.pool.query<{ expires_at: Date }>(
      `INSERT INTO connection_requests (token_sha256, token_secret_sealed, env_name, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING expires_at`,
      [hash, this.keys.seal(tokenSecret, aadFor.connectionSecret(hash)), envName, ttlSeconds],
    );
    return rows[0]!.expires_at;
  }

  /** Uses up the request of `token` (whatever happens next) and says whether it was good. */
  async claim(token: string): Promise<ClaimResult> {
    const hash = sha256(token);
    const row = await withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ token_secret_sealed: string; expired: boolean; used: boolean }>(
        'SELECT token_secret_sealed, expires_at < now() AS expired, used_at IS NOT NULL AS used FROM connection_requests WHERE token_sha256 = $1 FOR UPDATE',
        [hash],
      );
      if (rows[0] && !rows[0].used) await client.query('UPDATE connection_requests SET used_at = now() WHERE token_sha256 = $1', [hash]);
      return rows[0];
    });
    if (!row) return { status: 'unknown' };
    if (row.used) return { status: 'replayed' };
    if (row.expired) return { status: 'expired' };
    const tokenSecret = this.keys.open(row.token_secret_sealed, aadFor.connectionSecret(hash));
    registerSecret(tokenSecret);
    return { status: 'claimed', tokenSecret };
  }
}
