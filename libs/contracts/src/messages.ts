import { defineContract } from './envelope';
import { DELIVERY_KINDS, type DeliveryKind } from './delivery';

/** A verified webhook delivery, as received, published by webhook-ingest on `social.activity`. */
export interface RawActivityPayload {
  envName: string;
  kind: DeliveryKind;
  /** The subscribed account the delivery is for; for `user_event` the revoking user. */
  forUserId: string | null;
  receivedAt: string;
  /** sha256 of the exact bytes received: the same delivery sent again has the same digest. */
  bodySha256: string;
  delivery: Record<string, unknown>;
}

export const RawActivity = defineContract<RawActivityPayload>('social.activity.raw.v1', {
  type: 'object',
  required: ['envName', 'kind', 'forUserId', 'receivedAt', 'bodySha256', 'delivery'],
  additionalProperties: false,
  properties: {
    envName: { type: 'string', minLength: 1 },
    kind: { type: 'string', enum: [...DELIVERY_KINDS] },
    forUserId: { type: ['string', 'null'], pattern: '^[0-9]+$' },
    receivedAt: { type: 'string', format: 'date-time' },
    bodySha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    delivery: { type: 'object' },
  },
});

/** RPC on `auth.rpc`: the webhook key (the app's consumer secret) of an environment. */
export interface WebhookKeyRequestPayload {
  envName: string;
}
export const WebhookKeyRequest = defineContract<WebhookKeyRequestPayload>('auth.webhook-key.get.v1', {
  type: 'object',
  required: ['envName'],
  additionalProperties: false,
  properties: { envName: { type: 'string', minLength: 1, maxLength: 100 } },
});

/** RPC on `auth.rpc`: the platform's standard search of recent posts, as a connected account (its OAuth 1.0a user context). */
export interface SearchPostsRequestPayload {
  accountId: string;
  query: string;
  /** Only posts newer than this id. */
  sinceId?: string;
  /** At most this many posts (1-100). */
  count?: number;
}
export const SearchPostsRequest = defineContract<SearchPostsRequestPayload>('auth.search-posts.v1', {
  type: 'object',
  required: ['accountId', 'query'],
  additionalProperties: false,
  properties: {
    accountId: { type: 'string', pattern: '^[0-9]{1,20}$' },
    query: { type: 'string', minLength: 1, maxLength: 500, pattern: '\\S' },
    sinceId: { type: 'string', pattern: '^[0-9]{1,20}$' },
    count: { type: 'integer', minimum: 1, maximum: 100 },
  },
});

/**
 * The answer to SearchPostsRequest: the platform's statuses (newest first, as it sends them),
 * or the time its rate limit opens again, or why the search failed (auth's command error codes).
 */
export type SearchPostsResult =
  | { status: 'ok'; posts: Record<string, unknown>[] }
  | { status: 'rate_limited'; resetAt: string }
  | { status: 'failed'; code: string; message: string };

/** Replies to any RPC: a result, or an error with a machine code and a message for people. */
export type RpcReplyPayload<R = unknown> = { ok: true; result: R } | { ok: false; error: { code: string; message: string } };

export const RpcReply = defineContract<RpcReplyPayload>('rpc.reply.v1', {
  type: 'object',
  required: ['ok'],
  oneOf: [
    { required: ['result'], properties: { ok: { const: true } } },
    {
      required: ['error'],
      properties: {
        ok: { const: false },
        error: {
          type: 'object',
          required: ['code', 'message'],
          properties: { code: { type: 'string' }, message: { type: 'string' } },
        },
      },
    },
  ],
});

export interface WebhookKeyResult {
  consumerSecret: string;
  /** The secret before the last rotation, while its overlap window lasts: deliveries signed with it are still accepted. Absent otherwise (and from older auth). */
  previousConsumerSecret?: string;
}
