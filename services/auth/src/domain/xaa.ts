/** The X Activity API's rules as auth applies them: the event types a help desk needs, and replay windows. */

/**
 * What a help desk subscribes each account to, in the platform's event names: legacy DMs and
 * encrypted ones (`chat.*`, shown as unreadable), posts about the account, likes of its posts,
 * its new followers, and the revoke of its authorization.
 */
export const HELP_DESK_EVENT_TYPES = [
  'dm.received',
  'dm.sent',
  'chat.received',
  'chat.sent',
  'post.mention.create',
  'post.reply.create',
  'post.quote.create',
  'post.repost.create',
  'post.delete',
  'like.create',
  'follow.follow',
  'oauth.revoke',
] as const;

export type HelpDeskEventType = (typeof HELP_DESK_EVENT_TYPES)[number];

/**
 * The scope a private event's subscription needs in the account's OAuth 2.0 token (the
 * platform's API reference); the platform takes such subscriptions only with that token, for
 * that account. Event types not named are public: the app's bearer token subscribes them.
 */
const PRIVATE_EVENT_SCOPES: Record<string, string> = {
  'dm.received': 'dm.read',
  'dm.sent': 'dm.read',
  'dm.read': 'dm.read',
  'dm.indicate_typing': 'dm.read',
  'chat.received': 'dm.read',
  'chat.sent': 'dm.read',
  'like.create': 'like.read',
  'mute.mute': 'mute.read',
  'mute.unmute': 'mute.read',
  'block.block': 'block.read',
  'block.unblock': 'block.read',
  'post.mention.create': 'tweet.read',
  'post.reply.create': 'tweet.read',
  'post.quote.create': 'tweet.read',
  'post.repost.create': 'tweet.read',
};

/** The scope a subscription to the event type needs in the account's token, or null for a public event. */
export const privateEventScope = (eventType: string): string | null => PRIVATE_EVENT_SCOPES[eventType] ?? null;

/** The filter of an account's subscription to an event type: likes only those of the account's posts (`inbound`). */
export function subscriptionFilter(accountId: string, eventType: string): { user_id: string; direction?: 'inbound' } {
  return eventType === 'like.create' ? { user_id: accountId, direction: 'inbound' } : { user_id: accountId };
}

/** A subscription as the platform answers it: the API reference nests it in `data.subscription`, the quickstart shows it in `data` itself. */
export function createdSubscription(answer: unknown): { subscription_id?: unknown } | null {
  const data = (answer as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const nested = (data as { subscription?: unknown }).subscription;
  return typeof nested === 'object' && nested !== null ? nested : (data as { subscription_id?: unknown });
}

/** The platform's replay rules (its defaults: the last 24 h, the start 31 min old, the end 10 min old). */
export interface ReplayRules {
  minStartAgeMs: number;
  minEndAgeMs: number;
  maxAgeMs: number;
}

export const MINUTE_MS = 60_000;
const floorMinute = (at: number) => Math.floor(at / MINUTE_MS) * MINUTE_MS;

/** A window as the platform takes it: whole minutes, the end minute included. */
export interface ReplayWindow {
  from: number;
  to: number;
  /** The earliest time the platform accepts the request. */
  notBefore: number;
}

/**
 * The window to replay for deliveries missed between `missedFrom` and `missedUntil`, in whole
 * minutes, and when the platform's age rules allow asking for it.
 */
export function replayWindow(missedFrom: number, missedUntil: number, rules: ReplayRules): ReplayWindow {
  const from = floorMinute(missedFrom);
  const to = Math.max(floorMinute(missedUntil), from + MINUTE_MS);
  return { from, to, notBefore: Math.max(from + rules.minStartAgeMs, to + rules.minEndAgeMs) };
}

/**
 * The window as it can be asked for at `now`: a start older than the platform keeps is moved up
 * (what is older is gone); null when nothing of it is left.
 */
export function clampToRetention(window: { from: number; to: number }, now: number, rules: ReplayRules): { from: number; to: number } | null {
  const oldest = floorMinute(now - rules.maxAgeMs) + MINUTE_MS;
  const from = Math.max(window.from, oldest);
  return from < window.to ? { from, to: window.to } : null;
}

/** `YYYYMMDDHHmm` in UTC, the form the platform takes replay times in. */
export function replayTime(at: number): string {
  return new Date(at).toISOString().replace(/[-T:]/g, '').slice(0, 12);
}

/** Whether a heartbeat this old means auth was down long enough to have missed deliveries. */
export function isOutage(lastBeat: number | null, now: number, gapMs: number): boolean {
  return lastBeat !== null && now - lastBeat > gapMs;
}
