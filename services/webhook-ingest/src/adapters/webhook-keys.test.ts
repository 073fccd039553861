import { RpcError, type RpcClient } from '@crm/messaging';
import { UnknownEnvironment, WebhookKeys } from './webhook-keys';

/** auth's webhook-key RPC, counting lookups per environment; only `dev` is known. */
function fakeAuth() {
  const lookups = new Map<string, number>();
  const rpc = {
    call: async (_queue: string, _contract: unknown, { envName }: { envName: string }) => {
      lookups.set(envName, (lookups.get(envName) ?? 0) + 1);
      if (envName === 'dev') return { consumerSecret: 'dev-consumer-secret' };
      throw new RpcError('unknown_environment', `no environment ${envName}`);
    },
  } as unknown as RpcClient;
  return { rpc, lookups };
}

describe('WebhookKeys', () => {
  it('a flood of made-up environment names never pushes out a real key', async () => {
    const { rpc, lookups } = fakeAuth();
    const keys = new WebhookKeys(rpc, { ttlMs: 60_000, unknownTtlMs: 60_000, timeoutMs: 1_000 });
    expect(await keys.get('dev')).toEqual({ current: 'dev-consumer-secret' });
    for (let i = 0; i < 2_000; i += 1) await expect(keys.get(`made-up-${i}`)).rejects.toBeInstanceOf(UnknownEnvironment);
    expect(await keys.get('dev')).toEqual({ current: 'dev-consumer-secret' });
    expect(lookups.get('dev')).toBe(1);
    // the unknown names are remembered too, within their own bound
    await expect(keys.get('made-up-1999')).rejects.toBeInstanceOf(UnknownEnvironment);
    expect(lookups.get('made-up-1999')).toBe(1);
  });
});
