import { RawActivity, validateEnvelope } from '@crm/contracts';
import { makeEnvelope } from '@crm/messaging';
import { inspectDelivery } from '../domain/delivery';
import { envelopeJson } from './activity-publisher';

/** The envelope of a delivery as publishActivity makes it, and its JSON both ways. */
function serialisedBothWays(text: string) {
  const delivery = inspectDelivery(Buffer.from(text));
  if (!delivery.ok) throw new Error(delivery.message);
  const payload = { envName: 'dev', kind: delivery.kind, forUserId: delivery.forUserId, receivedAt: '2026-11-25T06:00:00.000Z', bodySha256: delivery.bodySha256, delivery: delivery.delivery };
  const envelope = makeEnvelope(RawActivity, 'webhook-ingest', payload, { id: `delivery-${delivery.bodySha256}`, correlationId: 'corr-1' });
  return { stringified: JSON.stringify(envelope), spliced: envelopeJson(envelope, delivery.json) };
}

describe('envelopeJson', () => {
  it.each([
    ['a DM as the platform sends it', '{"for_user_id":"4337869213","direct_message_events":[{"type":"message_create","id":"1","message_create":{"message_data":{"text":"where is my order <42>?"}}}],"users":{"1":{"name":"Ana"}}}'],
    ['whitespace and line breaks', '{\n  "for_user_id" : "1",\r\n\t"direct_message_events" : [ { "id" : "1" } ]\n}\n'],
    ['escapes, emoji and separators', '{"for_user_id":"1","direct_message_events":[{"text":"\\u00e9 \\"q\\" \\\\ \\n 😀 \u2028 \u2029 \\ud83d\\ude00 \\ud800"}]}'],
    ['numbers written otherwise', '{"for_user_id":1,"direct_message_events":[{"a":1e2,"b":-0.50,"c":9007199254740993}]}'],
    ['a __proto__ member', '{"for_user_id":"1","direct_message_events":[{"__proto__":{"x":1}}]}'],
    ['a revoke (no for_user_id)', '{"user_event":{"revoke":{"source":{"user_id":"3001969357"}}}}'],
  ])('%s: parses to what JSON.stringify of the envelope parses to', (_case, text) => {
    const { stringified, spliced } = serialisedBothWays(text);
    expect(JSON.parse(spliced)).toEqual(JSON.parse(stringified));
    expect(validateEnvelope(JSON.parse(spliced), RawActivity).payload.delivery).toEqual(JSON.parse(text));
  });

  it('puts the delivery last when the payload has members after it (an XAA delivery)', () => {
    const delivery = { data: { event_uuid: 'e-1', text: 'hi' } };
    const payload = { envName: 'dev', kind: 'direct_message_events' as const, forUserId: '1', receivedAt: '2026-11-25T06:00:00.000Z', bodySha256: 'a'.repeat(64), delivery, api: 'xaa' as const };
    const envelope = makeEnvelope(RawActivity, 'webhook-ingest', payload, { id: 'xaa-e-1', correlationId: 'corr-1' });
    const spliced = envelopeJson(envelope, JSON.stringify(delivery));
    expect(JSON.parse(spliced)).toEqual(JSON.parse(JSON.stringify(envelope)));
    expect(spliced.endsWith(`"api":"xaa","delivery":${JSON.stringify(delivery)}}}`)).toBe(true);
  });

  it('keeps the delivery as it was received, not as a second serialisation writes it', () => {
    const { spliced } = serialisedBothWays('{"for_user_id":"1","direct_message_events":[{"big":9007199254740993}]}');
    expect(spliced).toContain('"delivery":{"for_user_id":"1","direct_message_events":[{"big":9007199254740993}]}}}');
  });
});
