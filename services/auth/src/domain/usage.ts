import { PUBLISHED_RATE_CARD, type SocialAction } from '@crm/contracts';

/**
 * What the platform charges, as auth prices its own calls: the platform's pay-per-use rate card
 * (dollars per resource read, per request written), which resources an answer holds, and which
 * actions are optional spending a budget may stop.
 */

/** The default rate card: the platform's published prices. PLATFORM_RATE_CARD overrides lines of it. */
export const DEFAULT_RATE_CARD = PUBLISHED_RATE_CARD;

export type UsageKind = keyof typeof DEFAULT_RATE_CARD;
export type RateCard = Record<UsageKind, number>;
export const USAGE_KINDS = Object.keys(DEFAULT_RATE_CARD) as UsageKind[];

/** Reads are charged per resource answered, writes per request. */
export const isReadKind = (kind: UsageKind): boolean => kind.endsWith('_read');

/**
 * The rate card from PLATFORM_RATE_CARD: a JSON object of kind -> dollars (0 or more, at most
 * 1,000) overriding the default card's lines. Throws an Error naming what is wrong.
 */
export function parseRateCard(text: string): RateCard {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('must be a JSON object of kind -> dollars, e.g. {"posts_read": 0.005}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('must be a JSON object of kind -> dollars, e.g. {"posts_read": 0.005}');
  const card: RateCard = { ...DEFAULT_RATE_CARD };
  for (const [kind, price] of Object.entries(parsed)) {
    if (!(kind in DEFAULT_RATE_CARD)) throw new Error(`names an unknown kind "${kind}" (known: ${USAGE_KINDS.join(', ')})`);
    if (typeof price !== 'number' || !Number.isFinite(price) || price < 0 || price > 1000) throw new Error(`gives "${kind}" ${JSON.stringify(price)}: a price must be a number of dollars from 0 to 1000`);
    card[kind as UsageKind] = price;
  }
  return card;
}

/** What one successful call costs before deduplication: its kind, and the resources it read (null: a write, one request). */
export interface Metered {
  kind: UsageKind;
  resourceIds: string[] | null;
}

const READS: Partial<Record<SocialAction, UsageKind>> = {
  read_home_timeline: 'posts_read',
  read_user_timeline: 'posts_read',
  read_list_posts: 'posts_read',
  search_posts: 'posts_read',
  read_profile: 'users_read',
  read_user: 'users_read',
  read_following: 'follows_read',
  read_lists: 'lists_read',
  read_subscribed_lists: 'lists_read',
  read_dms: 'dm_events_read',
  read_dm: 'dm_events_read',
};

const WRITES: Partial<Record<SocialAction, UsageKind>> = {
  like: 'user_interaction_create',
  repost: 'user_interaction_create',
  follow: 'user_interaction_create',
  block: 'user_interaction_create',
  mute: 'user_interaction_create',
  unlike: 'interaction_delete',
  unfollow: 'interaction_delete',
  unblock: 'interaction_delete',
  delete_post: 'interaction_delete',
  delete_dm: 'interaction_delete',
  unmute: 'mute_delete',
  send_dm: 'dm_interaction_create',
  create_list: 'list_create',
  update_list: 'list_manage',
  delete_list: 'list_manage',
  add_list_member: 'list_manage',
  remove_list_member: 'list_manage',
  report: 'content_manage',
  create_collection: 'content_manage',
  update_collection: 'content_manage',
  delete_collection: 'content_manage',
  add_collection_entry: 'content_manage',
  remove_collection_entry: 'content_manage',
  update_settings: 'privacy_update',
};

const URL_IN_TEXT = /https?:\/\/\S/i;

const idOf = (item: unknown): string | null => {
  if (typeof item !== 'object' || item === null) return null;
  const id = (item as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
};

/** The resources of a v2 answer: each object of its `data` (one object or a list). */
export function resourcesOf(answer: unknown): string[] {
  const data = (answer as { data?: unknown } | null)?.data;
  const items = Array.isArray(data) ? data : data === undefined || data === null ? [] : [data];
  return items.map(idOf).filter((id): id is string => id !== null);
}

/**
 * What an action's successful answer costs (the platform's answer as it came, v2 shape), or
 * null when the card has no line for it (v1.1 settings and collection reads, profile updates,
 * media uploads, mark-read and typing indicators).
 */
export function meterAction(action: SocialAction, input: Record<string, unknown>, answer: unknown): Metered | null {
  const read = READS[action];
  if (read) return { kind: read, resourceIds: resourcesOf(answer) };
  if (action === 'post' || action === 'reply') return { kind: typeof input.text === 'string' && URL_IN_TEXT.test(input.text) ? 'post_create_with_url' : 'post_create', resourceIds: null };
  const write = WRITES[action];
  return write ? { kind: write, resourceIds: null } : null;
}

/** The user lookup by screen name made before a v2 route that takes ids: one user read. */
export const meterLookup = (answer: unknown): Metered => ({ kind: 'users_read', resourceIds: resourcesOf(answer) });

/**
 * Optional spending, which an exhausted budget stops: search polling, profile and timeline
 * reads for the sidebar, list reads. Replies, DMs and the reads that answer a customer (DM
 * reads, user lookups for a reply) go on unless the budget says `stopEssential`.
 */
const OPTIONAL: ReadonlySet<SocialAction> = new Set<SocialAction>([
  'search_posts',
  'read_profile',
  'read_user_timeline',
  'read_home_timeline',
  'read_following',
  'read_lists',
  'read_subscribed_lists',
  'read_list_posts',
  'read_collections',
  'read_collection_entries',
]);

export const isOptionalSpending = (action: SocialAction): boolean => OPTIONAL.has(action);

/** An account's monthly budget, in dollars per UTC calendar month. */
export interface Budget {
  accountId: string;
  monthlyLimit: number;
  /** The fraction of the limit (0..1) at which `account.budget_warning` is announced. */
  warnAt: number;
  /** Stop every call, essential ones too, once the limit is reached. */
  stopEssential: boolean;
}

/** Where an account's spend stands against its budget. */
export const budgetReached = (budget: Budget, spent: number): boolean => spent >= budget.monthlyLimit;
export const warningReached = (budget: Budget, spent: number): boolean => spent >= budget.monthlyLimit * budget.warnAt;

/** Whether a call may go ahead under the budget. */
export function budgetAllows(budget: Budget | null, spent: number, action: SocialAction): boolean {
  if (!budget || !budgetReached(budget, spent)) return true;
  return !budget.stopEssential && !isOptionalSpending(action);
}

/** The UTC month of an instant: `2026-11`. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);
/** The first day of an instant's UTC month. */
export const monthStart = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));

/** Dollars rounded to the micro-dollar, as the database stores them. */
export const dollars = (value: number): number => Math.round(value * 1_000_000) / 1_000_000;
