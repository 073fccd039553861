/**
 * The usage page's arithmetic, pure: the month's days, spend per day and to date, the kinds of
 * call that cost most, each account's share, and the budget lines. Amounts are dollars.
 */

/** One line of auth's metering: an account's calls of one kind on one day (UTC). */
export interface UsageItem {
  accountId: string;
  date: string;
  kind: string;
  units: number;
  amount: number;
}

/** A month as the page's URL holds it: `2026-11`. */
export const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export const monthOf = (date: Date) => `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;

/** The month's days, `2026-11-01` … `2026-11-30`. */
export function daysOf(month: string): string[] {
  const match = MONTH.exec(month);
  if (!match) return [];
  const count = new Date(Date.UTC(Number(match[1]), Number(match[2]), 0)).getUTCDate();
  return Array.from({ length: count }, (_, index) => `${month}-${String(index + 1).padStart(2, '0')}`);
}

/** The usage query of a month: its first and last day. */
export function rangeOf(month: string): { from: string; to: string } {
  const days = daysOf(month);
  return { from: days[0]!, to: days[days.length - 1]! };
}

/** The months the picker offers: this one and the eleven before it, newest first. */
export function recentMonths(now: Date, count = 12): { value: string; label: string }[] {
  return Array.from({ length: count }, (_, back) => {
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    return { value: monthOf(first), label: first.toLocaleDateString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' }) };
  });
}

/** Cents are kept where they matter: `$0.42`, `$12.50`, `$1,234.00`. */
export const dollars = (amount: number) => `$${amount.toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const round = (amount: number) => Math.round(amount * 100) / 100;

export interface DayPoint {
  /** The day of the month, as the chart's axis shows it. */
  day: string;
  date: string;
  spent: number;
  /** null for the days still to come (the line stops at today). */
  toDate: number | null;
}

/** Spend on each day of the month and the month's spend to that day (every day, none missing; none to date after `today`). */
export function dailySpend(items: readonly UsageItem[], month: string, today = new Date().toISOString().slice(0, 10)): DayPoint[] {
  const byDate = new Map<string, number>();
  for (const item of items) byDate.set(item.date, (byDate.get(item.date) ?? 0) + item.amount);
  let toDate = 0;
  return daysOf(month).map((date) => {
    const spent = byDate.get(date) ?? 0;
    toDate += spent;
    return { day: String(Number(date.slice(8))), date, spent: round(spent), toDate: date > today ? null : round(toDate) };
  });
}

/** The rate card's kinds of call in words (auth's `UsageKind`: reads per resource, writes per request). */
const KIND_WORDS: Record<string, string> = {
  posts_read: 'Posts read',
  users_read: 'Profiles read',
  dm_events_read: 'Direct messages read',
  follows_read: 'Followers read',
  lists_read: 'Lists read',
  likes_read: 'Likes read',
  mutes_read: 'Mutes read',
  blocks_read: 'Blocks read',
  post_create: 'Posts and replies published',
  post_create_with_url: 'Posts with a link published',
  dm_interaction_create: 'Direct messages sent',
  user_interaction_create: 'Likes, follows and reposts',
  interaction_delete: 'Likes, follows and reposts undone',
  content_manage: 'Posts deleted or changed',
  list_create: 'Lists created',
  list_manage: 'Lists changed',
  privacy_update: 'Privacy settings changed',
  mute_delete: 'Mutes lifted',
};

/** `dm_interaction_create` is "Direct messages sent"; a kind the page does not know is said as its words (`list_members` → "List members"). */
export function kindWords(kind: string): string {
  if (KIND_WORDS[kind]) return KIND_WORDS[kind];
  const words = kind.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[._-]+/g, ' ').trim().toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Other calls';
}

export interface KindTotal {
  kind: string;
  words: string;
  units: number;
  amount: number;
}

/** The kinds of call by what they cost, most first (then by units). */
export function topKinds(items: readonly UsageItem[], limit = 10): KindTotal[] {
  const byKind = new Map<string, KindTotal>();
  for (const item of items) {
    const total = byKind.get(item.kind) ?? { kind: item.kind, words: kindWords(item.kind), units: 0, amount: 0 };
    total.units += item.units;
    total.amount += item.amount;
    byKind.set(item.kind, total);
  }
  return [...byKind.values()]
    .map((total) => ({ ...total, amount: round(total.amount) }))
    .sort((a, b) => b.amount - a.amount || b.units - a.units || a.words.localeCompare(b.words))
    .slice(0, limit);
}

export interface AccountShare {
  accountId: string;
  amount: number;
  /** Of the month's spend, 0-100, whole. */
  percent: number;
}

/** Each account's part of the month's spend, largest first. */
export function accountShares(items: readonly UsageItem[]): AccountShare[] {
  const byAccount = new Map<string, number>();
  for (const item of items) byAccount.set(item.accountId, (byAccount.get(item.accountId) ?? 0) + item.amount);
  const total = [...byAccount.values()].reduce((sum, amount) => sum + amount, 0);
  return [...byAccount.entries()]
    .map(([accountId, amount]) => ({ accountId, amount: round(amount), percent: total > 0 ? Math.round((amount / total) * 100) : 0 }))
    .sort((a, b) => b.amount - a.amount || a.accountId.localeCompare(b.accountId));
}

export type BudgetLevel = 'warning' | 'exhausted';

/** An account's budget as auth answers it: dollars a month, the warning's fraction of it, this month's spend. */
export interface BudgetState {
  accountId: string;
  monthlyLimit: number;
  warnAt: number;
  stopEssential: boolean;
  month: string;
  spent: number;
  exhausted: boolean;
}

export interface BudgetAlert {
  accountId: string;
  level: BudgetLevel;
  /** This month's spend, dollars. */
  spent: number;
  monthlyLimit: number;
  /** At the limit every call stops, replies too (else only optional reads). */
  stopEssential: boolean;
  /** The month it is about (`2026-11`): a new month is a new episode. */
  month: string;
}

/** The spend at which the warning comes, dollars. */
export const warningAmount = (budget: { monthlyLimit: number; warnAt: number }) => round(budget.monthlyLimit * budget.warnAt);

/** Whether an account's month has reached its budget (exhausted) or the warning threshold; null below both. */
export function budgetAlertOf(budget: BudgetState): BudgetAlert | null {
  const level: BudgetLevel | null = budget.exhausted || budget.spent >= budget.monthlyLimit ? 'exhausted' : budget.spent >= warningAmount(budget) ? 'warning' : null;
  return level && { accountId: budget.accountId, level, spent: round(budget.spent), monthlyLimit: budget.monthlyLimit, stopEssential: budget.stopEssential, month: budget.month };
}

/** A banner's episode: dismissing it hides this one for the session; the next (credit spent again, another month or level) shows. */
export const creditEpisode = (since: string | null) => `credit:${since ?? 'now'}`;
export const budgetEpisode = (alert: BudgetAlert) => `budget:${alert.accountId}:${alert.month}:${alert.level}`;
