/**
 * Usage, budgets and the platform's credit: auth's routes through the typed client (the console
 * relays `/v1/usage` as `/api/usage`, `/v1/accounts/{id}/budget`, `/v1/app/status` and
 * `/v1/app/credit-check` likewise), their shapes from auth's OpenAPI document.
 */
import { ApiError } from '../api';
import { auth, done, ok, type AuthSchemas } from '../client';

export type Budget = AuthSchemas['Budget'];
export type AppStatus = AuthSchemas['AppStatus'];
export type Usage = { items: AuthSchemas['UsageItem'][]; total: number };

/** What an admin sets: dollars a month, the fraction of it at which admins are warned, and whether every call stops at the limit. */
export interface BudgetChange {
  monthlyLimit: number;
  warnAt: number;
  stopEssential: boolean;
}

export interface UsageQuery {
  accountId?: string;
  from: string;
  to: string;
}

export async function loadUsage(query: UsageQuery): Promise<Usage> {
  return ok(auth.GET('/v1/usage', { params: { query } }));
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
    return await ok(auth.GET('/v1/accounts/{accountId}/budget', { params: { path: { accountId } } }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.code === 'no_budget') return null;
    throw error;
  }
}

export async function saveBudget(accountId: string, change: BudgetChange): Promise<Budget> {
  return ok(auth.PUT('/v1/accounts/{accountId}/budget', { params: { path: { accountId } }, body: change }));
}

export async function removeBudget(accountId: string): Promise<void> {
  await done(auth.DELETE('/v1/accounts/{accountId}/budget', { params: { path: { accountId } } }));
}

export async function loadAppStatus(): Promise<AppStatus> {
  return ok(auth.GET('/v1/app/status'));
}

/** An admin asks auth to check now whether credit is back (auth then sends what it held, in order). */
export async function checkCredit(): Promise<AppStatus> {
  return ok(auth.POST('/v1/app/credit-check'));
}
