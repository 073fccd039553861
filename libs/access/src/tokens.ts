import { createHash, randomBytes } from 'node:crypto';

/**
 * API tokens are `crm_<id>_<secret>` (a credential) or `crs_<id>_<secret>` (a session auth
 * issued for a credential: a console sign-in or a launch link): the id finds the row, the
 * secret (32 random bytes, base64url) is kept only as its sha256 and compared in constant
 * time. A secret of that entropy needs no slow hash: nobody can guess it from the digest.
 */
const TOKEN = /^(crm|crs)_([a-z0-9]{16})_([A-Za-z0-9_-]{43})$/;

export type TokenKind = 'credential' | 'session';

export interface NewApiToken {
  id: string;
  secret: string;
  token: string;
}

export function newApiToken(kind: TokenKind = 'credential'): NewApiToken {
  const id = randomBytes(10).toString('hex').slice(0, 16);
  const secret = randomBytes(32).toString('base64url');
  return { id, secret, token: `${kind === 'session' ? 'crs' : 'crm'}_${id}_${secret}` };
}

/** The kind, id and secret of a well-formed API token; null for anything else. */
export function parseApiToken(token: string): { kind: TokenKind; id: string; secret: string } | null {
  const match = TOKEN.exec(token);
  return match ? { kind: match[1] === 'crs' ? 'session' : 'credential', id: match[2]!, secret: match[3]! } : null;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
