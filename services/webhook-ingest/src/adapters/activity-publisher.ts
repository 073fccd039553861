import { ACCOUNT_HEADER, Exchanges, RawActivity, type Envelope, type RawActivityPayload } from '@crm/contracts';
import { makeEnvelope, type Publisher } from '@crm/messaging';
import { activityRoutingKey, type InspectedDelivery } from '../domain/delivery';

type AcceptedDelivery = Extract<InspectedDelivery, { ok: true }>;

/**
 * The envelope's JSON with the delivery as the platform's own JSON text (valid, it was
 * parsed): what JSON.stringify(envelope) gives, members in another order, without serialising
 * the parsed delivery again, most of a publish's cost. `payload` is the envelope's last member;
 * `delivery` goes last in it.
 */
export function envelopeJson(envelope: Envelope<RawActivityPayload>, deliveryJson: string): string {
  const { delivery: _serialisedApart, ...payload } = envelope.payload;
  const head = JSON.stringify({ ...envelope, payload });
  if (!head.endsWith('}}')) throw new Error('the envelope does not end with its payload');
  return `${head.slice(0, -2)},"delivery":${deliveryJson}}}`;
}

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
  const routingKey = activityRoutingKey(delivery.kind, delivery.forUserId);
  // The account header picks ticketing's activity partition: one account's deliveries stay in one queue, in order.
  const headers = { [ACCOUNT_HEADER]: delivery.forUserId ?? 'unknown' };
  // Mandatory: a delivery no partition took (its binding missing for a moment) is refused (503, the platform sends it again), not answered 200 and dropped.
  return publisher.publish(Exchanges.socialActivity, routingKey, envelope, { timeoutMs, json: envelopeJson(envelope, delivery.json), headers, mandatory: true });
}
