import type { ContactProfile } from './events';
import { isRecord } from './platform-values';

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** The platform writes the string "null" for a missing image; only real URLs count. */
function imageUrl(value: unknown): string | null {
  const url = text(value);
  return url && /^https?:\/\//i.test(url) ? url : null;
}

/**
 * The user object of `userId` from a delivery's top-level `users` map (keyed by string id).
 * A delivery without it still yields a contact, known by id only.
 */
export function contactProfile(users: unknown, userId: string): ContactProfile {
  const user = isRecord(users) ? users[userId] : undefined;
  if (!isRecord(user)) return { platformUserId: userId, screenName: null, name: null, avatarUrl: null, raw: null };
  return {
    platformUserId: userId,
    screenName: text(user.screen_name),
    name: text(user.name),
    avatarUrl: imageUrl(user.profile_image_url_https) ?? imageUrl(user.profile_image_url),
    raw: user,
  };
}
