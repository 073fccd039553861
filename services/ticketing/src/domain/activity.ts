import { accountActivityForm, checkXaaDelivery, type RawActivityPayload, type XaaDelivery } from '@crm/contracts';
import { checkSocialEvent, type SocialEvent } from './social-events';
import { interpretDirectMessages, interpretIndicators } from './direct-messages';
import { InvalidActivity } from './errors';
import type { IgnoredActivity, Interpretation, RejectedEvent } from './events';
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

/** The delivery's events, each checked against its contract; throws InvalidActivity naming the first problem. */
function checkedEventsOf(accountId: string, payload: RawActivityPayload): { events: SocialEvent[]; ignored: IgnoredActivity[] } {
  const { events, ignored } = eventsOf(accountId, payload);
  events.forEach((event, index) => {
    const problems = checkSocialEvent(event);
    if (problems.length > 0) throw new InvalidActivity(`${payload.kind}[${index}] as ${event.kind}: ${problems.join('; ')}`);
  });
  return { events, ignored };
}

/**
 * A delivery with an unusable event, taken one event at a time: the usable ones and the
 * rejected ones with their reasons. Null when the delivery cannot be taken apart (its list of
 * events is missing, or holds one).
 */
function interpretEach(accountId: string, payload: RawActivityPayload): Interpretation | null {
  const list = payload.kind === 'user_event' ? undefined : payload.delivery[payload.kind];
  if (!Array.isArray(list) || list.length < 2) return null;
  const result: Interpretation = { accountId, events: [], ignored: [], rejected: [] };
  list.forEach((item: unknown, index) => {
    const delivery = { ...payload.delivery, [payload.kind]: [item] };
    try {
      const one = checkedEventsOf(accountId, { ...payload, delivery });
      result.events.push(...one.events);
      result.ignored.push(...one.ignored);
    } catch (error) {
      if (!(error instanceof InvalidActivity)) throw error;
      const reason = error.message.split(`${payload.kind}[0]`).join(`${payload.kind}[${index}]`);
      result.rejected.push({ index, reason, delivery } satisfies RejectedEvent);
    }
  });
  return result;
}

/** An X Activity API delivery as the Account Activity delivery of the same activity: one interpretation serves both. */
function accountActivityPayload(payload: RawActivityPayload): RawActivityPayload {
  if (payload.api !== 'xaa') return payload;
  const check = checkXaaDelivery(payload.delivery);
  if (!check.ok) throw new InvalidActivity(`not a known X Activity API delivery: ${check.problems.join('; ')}`);
  if (check.kind !== payload.kind) throw new InvalidActivity(`kind ${payload.kind} does not match the XAA event type ${check.eventType} (${check.kind})`);
  return { ...payload, delivery: accountActivityForm(payload.delivery as XaaDelivery, payload.receivedAt) };
}

/**
 * Turns one raw delivery into typed domain events, one per platform event (a delivery with
 * several yields several). Pure: no I/O, no clock. Each event is checked against its
 * contract. An unusable event beside usable ones is `rejected` (with its reason) and the rest
 * go on; a delivery with nothing usable throws InvalidActivity naming the field or the unknown kind.
 */
export function interpretActivity(received: RawActivityPayload): Interpretation {
  const payload = accountActivityPayload(received);
  const accountId = accountOf(payload);
  try {
    return { accountId, ...checkedEventsOf(accountId, payload), rejected: [] };
  } catch (error) {
    if (!(error instanceof InvalidActivity)) throw error;
    const split = interpretEach(accountId, payload);
    if (!split || split.events.length + split.ignored.length === 0) throw error;
    return split;
  }
}
