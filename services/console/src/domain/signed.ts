import { createHmac, randomBytes } from 'node:crypto';
import { sameSecret } from '@crm/secrets';

/**
 * Signed, expiring tokens (sessions, launch links, CSRF): `base64url(json).base64url(hmac)`.
 * The purpose is part of what is signed, so a launch token is never accepted as a session.
 */
export type Purpose = 'session' | 'launch' | 'csrf';

const encode = (value: string | Buffer) => Buffer.from(value).toString('base64url');
const mac = (secret: string, purpose: Purpose, body: string) => createHmac('sha256', secret).update(`${purpose}.${body}`).digest('base64url');

export interface Claims {
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** A random id (sessions: the CSRF seed; launch links: single use). */
  jti: string;
  [key: string]: unknown;
}

export function sign(secret: string, purpose: Purpose, claims: Omit<Claims, 'jti'> & { jti?: string }): string {
  const body = encode(JSON.stringify({ ...claims, jti: claims.jti ?? randomBytes(16).toString('base64url') }));
  return `${body}.${mac(secret, purpose, body)}`;
}

/** The claims of a token signed for `purpose` and not expired at `nowMs`; null otherwise. */
export function verify(secret: string, purpose: Purpose, token: string | undefined, nowMs = Date.now()): Claims | null {
  if (!token || token.length > 4096) return null;
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return null;
  if (!sameSecret(signature, mac(secret, purpose, body))) return null;
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Claims;
    if (typeof claims.exp !== 'number' || typeof claims.jti !== 'string' || claims.exp * 1000 <= nowMs) return null;
    return claims;
  } catch {
    return null;
  }
}

/** The CSRF token of a session: derived from its id, so it needs no storage. */
export function csrfTokenOf(secret: string, sessionId: string): string {
  return mac(secret, 'csrf', sessionId);
}

export function sameCsrf(secret: string, sessionId: string, given: string | undefined): boolean {
  return typeof given === 'string' && sameSecret(given, csrfTokenOf(secret, sessionId));
}
