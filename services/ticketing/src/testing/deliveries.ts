import { createHash } from 'node:crypto';
import { checkXaaDelivery, DELIVERY_KINDS, type RawActivityPayload } from '@crm/contracts';

/** Builders of DM deliveries with full control over id types, for tests (the simulator builds every other kind). */

export type PlatformId = string | number;

export interface DmSpec {
  id: PlatformId;
  from: PlatformId;
  to: PlatformId;
  text: string;
  /** created_timestamp in ms; given as a string of digits unless `numericTimestamp`. */
  at?: number;
  numericTimestamp?: boolean;
  sourceAppId?: string;
}

/** A user object as the platform sends it in the `users` map. */
export function userObject(id: PlatformId, screenName: string, name: string): Record<string, unknown> {
  return {
    id: String(id),
    created_timestamp: '1422556069340',
    name,
    screen_name: screenName,
    protected: false,
    verified: false,
    followers_count: 22,
    friends_count: 45,
    profile_image_url: 'null',
    profile_image_url_https: `https://pbs.twimg.com/profile_images/${id}/avatar_normal.jpg`,
  };
}

export function dmEvent(spec: DmSpec): Record<string, unknown> {
  const at = spec.at ?? 1516403560557;
  return {
    type: 'message_create',
    id: spec.id,
    created_timestamp: spec.numericTimestamp ? at : String(at),
    message_create: {
      target: { recipient_id: spec.to },
      sender_id: spec.from,
      ...(spec.sourceAppId ? { source_app_id: spec.sourceAppId } : {}),
      message_data: { text: spec.text, entities: { hashtags: [], symbols: [], user_mentions: [], urls: [] } },
    },
  };
}

/** A direct_message_events delivery with top-level `users` and `apps` maps, as real ones have. */
export function dmDelivery(forUserId: PlatformId, events: Record<string, unknown>[], users: Record<string, unknown>[] = []): Record<string, unknown> {
  return {
    for_user_id: forUserId,
    direct_message_events: events,
    apps: { '13090192': { id: '13090192', name: 'FuriousCamperTestApp1', url: 'https://twitter.com/furiouscamper' } },
    users: Object.fromEntries(users.map((user) => [String(user.id), user])),
  };
}

/**
 * The payload webhook-ingest publishes for a delivery: its kind is the payload key it holds
 * (deliveries webhook-ingest would refuse can be built too, to test ticketing's own checks).
 */
export function rawActivity(given: object): RawActivityPayload {
  const delivery = given as Record<string, unknown>;
  const body = JSON.stringify(delivery);
  if ('data' in delivery) {
    // An X Activity API delivery, as webhook-ingest publishes it from its XAA webhook.
    const check = checkXaaDelivery(delivery);
    if (!check.ok) throw new Error(`not an XAA delivery: ${check.problems.join('; ')}`);
    return { envName: 'test', kind: check.kind, forUserId: check.forUserId, receivedAt: new Date().toISOString(), bodySha256: createHash('sha256').update(body).digest('hex'), delivery, api: 'xaa' };
  }
  const kind = DELIVERY_KINDS.find((name) => name in delivery);
  if (!kind) throw new Error('the delivery holds no known payload kind');
  return {
    envName: 'test',
    kind,
    forUserId: delivery.for_user_id === undefined ? null : String(delivery.for_user_id),
    receivedAt: new Date().toISOString(),
    bodySha256: createHash('sha256').update(body).digest('hex'),
    delivery,
  };
}
