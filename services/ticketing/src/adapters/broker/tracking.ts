import { Queues, TrackingAvailabilityRequest, type TrackingAvailability, type TrackingAvailabilityRequestPayload } from '@crm/contracts';
import type { RpcClient } from '@crm/messaging';

/** Asks tracking, over `tracking.rpc`, whether it can show a client's task. */
export class TrackingClient {
  constructor(
    private readonly rpc: Pick<RpcClient, 'call'>,
    private readonly timeoutMs: number,
  ) {}

  /** Rejects with RpcTimeout when tracking does not answer in time, RpcError when it fails to. */
  availability(clientId: string, taskId: string): Promise<TrackingAvailability> {
    return this.rpc.call<TrackingAvailabilityRequestPayload, TrackingAvailability>(Queues.trackingRpc, TrackingAvailabilityRequest, { clientId, taskId }, { timeoutMs: this.timeoutMs });
  }
}
