import type { Request, Router } from 'express';
import { principalOf, requireScope } from '@crm/access';
import { Refusal } from '@crm/http';
import type { UsageFilter, UsageItem } from '../adapters/usage-store';
import { isReadKind, USAGE_KINDS } from '../domain/usage';
import type { UsageMeter } from '../operations/usage';
import { allowedAccountIdParam, bodyOf } from './params';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ACCOUNT_ID = /^[0-9]{1,20}$/;
/** The longest period one usage request covers. */
const MAX_DAYS = 366;

const invalid = (field: string, message: string) => new Refusal('invalid', 'invalid_request', `\`${field}\` ${message}`, { fields: [{ in: 'query', field, message }] });

function dayParam(req: Request, field: 'from' | 'to', fallback: string): string {
  const value = req.query[field];
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)) || new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value) {
    throw invalid(field, 'must be a UTC day, YYYY-MM-DD');
  }
  return value;
}

/**
 * The filter of a usage request: `accountId` (one the credential may see; every account it
 * may see when left out), `from` and `to` (inclusive UTC days; this month so far by default).
 */
function usageFilter(req: Request): UsageFilter {
  const today = new Date().toISOString().slice(0, 10);
  const from = dayParam(req, 'from', `${today.slice(0, 7)}-01`);
  const to = dayParam(req, 'to', today);
  if (from > to) throw invalid('from', `must not be after \`to\` (${to})`);
  if ((Date.parse(to) - Date.parse(from)) / 86_400_000 >= MAX_DAYS) throw invalid('from', `covers at most ${MAX_DAYS} days up to \`to\``);
  const principal = principalOf(req);
  const accountId = req.query.accountId;
  if (accountId === undefined) return { accountIds: principal.grant.accountIds ?? null, from, to };
  if (typeof accountId !== 'string' || !ACCOUNT_ID.test(accountId)) throw invalid('accountId', 'must be the platform user id (digits)');
  // An account the credential may not see has no usage for it (as if it did not exist).
  return { accountIds: principal.allowsAccount(accountId) ? [accountId] : [], from, to };
}

const csvLine = (item: UsageItem) => [item.accountId, item.date, item.kind, item.units, item.amount.toFixed(6)].join(',');

function budgetBody(req: Request): { monthlyLimit: number; warnAt: number; stopEssential: boolean } {
  const body = bodyOf(req);
  const field = (name: string, message: string) => new Refusal('invalid', 'invalid_request', `\`${name}\` ${message}`, { fields: [{ in: 'body', field: name, message }] });
  const { monthlyLimit, warnAt = 0.8, stopEssential = false } = body;
  if (typeof monthlyLimit !== 'number' || !Number.isFinite(monthlyLimit) || monthlyLimit < 0 || monthlyLimit > 1_000_000) throw field('monthlyLimit', 'must be dollars per month, from 0 to 1000000');
  if (typeof warnAt !== 'number' || !Number.isFinite(warnAt) || warnAt < 0 || warnAt > 1) throw field('warnAt', 'must be the fraction of the limit (0 to 1) at which to warn, e.g. 0.8');
  if (typeof stopEssential !== 'boolean') throw field('stopEssential', 'must be true or false');
  return { monthlyLimit, warnAt, stopEssential };
}

/**
 * What the accounts' platform calls cost (`GET /v1/usage`, `/v1/usage.csv`), the rate card they
 * are priced with, and each account's monthly budget. Reading needs what reading accounts needs
 * (tickets:read); setting a budget, accounts:manage.
 */
export function usageRoutes(router: Router, meter: UsageMeter): void {
  const read = requireScope('tickets:read');
  const manage = requireScope('accounts:manage');

  router.get('/v1/usage', read, async (req, res) => {
    res.json(await meter.usage(usageFilter(req)));
  });
  router.get('/v1/usage.csv', read, async (req, res) => {
    const { items } = await meter.usage(usageFilter(req));
    res.type('text/csv; charset=utf-8').send(['accountId,date,kind,units,amount', ...items.map(csvLine)].join('\n') + '\n');
  });
  router.get('/v1/usage/rate-card', read, (_req, res) => {
    res.json({ items: USAGE_KINDS.map((kind) => ({ kind, price: meter.card[kind], per: isReadKind(kind) ? 'resource' : 'request' })) });
  });

  router.get('/v1/accounts/:accountId/budget', read, async (req, res) => {
    const accountId = allowedAccountIdParam(req);
    const budget = await meter.budget(accountId);
    if (!budget) throw new Refusal('not_found', 'no_budget', `account ${accountId} has no budget: its platform calls are not limited (PUT /v1/accounts/${accountId}/budget sets one)`);
    res.json(budget);
  });
  router.put('/v1/accounts/:accountId/budget', manage, async (req, res) => {
    const accountId = allowedAccountIdParam(req);
    res.json(await meter.setBudget({ accountId, ...budgetBody(req) }));
  });
  router.delete('/v1/accounts/:accountId/budget', manage, async (req, res) => {
    const accountId = allowedAccountIdParam(req);
    if (!(await meter.removeBudget(accountId))) throw new Refusal('not_found', 'no_budget', `account ${accountId} has no budget`);
    res.status(204).end();
  });
}
