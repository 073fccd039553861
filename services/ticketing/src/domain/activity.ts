import type { RawActivityPayload } from '@crm/contracts';
import { InvalidActivity } from './errors';
import type { Interpretation } from './events';
import { interpretDirectMessages } from './direct-messages';
import { optionalPlatformId } from './platform-values';

/** The account a delivery is for: the envelope's `forUserId`, which must agree with the delivery's `for_user_id`. */
function accountOf(payload: RawActivityPayload): string | null {
  const fromPayload = optionalPlatformId(payload.forUserId, 'forUserId');
  const fromDelivery = optionalPlatformId(payload.delivery.for_user_id, 'delivery.for_user_id');
  if (fromPayload && fromDelivery && fromPayload !== fromDelivery) {
    throw new InvalidActivity(`forUserId ${fromPayload} does not match delivery.for_user_id ${fromDelivery}`);
  }
  return fromPayload ?? fromDelivery;
}

/**
 * Turns one raw delivery into domain events. Pure: no I/O, no clock.
 * Kinds other than direct messages are not handled yet and come back as ignored.
 */
export function interpretActivity(payload: RawActivityPayload): Interpretation {
  if (payload.kind !== 'direct_message_events') {
    return { accountId: null, events: [], ignored: [{ reason: `kind '${payload.kind}' is not handled yet` }] };
  }
  const accountId = accountOf(payload);
  if (!accountId) throw new InvalidActivity('forUserId is missing (and so is delivery.for_user_id)');
  return { accountId, ...interpretDirectMessages(accountId, payload.delivery) };
}
