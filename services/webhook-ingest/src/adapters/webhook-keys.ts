import { LRUCache } from 'lru-cache';
import { Queues, WebhookKeyRequest, type WebhookKeyResult } from '@crm/contracts';
import { RpcError, type RpcClient } from '@crm/messaging';
import { registerSecret } from '@crm/logging';

export class UnknownEnvironment extends Error {
  override name = 'UnknownEnvironment';
}

export class KeyUnavailable extends Error {
  override name = 'KeyUnavailable';
}

/** The secrets a delivery of one environment may be signed with: the current one and, while a rotation's overlap lasts, the one before. */
export interface WebhookKey {
  current: string;
  previous?: string;
}

type Entry = { known: true; key: WebhookKey } | { known: false };

export interface WebhookKeysOptions {
  /** How long a key is kept. */
  ttlMs: number;
  /** How long "auth does not know this environment" is kept, so that unknown names cost one RPC per period, not one per request. */
  unknownTtlMs: number;
  timeoutMs: number;
  /** Environments remembered at most, known ones and unknown names apart (the least recently used go first), so a flood of made-up names never pushes out a real key. */
  maxKnown?: number;
  maxUnknown?: number;
}

/**
 * The webhook key (consumer secret) of each environment, asked of auth over RPC and kept in
 * memory only. Concurrent lookups of one environment share one request; an unknown
 * environment is remembered too (a negative cache), for a shorter time.
 */
export class WebhookKeys {
  private readonly known: LRUCache<string, Entry>;
  private readonly unknown: LRUCache<string, Entry>;
  private readonly inFlight = new Map<string, Promise<Entry>>();

  constructor(
    private readonly rpc: RpcClient,
    private readonly options: WebhookKeysOptions,
  ) {
    this.known = new LRUCache<string, Entry>({ max: options.maxKnown ?? 100, ttl: options.ttlMs });
    this.unknown = new LRUCache<string, Entry>({ max: options.maxUnknown ?? 10_000, ttl: options.unknownTtlMs });
  }

  async get(envName: string): Promise<WebhookKey> {
    const entry = await this.entry(envName);
    if (!entry.known) throw new UnknownEnvironment(`no webhook environment '${envName}'`);
    return entry.key;
  }

  /** The key of an environment already known, without waiting (a delivery's usual case); undefined otherwise. */
  knownKey(envName: string): WebhookKey | undefined {
    const entry = this.known.get(envName);
    return entry?.known ? entry.key : undefined;
  }

  private entry(envName: string): Promise<Entry> {
    const cached = this.known.get(envName) ?? this.unknown.get(envName);
    if (cached) return Promise.resolve(cached);
    let pending = this.inFlight.get(envName);
    if (!pending) {
      pending = this.fetch(envName).finally(() => this.inFlight.delete(envName));
      this.inFlight.set(envName, pending);
    }
    return pending;
  }

  private async fetch(envName: string): Promise<Entry> {
    try {
      const result = await this.rpc.call<{ envName: string }, WebhookKeyResult>(Queues.authRpc, WebhookKeyRequest, { envName }, { timeoutMs: this.options.timeoutMs });
      registerSecret(result.consumerSecret);
      registerSecret(result.previousConsumerSecret);
      const entry: Entry = { known: true, key: { current: result.consumerSecret, ...(result.previousConsumerSecret ? { previous: result.previousConsumerSecret } : {}) } };
      this.known.set(envName, entry);
      return entry;
    } catch (error) {
      if (error instanceof RpcError && error.code === 'unknown_environment') {
        const entry: Entry = { known: false };
        this.unknown.set(envName, entry);
        return entry;
      }
      throw new KeyUnavailable(`auth did not give the webhook key: ${(error as Error).message}`);
    }
  }
}
