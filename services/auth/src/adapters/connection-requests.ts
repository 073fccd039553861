import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { withTransaction, type Pool } from '@crm/db';
import { registerSecret } from '@crm/logging';
import { aadFor } from './key-rotation';
import type { Keyring } from './keyring';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const randomSecret = () => randomBytes(32).toString('base64url');

/** Constant-time comparison of two hex digests. */
const sameDigest = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export type ConnectionProtocol = 'oauth1' | 'oauth2';

export type ClaimResult =
  | { status: 'claimed'; /** The request token's secret (OAuth 1.0a) or the PKCE code_verifier (OAuth 2.0). */ secret: string }
  | { status: 'unknown' }
  | { status: 'unbound' }
  | { status: 'replayed' }
  | { status: 'expired' };

export type OpenResult = { status: 'opened'; authorizeUrl: string; binding: string; cookieName: string } | { status: 'unknown' | 'replayed' | 'expired' };

/**
 * The cookie that binds a browser to one connection, named after the request token (OAuth
 * 1.0a) or the state (OAuth 2.0) so that two connections started in one browser do not
 * overwrite each other's binding.
 */
export const bindingCookieName = (requestKey: string) => `oauth_binding_${sha256(requestKey).slice(0, 16)}`;

/** What names a request in the platform's authorize URL and in the callback: the request token, or the state. */
const requestKeyOf = (authorizeUrl: string) => {
  const params = new URL(authorizeUrl).searchParams;
  return params.get('oauth_token') ?? params.get('state') ?? '';
};

/**
 * Connections waiting for their OAuth callback. Each has a one-time start link (given to the
 * CRM principal that started it) whose first opening binds the browser with a cookie; the
 * request token (OAuth 1.0a) or state (OAuth 2.0 with PKCE) can then be used once, before it
 * expires, and only from that browser. Both are kept as hashes (they travel in browser URLs);
 * the token secret or PKCE code_verifier sealed.
 */
export class ConnectionRequests {
  constructor(
    private readonly pool: Pool,
    private readonly keys: Keyring,
  ) {}

  /**
   * Stores a started connection: `key` is the request token (OAuth 1.0a) or state (OAuth 2.0),
   * `secret` the token secret or code_verifier. Returns its expiry and the secret of its start link.
   */
  async create(request: { protocol: ConnectionProtocol; envName: string; key: string; secret: string; authorizeUrl: string; ttlSeconds: number }): Promise<{ expiresAt: Date; startLink: string }> {
    const hash = sha256(request.key);
    const startLink = randomSecret();
    // Requests a day past their expiry are of no use, even to tell a replay from an unknown token.
    await this.pool.query(`DELETE FROM connection_requests WHERE expires_at < now() - interval '1 day'`);
    const oauth2 = request.protocol === 'oauth2';
    const { rows } = await this.pool.query<{ expires_at: Date }>(
      `INSERT INTO connection_requests (token_sha256, protocol, token_secret_sealed, code_verifier_sealed, env_name, expires_at, start_link_sha256, authorize_url)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6), $7, $8) RETURNING expires_at`,
      [
        hash,
        request.protocol,
        oauth2 ? null : this.keys.seal(request.secret, aadFor.connectionSecret(hash)),
        oauth2 ? this.keys.seal(request.secret, aadFor.codeVerifier(hash)) : null,
        request.envName,
        request.ttlSeconds,
        sha256(startLink),
        request.authorizeUrl,
      ],
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
      return { status: 'opened', authorizeUrl: row.authorize_url, binding, cookieName: bindingCookieName(requestKeyOf(row.authorize_url)) };
    });
  }

  /**
   * Uses up the `protocol` request named `key` (request token or state) and says whether it
   * was good. A browser without the connection's binding (`unbound`) uses up nothing: whoever
   * saw the key cannot burn it.
   */
  async claim(key: string, binding: string | undefined, protocol: ConnectionProtocol): Promise<ClaimResult> {
    const hash = sha256(key);
    const row = await withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ protocol: ConnectionProtocol; token_secret_sealed: string | null; code_verifier_sealed: string | null; binding_sha256: string | null; expired: boolean; used: boolean }>(
        `SELECT protocol, token_secret_sealed, code_verifier_sealed, binding_sha256, expires_at < now() AS expired, used_at IS NOT NULL AS used
           FROM connection_requests WHERE token_sha256 = $1 FOR UPDATE`,
        [hash],
      );
      const found = rows[0];
      if (!found || found.protocol !== protocol) return undefined;
      const bound = found.binding_sha256 !== null && binding !== undefined && sameDigest(found.binding_sha256, sha256(binding));
      if (bound && !found.used) await client.query('UPDATE connection_requests SET used_at = now() WHERE token_sha256 = $1', [hash]);
      return { ...found, bound };
    });
    if (!row) return { status: 'unknown' };
    if (!row.bound) return { status: 'unbound' };
    if (row.used) return { status: 'replayed' };
    if (row.expired) return { status: 'expired' };
    const secret = row.protocol === 'oauth2' ? this.keys.open(row.code_verifier_sealed!, aadFor.codeVerifier(hash)) : this.keys.open(row.token_secret_sealed!, aadFor.connectionSecret(hash));
    registerSecret(secret);
    return { status: 'claimed', secret };
  }
}
