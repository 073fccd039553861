import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ajv } from './ajv';
import { describeErrors } from './envelope';
import { AnyObject } from './schema';

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

/**
 * Platform ids arrive as numbers or strings: digits only (they become routing keys and are
 * matched as text), or a whole number that JSON carries exactly (not negative, at most 2^53 - 1).
 */
const platformId = Type.Unsafe<string | number>({ type: ['string', 'integer'], pattern: '^[0-9]{1,20}$', minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

/** A revoke names the revoking user, who is the account the delivery is about. */
const userEvent = Type.Object(
  { revoke: Type.Optional(Type.Object({ source: Type.Optional(Type.Object({ user_id: Type.Optional(platformId) })) })) },
  { minProperties: 1 },
);

const eventList = Type.Array(AnyObject(), { minItems: 1 });

/**
 * The outer shape of one delivery: exactly one known kind, its events, and `for_user_id`
 * (absent only on `user_event`). Event contents are interpreted by ticketing, which must
 * cope with variations, so they are not constrained here.
 */
export const DeliverySchema = Type.Object(
  {
    for_user_id: Type.Optional(platformId),
    user_has_blocked: Type.Optional(Type.Union([Type.Boolean(), Type.String()])),
    users: Type.Optional(AnyObject()),
    apps: Type.Optional(AnyObject()),
    tweet_create_events: Type.Optional(eventList),
    favorite_events: Type.Optional(eventList),
    follow_events: Type.Optional(eventList),
    block_events: Type.Optional(eventList),
    mute_events: Type.Optional(eventList),
    user_event: Type.Optional(userEvent),
    direct_message_events: Type.Optional(eventList),
    direct_message_indicate_typing_events: Type.Optional(eventList),
    direct_message_mark_read_events: Type.Optional(eventList),
    tweet_delete_events: Type.Optional(eventList),
  },
  {
    $id: 'https://contracts.crm.local/delivery.json',
    oneOf: DELIVERY_KINDS.map((kind) => ({ required: [kind] })),
    if: { not: { required: ['user_event'] } },
    then: { required: ['for_user_id'] },
  },
);

// Every kind has its property: a kind added to DELIVERY_KINDS without one does not compile.
void (DeliverySchema.properties satisfies Record<DeliveryKind, TSchema>);

const validateDeliveryShape = ajv.compile(DeliverySchema);

export type Delivery = Static<typeof DeliverySchema>;

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
    // oneOf and if/then only repeat what the kind and for_user_id errors already say.
    const errors = (validateDeliveryShape.errors ?? []).filter((error) => error.keyword !== 'oneOf' && error.keyword !== 'if');
    return { ok: false, problems: describeErrors(errors) };
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
