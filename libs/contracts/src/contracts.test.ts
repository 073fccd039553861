import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkDelivery, ContractViolation, RawActivity, validateEnvelope } from './index';

const fixture = (name: string) => JSON.parse(readFileSync(join(__dirname, '../../testing/fixtures/social', name), 'utf8')) as unknown;

const envelope = (payload: unknown, type = RawActivity.type) => ({
  id: 'm-1',
  type,
  occurredAt: '2026-01-01T00:00:00.000Z',
  producer: 'webhook-ingest',
  correlationId: 'c-1',
  payload,
});

describe('checkDelivery', () => {
  it.each([
    ['direct_message_events.official.json', 'direct_message_events', '4337869213', 1],
    ['tweet_delete_events.official.json', 'tweet_delete_events', '930524282358325248', 1],
    ['direct_message_indicate_typing_events.official.json', 'direct_message_indicate_typing_events', '4337869213', 1],
    ['block_events.block.SYNTHESIZED.json', 'block_events', '2975699229', 1],
    ['user_event.revoke.official.json', 'user_event', null, 1],
  ])('recognises %s', (file, kind, forUserId, eventCount) => {
    expect(checkDelivery(fixture(file))).toEqual({ ok: true, kind, forUserId, eventCount });
  });

  it('keys numeric for_user_id as a string', () => {
    expect(checkDelivery({ for_user_id: 123, favorite_events: [{}] })).toMatchObject({ ok: true, forUserId: '123' });
  });

  it.each([
    [[], 'the body must be a JSON object'],
    [{ for_user_id: '1', key: 'value' }, 'no known payload kind'],
    [{ for_user_id: '1', follow_events: [{}], block_events: [{}] }, 'one delivery holds one payload kind'],
    [{ direct_message_events: [{}] }, "must have required property 'for_user_id'"],
    [{ for_user_id: '1', direct_message_events: [] }, '/direct_message_events must NOT have fewer than 1 items'],
    [{ for_user_id: '1', direct_message_events: {} }, '/direct_message_events must be array'],
  ])('refuses %j with a reason', (body, reason) => {
    const result = checkDelivery(body);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.problems.join('; ')).toContain(reason);
  });
});

describe('validateEnvelope', () => {
  const payload = {
    envName: 'dev',
    kind: 'direct_message_events',
    forUserId: '4337869213',
    receivedAt: '2026-01-01T00:00:00.000Z',
    bodySha256: 'a'.repeat(64),
    delivery: { for_user_id: '4337869213', direct_message_events: [{}] },
  };

  it('accepts a valid raw activity message', () => {
    expect(validateEnvelope(envelope(payload), RawActivity).payload.kind).toBe('direct_message_events');
  });

  it('names every problem', () => {
    const bad = envelope({ ...payload, kind: 'nope', bodySha256: 'x' });
    expect(() => validateEnvelope(bad)).toThrow(ContractViolation);
    expect(() => validateEnvelope(bad)).toThrow(/\/payload\/kind must be equal to one of the allowed values.*\/payload\/bodySha256 must match pattern/);
  });

  it('refuses unknown types and broken envelopes', () => {
    expect(() => validateEnvelope(envelope(payload, 'nobody.knows.v1'))).toThrow("unknown message type 'nobody.knows.v1'");
    expect(() => validateEnvelope({ id: 'x' })).toThrow(/not a valid envelope.*must have required property 'type'/);
  });
});
