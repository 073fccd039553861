import { Queues, TrackingAvailabilityRequest, TrackingLiveRequest, type TrackingAvailability, type TrackingAvailabilityRequestPayload, type TrackingLiveRequestPayload, type TrackingLiveView } from '@crm/contracts';
import type { RpcClient } from '@crm/messaging';

/** Asks tracking, over `tracking.rpc`, whether it can show a client's task, and its live map view. */
export class TrackingClient {
  constructor(
    private readonly rpc: Pick<RpcClient, 'call'>,
    private readonly timeoutMs: number,
  ) {}

  /** Rejects with RpcTimeout when tracking does not answer in time, RpcError when it fails to. */
  availability(clientId: string, taskId: string): Promise<TrackingAvailability> {
    return this.rpc.call<TrackingAvailabilityRequestPayload, TrackingAvailability>(Queues.trackingRpc, TrackingAvailabilityRequest, { clientId, taskId }, { timeoutMs: this.timeoutMs });
  }

  /** The task's live map view; rejects with RpcError (one of TRACKING_ERROR_CODES) or RpcTimeout. */
  live(clientId: string, taskId: string): Promise<TrackingLiveView> {
    return this.rpc.call<TrackingLiveRequestPayload, TrackingLiveView>(Queues.trackingRpc, TrackingLiveRequest, { clientId, taskId }, { timeoutMs: this.timeoutMs });
  }
}
