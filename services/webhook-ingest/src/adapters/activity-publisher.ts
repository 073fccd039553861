import { Exchanges, RawActivity } from '@crm/contracts';
import { makeEnvelope, type Publisher } from '@crm/messaging';
import { activityRoutingKey, type InspectedDelivery } from '../domain/delivery';

type AcceptedDelivery = Extract<InspectedDelivery, { ok: true }>;

/**
 * Publishes a verified delivery to `social.activity`. The message id derives from the bytes (an
 * XAA delivery: from its event uuid), so a delivery the platform sends again carries the same id.
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
      ...(delivery.api === 'xaa' ? { api: 'xaa' as const } : {}),
    },
    // An XAA event keeps its uuid when the platform sends it again (a replay, another subscription's copy).
    { id: delivery.eventUuid ? `xaa-${delivery.eventUuid}` : `delivery-${delivery.bodySha256}` },
  );
  return publisher.publish(Exchanges.socialActivity, activityRoutingKey(delivery.kind, delivery.forUserId), envelope, { timeoutMs });
}
