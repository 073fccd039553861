import { type RawActivityPayload } from '@crm/contracts';
import { checkSocialEvent, type SocialEvent } from './social-events';
import { interpretDirectMessages, interpretIndicators } from './direct-messages';
import { InvalidActivity } from './errors';
import type { IgnoredActivity, Interpretation } from './events';
import { optionalPlatformId } from './platform-values';
import { interpretPostDeletes, interpretPosts } from './posts';
import { interpretContactActions, interpretFollows, interpretLikes, interpretUserEvent, userEventAccount } from './relations';

/**
 * The account a delivery is for: the envelope's `forUserId`, which must agree with the
 * delivery's `for_user_id` (for a revoke, with the revoking user).
 */
function accountOf(payload: RawActivityPayload): string {
  const fromPayload = optionalPlatformId(payload.forUserId, 'forUserId');
  const fromDelivery =
    payload.kind === 'user_event' ? userEventAccount(payload.delivery) : optionalPlatformId(payload.delivery.for_user_id, 'delivery.for_user_id');
  const field = payload.kind === 'user_event' ? 'user_event.revoke.source.user_id' : 'delivery.for_user_id';
  if (fromPayload && fromDelivery && fromPayload !== fromDelivery) {
    throw new InvalidActivity(`forUserId ${fromPayload} does not match ${field} ${fromDelivery}`);
  }
  const accountId = fromPayload ?? fromDelivery;
  if (!accountId) throw new InvalidActivity(`forUserId is missing (and so is ${field})`);
  return accountId;
}

function eventsOf(accountId: string, payload: RawActivityPayload): { events: SocialEvent[]; ignored: IgnoredActivity[] } {
  const { delivery } = payload;
  switch (payload.kind) {
    case 'direct_message_events':
      return { events: interpretDirectMessages(accountId, delivery), ignored: [] };
    case 'direct_message_indicate_typing_events':
    case 'direct_message_mark_read_events':
      return interpretIndicators(accountId, delivery, payload.kind);
    case 'tweet_create_events':
      return interpretPosts(accountId, delivery);
    case 'tweet_delete_events':
      return { events: interpretPostDeletes(accountId, delivery), ignored: [] };
    case 'favorite_events':
      return interpretLikes(accountId, delivery);
    case 'follow_events':
      return { events: interpretFollows(accountId, delivery), ignored: [] };
    case 'block_events':
    case 'mute_events':
      return { events: interpretContactActions(accountId, delivery, payload.kind), ignored: [] };
    case 'user_event':
      return { events: interpretUserEvent(accountId, delivery), ignored: [] };
    default:
      throw new InvalidActivity(`kind '${String(payload.kind)}' is not one ticketing knows`);
  }
}

/**
 * Turns one raw delivery into typed domain events, one per platform event (a delivery with
 * several yields several). Pure: no I/O, no clock. Each event is checked against its
 * contract; anything unusable throws InvalidActivity naming the field or the unknown kind.
 */
export function interpretActivity(payload: RawActivityPayload): Interpretation {
  const accountId = accountOf(payload);
  const { events, ignored } = eventsOf(accountId, payload);
  events.forEach((event, index) => {
    const problems = checkSocialEvent(event);
    if (problems.length > 0) throw new InvalidActivity(`${payload.kind}[${index}] as ${event.kind}: ${problems.join('; ')}`);
  });
  return { accountId, events, ignored };
}
