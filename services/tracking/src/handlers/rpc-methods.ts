import { TrackingAvailabilityRequest, TrackingLiveRequest, TrackingTaskRequest } from '@crm/contracts';
import { RpcError, rpcMethod, type RpcMethod } from '@crm/messaging';
import { TrackingError } from '../domain/errors';
import type { TaskLookups } from '../lookups';

/** A lookup failure as the RPC error the caller gets (same codes as over HTTP). */
async function answer<T>(lookup: () => Promise<T>): Promise<T> {
  try {
    return await lookup();
  } catch (error) {
    if (error instanceof TrackingError) throw new RpcError(error.code, error.message);
    throw error;
  }
}

/** What tracking answers on `tracking.rpc`. */
export function trackingRpcMethods(lookups: TaskLookups): RpcMethod[] {
  return [
    rpcMethod(TrackingTaskRequest, ({ clientId, taskId, include }) => answer(() => lookups.task(clientId, taskId, include))),
    rpcMethod(TrackingLiveRequest, ({ clientId, taskId }) => answer(() => lookups.live(clientId, taskId))),
    rpcMethod(TrackingAvailabilityRequest, ({ clientId, taskId }) => answer(() => lookups.availability(clientId, taskId))),
  ];
}
