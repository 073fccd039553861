import { stableNumber, stableUserId } from './ids';

/** A platform user as a caller may describe it; anything left out is made up, stably. */
export interface UserInput {
  id?: string;
  screenName?: string;
  name?: string;
  location?: string;
  description?: string;
  protected?: boolean;
  verified?: boolean;
  followersCount?: number;
  friendsCount?: number;
  statusesCount?: number;
}

/** '@ana' or 'ana' names a user by screen name; '1001' (digits only) by id. */
export type UserRef = string | UserInput;

/** A user object as DM deliveries carry it in their `users` map. */
export interface PlatformUser {
  id: string;
  created_timestamp: string;
  name: string;
  screen_name: string;
  location?: string;
  description?: string;
  protected: boolean;
  verified: boolean;
  followers_count: number;
  friends_count: number;
  statuses_count: number;
  profile_image_url: string;
  profile_image_url_https: string;
}

export const SCREEN_NAME_PATTERN = /^[A-Za-z0-9_]{1,15}$/;
export const ID_PATTERN = /^[0-9]{1,20}$/;

export class UserRefError extends Error {
  override name = 'UserRefError';
}

/** Turns a reference into a complete description with an id and a screen name. */
export function resolveUser(ref: UserRef): UserInput & { id: string; screenName: string; name: string } {
  const input: UserInput = typeof ref === 'string' ? parseUserString(ref) : ref;
  if (input.id !== undefined && !ID_PATTERN.test(input.id)) throw new UserRefError(`id "${input.id}" must be a string of digits`);
  if (input.screenName !== undefined && !SCREEN_NAME_PATTERN.test(input.screenName)) {
    throw new UserRefError(`screenName "${input.screenName}" must be 1-15 letters, digits or underscores`);
  }
  if (input.id === undefined && input.screenName === undefined) throw new UserRefError('give an id or a screenName');
  const id = input.id ?? stableUserId(input.screenName!);
  // An account named only by id still needs a screen name; a platform-length one derived from the id.
  const screenName = input.screenName ?? `user${id.slice(-11)}`;
  const name = input.name ?? screenName.charAt(0).toUpperCase() + screenName.slice(1);
  return { ...input, id, screenName, name };
}

function parseUserString(ref: string): UserInput {
  const value = ref.trim();
  if (value.startsWith('@')) return { screenName: value.slice(1) };
  if (ID_PATTERN.test(value)) return { id: value };
  return { screenName: value };
}

/** The user object of a delivery's `users` map; counters and creation time are derived from the id. */
export function platformUser(ref: UserRef): PlatformUser {
  const user = resolveUser(ref);
  return {
    id: user.id,
    created_timestamp: String(1_230_000_000_000 + stableNumber(user.id, 400_000_000_000)),
    name: user.name,
    screen_name: user.screenName,
    ...(user.location !== undefined ? { location: user.location } : {}),
    ...(user.description !== undefined ? { description: user.description } : {}),
    protected: user.protected ?? false,
    verified: user.verified ?? false,
    followers_count: user.followersCount ?? stableNumber(user.id, 5000),
    friends_count: user.friendsCount ?? stableNumber(`${user.id}:friends`, 1000),
    statuses_count: user.statusesCount ?? stableNumber(`${user.id}:statuses`, 10000),
    // The platform really sends the string "null" here in DM deliveries; consumers must cope.
    profile_image_url: 'null',
    profile_image_url_https: 'https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png',
  };
}
