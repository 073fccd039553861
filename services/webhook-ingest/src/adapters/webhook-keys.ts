import { Queues, WebhookKeyRequest, type WebhookKeyResult } from '@crm/contracts';
import { RpcError, type RpcClient } from '@crm/messaging';
import { registerSecret } from '@crm/logging';

export class UnknownEnvironment extends Error {
  override name = 'UnknownEnvironment';
}

export class KeyUnavailable extends Error {
  override name = 'KeyUnavailable';
}

/**
 * The webhook key (consumer secret) of each environment, asked of auth over RPC and kept in
 * memory only, for `ttlMs`. Concurrent lookups of one environment share one request.
 */
export class WebhookKeys {
  private readonly cache = new Map<string, { key: string; expiresAt: number }>();
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(
    private readonly rpc: RpcClient,
    private readonly options: { ttlMs: number; timeoutMs: number },
  ) {}

  async get(envName: string): Promise<string> {
    const cached = this.cache.get(envName);
    if (cached && cached.expiresAt > Date.now()) return cached.key;
    let pending = this.inFlight.get(envName);
    if (!pending) {
      pending = this.fetch(envName).finally(() => this.inFlight.delete(envName));
      this.inFlight.set(envName, pending);
    }
    return pending;
  }

  private async fetch(envName: string): Promise<string> {
    try {
      const { consumerSecret } = await this.rpc.call<{ envName: string }, WebhookKeyResult>(Queues.authRpc, WebhookKeyRequest, { envName }, { timeoutMs: this.options.timeoutMs });
      registerSecret(consumerSecret);
      this.cache.set(envName, { key: consumerSecret, expiresAt: Date.now() + this.options.ttlMs });
      return consumerSecret;
    } catch (error) {
      if (error instanceof RpcError && error.code === 'unknown_environment') throw new UnknownEnvironment(error.message);
      throw new KeyUnavailable(`auth did not give the webhook key: ${(error as Error).message}`);
    }
  }
}
