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
