import { createHash, randomBytes } from 'node:crypto';
import { registerSecret } from '@crm/logging';
import { PlatformFailed } from '../../domain/platform-errors';
import type { PlatformClient } from './client';

/** An OAuth 2.0 account's tokens, as the token endpoint gives them and the account keeps them. */
export interface OAuth2Tokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: Date;
  scopes: string[];
}

/**
 * The scopes auth asks an OAuth 2.0 account for: what its actions read and write, what its X
 * Activity API subscriptions need (`like.read` for likes, `dm.read`, `tweet.read`), and
 * `offline.access` for a refresh token (without it the account would stop working when its
 * access token expires, about two hours later).
 */
export const OAUTH2_SCOPES = [
  'tweet.read',
  'tweet.write',
  'users.read',
  'dm.read',
  'dm.write',
  'like.read',
  'like.write',
  'follows.read',
  'follows.write',
  'block.read',
  'block.write',
  'mute.read',
  'mute.write',
  'list.read',
  'list.write',
  'media.write',
  'offline.access',
] as const;

/**
 * A PKCE pair (RFC 7636): 32 random bytes as the verifier (43 characters) and its S256
 * challenge. Two lines of node:crypto, so no library for it.
 */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A fresh `state` for an authorization request: unguessable, it names the request in the callback. */
export const newState = () => randomBytes(32).toString('base64url');

/**
 * The app's OAuth 2.0 client at the platform's token endpoint (`POST /2/oauth2/token`), as a
 * confidential client (Basic authentication with its id and secret): exchanges an
 * authorization code, and refreshes tokens (the refresh token rotates: the one given is spent).
 */
export class OAuth2TokenEndpoint {
  constructor(
    private readonly platform: PlatformClient,
    private readonly client: { clientId: string; clientSecret: string },
  ) {}

  exchangeCode(code: string, codeVerifier: string, redirectUri: string): Promise<OAuth2Tokens> {
    return this.token({ grant_type: 'authorization_code', code, code_verifier: codeVerifier, redirect_uri: redirectUri, client_id: this.client.clientId });
  }

  refresh(refreshToken: string): Promise<OAuth2Tokens> {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: this.client.clientId });
  }

  private async token(form: Record<string, string>): Promise<OAuth2Tokens> {
    const started = Date.now();
    const answer = await this.platform.call({ method: 'POST', path: '/2/oauth2/token', form }, { kind: 'oauth2-client', ...this.client });
    const data = (answer.data ?? {}) as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown; scope?: unknown };
    if (typeof data.access_token !== 'string' || !data.access_token) throw new PlatformFailed(answer.status, null, 'the token endpoint answered without an access token');
    registerSecret(data.access_token);
    if (typeof data.refresh_token !== 'string' || !data.refresh_token) throw new PlatformFailed(answer.status, null, 'the token endpoint answered without a refresh token (was offline.access granted?)');
    registerSecret(data.refresh_token);
    const expiresIn = Number(data.expires_in);
    if (!Number.isFinite(expiresIn) || expiresIn <= 0) throw new PlatformFailed(answer.status, null, 'the token endpoint answered without expires_in');
    return {
      accessToken: data.access_token,
      refreshToken: data.refresh_token,
      // Counted from when the request left, so the token is never taken for fresher than it is.
      expiresAt: new Date(started + expiresIn * 1000),
      scopes: typeof data.scope === 'string' ? data.scope.split(' ').filter(Boolean) : [],
    };
  }
}
