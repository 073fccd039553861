import { SearchPostsRequest, WebhookKeyRequest, type SearchPostsResult, type WebhookKeyResult } from '@crm/contracts';
import { RpcError, rpcMethod, type RpcMethod } from '@crm/messaging';
import type { AppCredentialsStore, StoredAppCredentials } from '../adapters/app-credentials';
import { OutOfCredit, RateLimited } from '../domain/platform-errors';
import { InvalidInput, TryLater, type ActionExecutor } from '../operations/executor';

/** Who may call which method: the broker users (validated user ids) allowed per method. */
export interface RpcCallers {
  /** The webhook key is the app's consumer secret: only webhook-ingest's broker user gets it. */
  webhookKey: readonly string[];
}

export interface AuthRpcOptions {
  /** How long after a consumer secret rotation the previous secret is still given out; 0: never. */
  webhookKeyOverlapMs: number;
  callers: RpcCallers;
  now?: () => number;
}

/** The webhook key, with the previous secret while the rotation's overlap lasts. */
export function webhookKeyOf(credentials: StoredAppCredentials, overlapMs: number, now: number): WebhookKeyResult {
  const previous = credentials.previous;
  const overlapping = previous !== undefined && now < previous.rotatedAt.getTime() + overlapMs;
  return overlapping ? { consumerSecret: credentials.consumerSecret, previousConsumerSecret: previous.consumerSecret } : { consumerSecret: credentials.consumerSecret };
}


/** The platform's search answer: `{statuses: [...], search_metadata}`; the statuses alone. */
function statusesOf(data: unknown): Record<string, unknown>[] {
  const statuses = (data as { statuses?: unknown } | null)?.statuses;
  return Array.isArray(statuses) ? statuses.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null) : [];
}

/**
 * Searches recent posts as the account, like its other read actions (not recorded: a read
 * may be repeated). The platform's rate limit is an answer, with the time it opens again, so
 * the caller can wait for it; so is every other failure.
 */
async function searchPosts(executor: Pick<ActionExecutor, 'execute'>, payload: { accountId: string; query: string; sinceId?: string; count?: number }): Promise<SearchPostsResult> {
  const input = { query: payload.query, resultType: 'recent', ...(payload.sinceId ? { sinceId: payload.sinceId } : {}), ...(payload.count ? { count: payload.count } : {}) };
  try {
    const result = await executor.execute({ commandId: null, source: 'broker', action: 'search_posts', accountId: payload.accountId, input }, { final: false });
    if (result.outcome === 'succeeded') return { status: 'ok', posts: statusesOf(result.data) };
    return { status: 'failed', code: result.error?.code ?? 'platform_rejected', message: result.error?.message ?? 'the search failed' };
  } catch (error) {
    if (error instanceof TryLater && error.reason instanceof RateLimited) return { status: 'rate_limited', resetAt: error.reason.resetAt.toISOString() };
    if (error instanceof TryLater) return { status: 'failed', code: 'platform_unavailable', message: error.message };
    if (error instanceof OutOfCredit) return { status: 'failed', code: 'out_of_credit', message: error.message };
    if (error instanceof InvalidInput) throw new RpcError('invalid_input', error.message);
    throw error;
  }
}

/** Who may call which method: the broker users (validated user ids) allowed per method. */
export interface RpcCallers {
  /** The webhook key is the app's consumer secret: only webhook-ingest's broker user gets it. */
  webhookKey: readonly string[];
}

/** What auth answers on `auth.rpc`. */
export function authRpcMethods(store: AppCredentialsStore, executor: Pick<ActionExecutor, 'execute'>, options: AuthRpcOptions): RpcMethod[] {
  const now = options.now ?? Date.now;
  return [
    rpcMethod(
      WebhookKeyRequest,
      async ({ envName }) => {
        const credentials = await store.find(envName);
        if (!credentials) throw new RpcError('unknown_environment', `no webhook environment '${envName}' is configured in auth`);
        return webhookKeyOf(credentials, options.webhookKeyOverlapMs, now());
      },
      { callers: options.callers.webhookKey },
    ),
    rpcMethod(SearchPostsRequest, (payload) => searchPosts(executor, payload)),
  ];
}
