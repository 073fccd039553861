import { Exchanges, RawActivity } from '@crm/contracts';
import { makeEnvelope, type Publisher } from '@crm/messaging';
import { activityRoutingKey, type InspectedDelivery } from '../domain/delivery';

type AcceptedDelivery = Extract<InspectedDelivery, { ok: true }>;

/**
 * Publishes a verified delivery to `social.activity`. The message id derives from the bytes,
 * so a delivery the platform sends again carries the same id.
 */
export function publishActivity(publisher: Publisher, envName: string, delivery: AcceptedDelivery, timeoutMs: number): Promise<void> {
  const envelope = makeEnvelope(
    RawActivity,
    'webhook-ingest',
    {
      envName,
      kind: delivery.kind,
      forUserId: delivery.forUserId,
      receivedAt: new Date().toISOString(),
      bodySha256: delivery.bodySha256,
      delivery: delivery.delivery,
    },
    { id: `delivery-${delivery.bodySha256}` },
  );
  return publisher.publish(Exchanges.socialActivity, activityRoutingKey(delivery.kind, delivery.forUserId), envelope, { timeoutMs });
}
