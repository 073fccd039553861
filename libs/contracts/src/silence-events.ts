import { Type, type Static } from '@sinclair/typebox';
import { defineContract } from './envelope';

/**
 * The silence alarm's account events on the `account.events` topic exchange, published by
 * ticketing (through its outbox, in the transaction that records the silence's state): an
 * account that usually gets deliveries has had none for a while (`account.silent`, once per
 * silence), and deliveries came again (`account.delivering`, once when it ends). auth hears
 * `account.silent` and asks the platform to replay the silent window for an account with X
 * Activity API subscriptions.
 */
export const SilenceEventKeys = {
  silent: 'account.silent',
  delivering: 'account.delivering',
} as const;

const accountId = Type.String({ pattern: '^[0-9]{1,30}$' });
const timestamp = Type.String({ format: 'date-time' });

export const AccountSilentPayloadSchema = Type.Object(
  {
    accountId,
    silentSince: Type.String({ format: 'date-time', description: 'When the last delivery before the silence was received: nothing came after it.' }),
    detectedAt: timestamp,
    silentAfterMinutes: Type.Integer({ minimum: 1, description: 'How long without deliveries counts as silent (SILENCE_AFTER_MINUTES).' }),
    usualDeliveries: Type.Object(
      { atLeast: Type.Integer({ minimum: 1 }), lookbackHours: Type.Integer({ minimum: 1 }) },
      { additionalProperties: false, description: 'Why the silence is unusual: the account had at least this many deliveries in the look-back period.' },
    ),
  },
  { additionalProperties: false, description: 'An account that usually gets deliveries has had none for a while: its channel may be broken.' },
);
export type AccountSilentPayload = Static<typeof AccountSilentPayloadSchema>;
export const AccountSilent = defineContract('account.silent.v1', AccountSilentPayloadSchema);

export const AccountDeliveringPayloadSchema = Type.Object(
  {
    accountId,
    silentSince: Type.String({ format: 'date-time', description: 'The silence that ended, as `account.silent` announced it.' }),
    resumedAt: Type.String({ format: 'date-time', description: 'When the first delivery after the silence was received.' }),
    detectedAt: timestamp,
  },
  { additionalProperties: false, description: 'Deliveries came again to an account announced silent.' },
);
export type AccountDeliveringPayload = Static<typeof AccountDeliveringPayloadSchema>;
export const AccountDelivering = defineContract('account.delivering.v1', AccountDeliveringPayloadSchema);
