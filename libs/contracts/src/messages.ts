import { Type, type Static } from '@sinclair/typebox';
import { defineContract } from './envelope';
import { DELIVERY_KINDS } from './delivery';
import { AnyObject, Nullable, StringEnum } from './schema';

const platformId = Type.String({ pattern: '^[0-9]{1,20}$' });

export const RawActivityPayloadSchema = Type.Object(
  {
    envName: Type.String({ minLength: 1 }),
    kind: StringEnum(DELIVERY_KINDS),
    forUserId: Nullable(Type.String({ pattern: '^[0-9]+$', description: 'The subscribed account the delivery is for; for `user_event` the revoking user.' })),
    receivedAt: Type.String({ format: 'date-time' }),
    bodySha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'sha256 of the exact bytes received: the same delivery sent again has the same digest.' }),
    delivery: AnyObject({ description: 'The parsed webhook body.' }),
    api: Type.Optional(
      StringEnum(['aaa', 'xaa'] as const, {
        description: "Which of the platform's webhook APIs delivered it: the Account Activity API (aaa, also when absent) or the X Activity API (xaa, one event a delivery; accountActivityForm gives its aaa form).",
      }),
    ),
  },
  { additionalProperties: false, description: 'A verified webhook delivery, as received.' },
);
/** A verified webhook delivery, as received, published by webhook-ingest on `social.activity`. */
export type RawActivityPayload = Static<typeof RawActivityPayloadSchema>;
export const RawActivity = defineContract('social.activity.raw.v1', RawActivityPayloadSchema);

export const WebhookKeyRequestPayloadSchema = Type.Object(
  { envName: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false, description: 'The webhook key (the app consumer secret) of an environment.' },
);
/** RPC on `auth.rpc`: the webhook key (the app's consumer secret) of an environment. */
export type WebhookKeyRequestPayload = Static<typeof WebhookKeyRequestPayloadSchema>;
export const WebhookKeyRequest = defineContract('auth.webhook-key.get.v1', WebhookKeyRequestPayloadSchema);

export const WebhookKeyResultSchema = Type.Object(
  {
    consumerSecret: Type.String({ minLength: 1 }),
    previousConsumerSecret: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'The secret before the last rotation, while its overlap window lasts: deliveries signed with it are still accepted. Absent otherwise (and from older auth).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type WebhookKeyResult = Static<typeof WebhookKeyResultSchema>;

export const SearchPostsRequestPayloadSchema = Type.Object(
  {
    accountId: platformId,
    query: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }),
    sinceId: Type.Optional(Type.String({ pattern: '^[0-9]{1,20}$', description: 'Only posts newer than this id.' })),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'At most this many posts.' })),
  },
  { additionalProperties: false, description: "The platform's standard search of recent posts, as a connected account (its OAuth 1.0a user context)." },
);
/** RPC on `auth.rpc`: the platform's standard search of recent posts, as a connected account. */
export type SearchPostsRequestPayload = Static<typeof SearchPostsRequestPayloadSchema>;
export const SearchPostsRequest = defineContract('auth.search-posts.v1', SearchPostsRequestPayloadSchema);

/**
 * The answer to SearchPostsRequest: the platform's statuses (newest first, as it sends them),
 * or the time its rate limit opens again, or why the search failed (auth's command error codes).
 */
export const SearchPostsResultSchema = Type.Union([
  Type.Object({ status: Type.Literal('ok'), posts: Type.Array(AnyObject()) }, { additionalProperties: false }),
  Type.Object({ status: Type.Literal('rate_limited'), resetAt: Type.String({ format: 'date-time' }) }, { additionalProperties: false }),
  Type.Object({ status: Type.Literal('failed'), code: Type.String(), message: Type.String() }, { additionalProperties: false }),
]);
export type SearchPostsResult = Static<typeof SearchPostsResultSchema>;

export const RpcErrorSchema = Type.Object({ code: Type.String(), message: Type.String() });

export const RpcReplyPayloadSchema = Type.Union(
  [
    Type.Object({ ok: Type.Literal(true), result: Type.Unknown({ description: "The method's result (its schema is the request's)." }) }),
    Type.Object({ ok: Type.Literal(false), error: RpcErrorSchema }),
  ],
  { description: 'The answer to any RPC request: a result, or an error with a machine code and a message for people.' },
);
type AnyRpcReply = Static<typeof RpcReplyPayloadSchema>;
/** Replies to any RPC, with the result typed `R` (the schema's `result` is any JSON value). */
export type RpcReplyPayload<R = unknown> = Exclude<AnyRpcReply, { ok: true }> | (Omit<Extract<AnyRpcReply, { ok: true }>, 'result'> & { result: R });
export const RpcReply = defineContract('rpc.reply.v1', RpcReplyPayloadSchema);
