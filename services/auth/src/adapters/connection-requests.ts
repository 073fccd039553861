import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { withTransaction, type Pool } from '@crm/db';
import { registerSecret } from '@crm/logging';
import { aadFor } from './key-rotation';
import type { Keyring } from './keyring';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const randomSecret = () => randomBytes(32).toString('base64url');

/** Constant-time comparison of two hex digests. */
const sameDigest = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export type ClaimResult =
  | { status: 'claimed'; tokenSecret: string }
  | { status: 'unknown' }
  | { status: 'unbound' }
  | { status: 'replayed' }
  | { status: 'expired' };

export type OpenResult = { status: 'opened'; authorizeUrl: string; binding: string; cookieName: string } | { status: 'unknown' | 'replayed' | 'expired' };

/**
 * The cookie that binds a browser to one connection, named after the request token so that
 * two connections started in one browser do not overwrite each other's binding.
 */
export const bindingCookieName = (requestToken: string) => `oauth_binding_${sha256(requestToken).slice(0, 16)}`;

/**
 * Connections waiting for their OAuth callback. Each has a one-time start link (given to the
 * CRM principal that started it) whose first opening binds the browser with a cookie; the
 * request token can then be used once, before it expires, and only from that browser.
 */
export class ConnectionRequests {
  constructor(
    private readonly pool: Pool,
    private readonly keys: Keyring,
  ) {}

  /** Stores a started connection; returns its expiry and the secret of its start link. */
  async create(request: { envName: string; token: string; tokenSecret: string; authorizeUrl: string; ttlSeconds: number }): Promise<{ expiresAt: Date; startLink: string }> {
    const hash = sha256(request.token);
    const startLink = randomSecret();
    // Requests a day past their expiry are of no use, even to tell a replay from an unknown token.
    await this.pool.query(`DELETE FROM connection_requests WHERE expires_at < now() - interval '1 day'`);
    const { rows } = await this.pool.query<{ expires_at: Date }>(
      `INSERT INTO connection_requests (token_sha256, token_secret_sealed, env_name, expires_at, start_link_sha256, authorize_url)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4), $5, $6) RETURNING expires_at`,
      [hash, this.keys.seal(request.tokenSecret, aadFor.connectionSecret(hash)), request.envName, request.ttlSeconds, sha256(startLink), request.authorizeUrl],
    );
    return { expiresAt: rows[0]!.expires_at, startLink };
  }

  /** Opens a start link (once): binds the opening browser to the connection with a new secret for its cookie. */
  async open(startLink: string): Promise<OpenResult> {
    return withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ token_sha256: string; authorize_url: string; expired: boolean; opened: boolean }>(
        `SELECT token_sha256, authorize_url, expires_at < now() AS expired, opened_at IS NOT NULL AS opened
           FROM connection_requests WHERE start_link_sha256 = $1 FOR UPDATE`,
        [sha256(startLink)],
      );
      const row = rows[0];
      if (!row) return { status: 'unknown' };
      if (row.opened) return { status: 'replayed' };
      if (row.expired) return { status: 'expired' };
      const binding = randomSecret();
      await client.query('UPDATE connection_requests SET binding_sha256 = $2, opened_at = now() WHERE token_sha256 = $1', [row.token_sha256, sha256(binding)]);
      const requestToken = new URL(row.authorize_url).searchParams.get('oauth_token') ?? '';
      return { status: 'opened', authorizeUrl: row.authorize_url, binding, cookieName: bindingCookieName(requestToken) };
    });
  }

  /**
   * Uses up the request of `token` and says whether it was good. A browser without the
   * connection's binding (`unbound`) uses up nothing: whoever saw the token cannot burn it.
   */
  async claim(token: string, binding: string | undefined): Promise<ClaimResult> {
    const hash = sha256(token);
    const row = await withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ token_secret_sealed: string; binding_sha256: string | null; expired: boolean; used: boolean }>(
        'SELECT token_secret_sealed, binding_sha256, expires_at < now() AS expired, used_at IS NOT NULL AS used FROM connection_requests WHERE token_sha256 = $1 FOR UPDATE',
        [hash],
      );
      const found = rows[0];
      if (!found) return undefined;
      const bound = found.binding_sha256 !== null && binding !== undefined && sameDigest(found.binding_sha256, sha256(binding));
      if (bound && !found.used) await client.query('UPDATE connection_requests SET used_at = now() WHERE token_sha256 = $1', [hash]);
      return { ...found, bound };
    });
    if (!row) return { status: 'unknown' };
    if (!row.bound) return { status: 'unbound' };
    if (row.used) return { status: 'replayed' };
    if (row.expired) return { status: 'expired' };
    const tokenSecret = this.keys.open(row.token_secret_sealed, aadFor.connectionSecret(hash));
    registerSecret(tokenSecret);
    return { status: 'claimed', tokenSecret };
  }
}
