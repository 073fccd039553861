import { createHash, randomBytes } from 'node:crypto';

/**
 * API tokens are `crm_<id>_<secret>`: the id finds the credential, the secret (32 random
 * bytes, base64url) is kept only as its sha256 and compared in constant time. A secret of
 * that entropy needs no slow hash: nobody can guess it from the digest.
 */
const TOKEN = /^crm_([a-z0-9]{16})_([A-Za-z0-9_-]{43})$/;

export interface NewApiToken {
  id: string;
  secret: string;
  token: string;
}

export function newApiToken(): NewApiToken {
  const id = randomBytes(10).toString('hex').slice(0, 16);
  const secret = randomBytes(32).toString('base64url');
  return { id, secret, token: `crm_${id}_${secret}` };
}

/** The id and secret of a well-formed API token; null for anything else. */
export function parseApiToken(token: string): { id: string; secret: string } | null {
  const match = TOKEN.exec(token);
  return match ? { id: match[1]!, secret: match[2]! } : null;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
