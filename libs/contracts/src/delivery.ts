import { ajv } from './ajv';
import { describeErrors } from './envelope';

/** The payload kinds an Account Activity delivery can carry (docs/architecture.md, "The social platform"). */
export const DELIVERY_KINDS = [
  'tweet_create_events',
  'favorite_events',
  'follow_events',
  'block_events',
  'mute_events',
  'user_event',
  'direct_message_events',
  'direct_message_indicate_typing_events',
  'direct_message_mark_read_events',
  'tweet_delete_events',
] as const;

export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/** Platform ids arrive as numbers or strings. */
const platformId = { type: ['string', 'integer'] } as const;

const eventList = { type: 'array', minItems: 1, items: { type: 'object' } } as const;

/**
 * The outer shape of one delivery: exactly one known kind, its events, and `for_user_id`
 * (absent only on `user_event`). Event contents are interpreted by ticketing, which must
 * cope with variations, so they are not constrained here.
 */
const deliverySchema = {
  $id: 'https://contracts.crm.local/delivery.json',
  type: 'object',
  properties: {
    for_user_id: platformId,
    user_has_blocked: { type: ['boolean', 'string'] },
    users: { type: 'object' },
    apps: { type: 'object' },
    ...Object.fromEntries(DELIVERY_KINDS.map((kind) => [kind, kind === 'user_event' ? { type: 'object', minProperties: 1 } : eventList])),
  },
  oneOf: DELIVERY_KINDS.map((kind) => ({ required: [kind] })),
  if: { not: { required: ['user_event'] } },
  then: { required: ['for_user_id'] },
} as const;

const validateDeliveryShape = ajv.compile(deliverySchema);

export interface Delivery {
  for_user_id?: string | number;
  [key: string]: unknown;
}

export type DeliveryCheck =
  | { ok: true; kind: DeliveryKind; forUserId: string | null; eventCount: number }
  | { ok: false; problems: string[] };

/** Says whether a parsed body is a delivery we know, and which kind it carries. */
export function checkDelivery(body: unknown): DeliveryCheck {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, problems: ['the body must be a JSON object'] };
  }
  const kinds = DELIVERY_KINDS.filter((kind) => kind in body);
  if (kinds.length === 0) {
    return { ok: false, problems: [`no known payload kind; expected one of ${DELIVERY_KINDS.join(', ')}`] };
  }
  if (kinds.length > 1) return { ok: false, problems: [`one delivery holds one payload kind, found ${kinds.join(' and ')}`] };
  if (!validateDeliveryShape(body)) {
    return { ok: false, problems: describeErrors(validateDeliveryShape.errors).filter((p) => !p.includes('must match')) };
  }
  const kind = kinds[0]!;
  const delivery = body as unknown as Delivery;
  const events = delivery[kind];
  return {
    ok: true,
    kind,
    forUserId: delivery.for_user_id === undefined ? null : String(delivery.for_user_id),
    eventCount: Array.isArray(events) ? events.length : 1,
  };
}
