/**
 * Usage, budgets and the platform's credit, read and saved through the console's typed client
 * (`/api/usage`, `/api/accounts/{id}/budget`, `/api/app/status`: auth's answers relayed).
 */
import { consoleApi, done, ok } from '../client';
import { ApiError } from '../api';
import type { BudgetState, UsageItem } from './model';

export interface Usage {
  items: UsageItem[];
  /** Dollars, of every item. */
  total: number;
}

/** An account's monthly budget and this month's spend (auth's): `warnAt` is the fraction of the limit at which admins are warned. */
export type Budget = BudgetState;

/** What an admin sets. */
export interface BudgetChange {
  monthlyLimit: number;
  warnAt: number;
  stopEssential: boolean;
}

/** Whether the platform refuses the app for spent credit, since when, and how many replies wait for it. */
export interface AppStatus {
  outOfCredit: boolean;
  since: string | null;
  heldCommands: number;
}

export interface UsageQuery {
  accountId?: string;
  from: string;
  to: string;
}

export async function loadUsage(query: UsageQuery): Promise<Usage> {
  return (await ok(consoleApi.GET('/api/usage', { params: { query } }))) as unknown as Usage;
}

/** The CSV's address for the same query (a plain link: the browser downloads the file). */
export function csvHref(query: UsageQuery): string {
  const params = new URLSearchParams({ from: query.from, to: query.to });
  if (query.accountId) params.set('accountId', query.accountId);
  return `/api/usage.csv?${params.toString()}`;
}

/** The account's budget; null when it has none (auth's 404 `no_budget`). */
export async function loadBudget(accountId: string): Promise<Budget | null> {
  try {
    return (await ok(consoleApi.GET('/api/accounts/{accountId}/budget', { params: { path: { accountId } } }))) as unknown as Budget;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.code === 'no_budget') return null;
    throw error;
  }
}

export async function saveBudget(accountId: string, change: BudgetChange): Promise<Budget> {
  return (await ok(consoleApi.PUT('/api/accounts/{accountId}/budget', { params: { path: { accountId } }, body: { ...change } }))) as unknown as Budget;
}

export async function removeBudget(accountId: string): Promise<void> {
  await done(consoleApi.DELETE('/api/accounts/{accountId}/budget', { params: { path: { accountId } } }));
}

export async function loadAppStatus(): Promise<AppStatus> {
  return (await ok(consoleApi.GET('/api/app/status'))) as unknown as AppStatus;
}

/** An admin asks auth to check now whether credit is back (auth then sends what it held, in order). */
export async function checkCredit(): Promise<AppStatus> {
  return (await ok(consoleApi.POST('/api/app/credit-check'))) as unknown as AppStatus;
}
