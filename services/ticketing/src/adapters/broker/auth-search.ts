import { Queues, SearchPostsRequest, type SearchPostsRequestPayload, type SearchPostsResult } from '@crm/contracts';
import type { RpcClient } from '@crm/messaging';
import type { SearchClient } from '../../operations/search-queries';

/** Asks auth, over `auth.rpc`, to run the platform's search as the account. */
export class AuthSearchClient implements SearchClient {
  constructor(
    private readonly rpc: Pick<RpcClient, 'call'>,
    private readonly timeoutMs: number,
  ) {}

  /** Rejects with RpcTimeout when auth does not answer in time, RpcError when it fails to. */
  search(request: SearchPostsRequestPayload): Promise<SearchPostsResult> {
    return this.rpc.call<SearchPostsRequestPayload, SearchPostsResult>(Queues.authRpc, SearchPostsRequest, request, { timeoutMs: this.timeoutMs });
  }
}
