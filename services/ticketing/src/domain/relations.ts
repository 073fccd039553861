import type { ContactActionEvent, FollowEvent, LikeByAccount, LikeOfAccount, SocialUser, SubscriptionRevoked } from './social-events';
import { InvalidActivity } from './errors';
import type { IgnoredActivity } from './events';
import { postRef } from './posts';
import {
  epochMillis,
  isoDate,
  optionalPlatformId,
  optionalRecord,
  platformDate,
  platformId,
  requiredArray,
  requiredRecord,
  requiredString,
  text,
} from './platform-values';
import { socialUser } from './users';

/**
 * `favorite_events`: the account liked a post, or someone liked the account's post. A like the
 * platform delivers without its liker (the X Activity API names none) is a like of the account's
 * post by someone unknown.
 */
export function interpretLikes(accountId: string, delivery: Record<string, unknown>): { events: (LikeByAccount | LikeOfAccount)[]; ignored: IgnoredActivity[] } {
  const events: (LikeByAccount | LikeOfAccount)[] = [];
  const ignored: IgnoredActivity[] = [];
  requiredArray(delivery.favorite_events, 'favorite_events').forEach((item, index) => {
    const at = `favorite_events[${index}]`;
    const event = requiredRecord(item, at);
    const liker = event.user === undefined || event.user === null ? null : socialUser(requiredRecord(event.user, `${at}.user`), `${at}.user`);
    const likedPost = postRef(requiredRecord(event.favorited_status, `${at}.favorited_status`), `${at}.favorited_status`);
    const occurredAt = (event.timestamp_ms !== undefined ? epochMillis(event.timestamp_ms, `${at}.timestamp_ms`) : platformDate(event.created_at, `${at}.created_at`)).toISOString();
    // The platform's like ids are opaque strings; without one, liker and post identify the like.
    const platformEventId = text(event.id) ?? `like:${liker?.id ?? 'unknown'}:${likedPost.id}`;
    const common = { accountId, platformEventId, occurredAt, raw: event, likedPost };
    if (liker?.id === accountId) events.push({ ...common, liker, kind: 'like_by_account' });
    else if (likedPost.author === null || likedPost.author.id === accountId) events.push({ ...common, liker, kind: 'like_of_account' });
    else ignored.push({ reason: `${at}: ${liker?.id ?? 'someone'} liked post ${likedPost.id}, which is not the account's` });
  });
  return { events, ignored };
}

/**
 * A follow, block or mute has no id in Account Activity deliveries: who, whom and when make one.
 * The X Activity API's carries no time but its delivery's uuid (its AAA form's `id`), which does.
 */
function relationEventId(type: string, event: Record<string, unknown>, source: SocialUser, target: SocialUser, occurred: Date): string {
  const id = text(event.id);
  return id ? `${type}:${id}` : `${type}:${source.id}:${target.id}:${occurred.getTime()}`;
}

/** `follow_events`: follow / unfollow, by the account or of it. */
export function interpretFollows(accountId: string, delivery: Record<string, unknown>): FollowEvent[] {
  return requiredArray(delivery.follow_events, 'follow_events').map((item, index) => {
    const at = `follow_events[${index}]`;
    const event = requiredRecord(item, at);
    const type = requiredString(event.type, `${at}.type`);
    if (type !== 'follow' && type !== 'unfollow') throw new InvalidActivity(`${at}.type '${type}' is not a follow event type ticketing knows (follow, unfollow)`);
    const occurred = epochMillis(event.created_timestamp, `${at}.created_timestamp`);
    const source = socialUser(requiredRecord(event.source, `${at}.source`), `${at}.source`);
    const target = socialUser(requiredRecord(event.target, `${at}.target`), `${at}.target`);
    const byAccount = source.id === accountId;
    if (!byAccount && target.id !== accountId) throw new InvalidActivity(`${at}: neither the source (${source.id}) nor the target (${target.id}) is the account ${accountId}`);
    const kind = `${type}_${byAccount ? 'by' : 'of'}_account` as FollowEvent['kind'];
    return {
      kind,
      accountId,
      platformEventId: relationEventId(type, event, source, target, occurred),
      occurredAt: occurred.toISOString(),
      raw: event,
      source,
      target,
    };
  });
}

/** `block_events` and `mute_events`: what the account did to another user. */
export function interpretContactActions(accountId: string, delivery: Record<string, unknown>, kind: 'block_events' | 'mute_events'): ContactActionEvent[] {
  const known = kind === 'block_events' ? ['block', 'unblock'] : ['mute', 'unmute'];
  return requiredArray(delivery[kind], kind).map((item, index) => {
    const at = `${kind}[${index}]`;
    const event = requiredRecord(item, at);
    const type = requiredString(event.type, `${at}.type`);
    if (!known.includes(type)) throw new InvalidActivity(`${at}.type '${type}' is not a ${kind} type ticketing knows (${known.join(', ')})`);
    const occurred = epochMillis(event.created_timestamp, `${at}.created_timestamp`);
    const source = socialUser(requiredRecord(event.source, `${at}.source`), `${at}.source`);
    const target = socialUser(requiredRecord(event.target, `${at}.target`), `${at}.target`);
    if (source.id !== accountId) throw new InvalidActivity(`${at}.source: the platform reports only the account's own ${type}s, but the source is ${source.id}, not ${accountId}`);
    return {
      kind: type as ContactActionEvent['kind'],
      accountId,
      platformEventId: relationEventId(type, event, source, target, occurred),
      occurredAt: occurred.toISOString(),
      raw: event,
      target,
    };
  });
}

/** The account a `user_event` concerns (such deliveries have no `for_user_id`). */
export function userEventAccount(delivery: Record<string, unknown>): string | null {
  const userEvent = optionalRecord(delivery.user_event, 'user_event');
  const revoke = userEvent && optionalRecord(userEvent.revoke, 'user_event.revoke');
  const source = revoke && optionalRecord(revoke.source, 'user_event.revoke.source');
  return source ? optionalPlatformId(source.user_id, 'user_event.revoke.source.user_id') : null;
}

/** `user_event`: today only `revoke`, the account's owner revoking the app's access. */
export function interpretUserEvent(accountId: string, delivery: Record<string, unknown>): SubscriptionRevoked[] {
  const userEvent = requiredRecord(delivery.user_event, 'user_event');
  const unknown = Object.keys(userEvent).filter((key) => key !== 'revoke');
  if (unknown.length > 0) throw new InvalidActivity(`user_event.${unknown[0]} is not a user event ticketing knows (revoke)`);
  const revoke = requiredRecord(userEvent.revoke, 'user_event.revoke');
  const revokedAt = isoDate(revoke.date_time, 'user_event.revoke.date_time');
  const source = requiredRecord(revoke.source, 'user_event.revoke.source');
  const userId = platformId(source.user_id, 'user_event.revoke.source.user_id');
  const target = optionalRecord(revoke.target, 'user_event.revoke.target');
  return [
    {
      kind: 'subscription_revoked',
      accountId,
      platformEventId: `revoke:${userId}:${revokedAt.getTime()}`,
      occurredAt: revokedAt.toISOString(),
      raw: revoke,
      appId: target ? optionalPlatformId(target.app_id, 'user_event.revoke.target.app_id') : null,
    },
  ];
}
