/**
 * Usage, budgets and the platform's credit, read and saved through the console's typed client
 * (`/api/usage`, `/api/accounts/{id}/budget`, `/api/app/status`: auth's answers relayed).
 */
import { consoleApi, done, ok } from '../client';
import type { UsageItem } from './model';

export interface Usage {
  items: UsageItem[];
  /** Dollars, of every item. */
  total: number;
}

/** An account's monthly budget, in dollars: the limit, and the spend at which admins are warned. */
export interface Budget {
  monthlyLimit: number | null;
  warningThreshold: number | null;
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

export async function loadBudget(accountId: string): Promise<Budget> {
  return (await ok(consoleApi.GET('/api/accounts/{accountId}/budget', { params: { path: { accountId } } }))) as unknown as Budget;
}

export async function saveBudget(accountId: string, budget: Budget): Promise<void> {
  await done(consoleApi.PUT('/api/accounts/{accountId}/budget', { params: { path: { accountId } }, body: { ...budget } }));
}

export async function loadAppStatus(): Promise<AppStatus> {
  return (await ok(consoleApi.GET('/api/app/status'))) as unknown as AppStatus;
}
