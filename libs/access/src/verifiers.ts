import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { CredentialVerifyRequest, Queues, type CredentialGrant } from '@crm/contracts';
import type { RpcClient } from '@crm/messaging';
import type { CredentialVerifier } from './authenticate';

export interface CachedVerifier {
  verify: CredentialVerifier;
  /** Forgets every answer (e.g. after a revocation in this process). */
  clear: () => void;
}

/**
 * Remembers answers, the valid and the invalid alike, for `ttlMs`, so a request does not
 * cost a verification each time; a revocation is seen within `ttlMs`. Entries are keyed
 * by the token's sha256 (no token is kept) and bounded in number, so random tokens sent
 * by a stranger cannot grow the cache. A failed verification is not remembered.
 */
export function cachedVerifier(verify: CredentialVerifier, options: { ttlMs: number; max?: number }): CachedVerifier {
  if (options.ttlMs <= 0) return { verify, clear: () => undefined };
  const cache = new LRUCache<string, { grant: CredentialGrant | null }>({ max: options.max ?? 10_000, ttl: options.ttlMs });
  return {
    verify: async (token) => {
      const key = createHash('sha256').update(token).digest('hex');
      const known = cache.get(key);
      if (known) return known.grant;
      const grant = await verify(token);
      cache.set(key, { grant });
      return grant;
    },
    clear: () => cache.clear(),
  };
}

/** Asks auth (`auth.credential.verify.v1` on `auth.rpc`) for a token's grant. */
export function rpcCredentialVerifier(rpc: RpcClient, timeoutMs = 3_000): CredentialVerifier {
  return (token) => rpc.call<{ token: string }, CredentialGrant | null>(Queues.authRpc, CredentialVerifyRequest, { token }, { timeoutMs });
}
