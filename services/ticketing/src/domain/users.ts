import type { MediaAttachment, SocialUser } from './social-events';
import { isRecord, objectId, text } from './platform-values';

/** The platform writes the string "null" for a missing image; only real URLs count. */
function imageUrl(value: unknown): string | null {
  const url = text(value);
  return url && /^https?:\/\/\S+$/i.test(url) ? url : null;
}

function count(value: unknown): number | null {
  const number = typeof value === 'string' && /^[0-9]{1,12}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : null;
}

/** A user known by id only (the delivery carried no user object for it). */
export function userById(id: string, screenName: string | null = null): SocialUser {
  return { id, screenName, name: null, avatarUrl: null, followersCount: null, verified: null, raw: null };
}

/** A user object (`user` of a post, `source`/`target` of relation events, the `users` map). */
export function socialUser(object: Record<string, unknown>, field: string): SocialUser {
  return {
    id: objectId(object, field),
    screenName: text(object.screen_name),
    name: text(object.name),
    avatarUrl: imageUrl(object.profile_image_url_https) ?? imageUrl(object.profile_image_url),
    followersCount: count(object.followers_count),
    verified: typeof object.verified === 'boolean' ? object.verified : null,
    raw: object,
  };
}

/**
 * The user `userId` from a delivery's top-level `users` map (keyed by string id). A delivery
 * without it still yields the user, known by id only.
 */
export function userFromMap(users: unknown, userId: string): SocialUser {
  const user = isRecord(users) ? users[userId] : undefined;
  return isRecord(user) ? { ...socialUser({ ...user, id: userId, id_str: undefined }, `users.${userId}`), raw: user } : userById(userId);
}

/** Media of a post (`extended_entities.media`, else `entities.media`) or of a DM (`attachment.media`). */
export function mediaOf(items: unknown): MediaAttachment[] {
  if (!Array.isArray(items)) return [];
  return items.filter(isRecord).map((media) => ({
    type: text(media.type) ?? 'photo',
    url: imageUrl(media.media_url_https) ?? imageUrl(media.media_url) ?? imageUrl(media.expanded_url),
    mediaId: text(media.id_str) ?? (typeof media.id === 'number' && Number.isSafeInteger(media.id) ? String(media.id) : null),
  }));
}
