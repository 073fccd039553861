import type { SocialAction } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import type { AuthEvents } from '../adapters/events';
import { platformSpend, platformUnits } from '../adapters/metrics';
import type { StoredBudget, UsageFilter, UsageItem, UsageStore } from '../adapters/usage-store';
import { budgetAllows, budgetReached, dollars, isOptionalSpending, monthOf, monthStart, warningReached, type Budget, type Metered, type RateCard } from '../domain/usage';

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** A budget as the CRM reads it, with this month's spend. */
export interface BudgetView extends Budget {
  month: string;
  spent: number;
  /** Optional calls are refused (every call with stopEssential). */
  exhausted: boolean;
}

/** The budget forbids the call: optional spending past the limit (or any, with stopEssential). */
export interface BudgetRefusal {
  message: string;
}

/**
 * Prices auth's platform calls from the rate card, stores the spend per account, UTC day and
 * kind (a resource read twice in a day charged once), and holds each account's monthly budget:
 * it announces the warning and the exhaustion once a month, and tells the executor which
 * calls the budget stops.
 */
export class UsageMeter {
  constructor(
    private readonly deps: { store: UsageStore; events: AuthEvents; logger: Logger; now?: () => Date },
    readonly card: RateCard,
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * Records what one successful call cost the account, and announces a budget line it crossed.
   * Never throws: the call was made whatever happens to its bill (a failure is logged).
   */
  async charge(accountId: string, metered: Metered | null): Promise<void> {
    if (!metered) return;
    const now = this.now();
    const day = dayOf(now);
    const price = this.card[metered.kind];
    try {
      const units = await this.deps.events.storeAndAnnounce(async (client) => {
        const charged = await this.deps.store.record(client, { accountId, day, kind: metered.kind, resourceIds: metered.resourceIds, price });
        if (charged > 0 && price > 0) await this.announceBudgetLines(client, accountId, now);
        return charged;
      });
      if (units > 0) {
        platformUnits.labels(metered.kind).inc(units);
        platformSpend.labels(metered.kind).inc(dollars(price * units));
      }
    } catch (error) {
      this.deps.logger.error('the platform call could not be recorded in the usage', { accountId, kind: metered.kind, reason: (error as Error).message });
    }
  }

  /** Deletes the records of resources read before today (UTC): a new day charges them again anyway. */
  forgetOldReads(): Promise<number> {
    return this.deps.store.forgetReadsBefore(dayOf(this.now()));
  }

  private async announceBudgetLines(client: Parameters<Parameters<AuthEvents['storeAndAnnounce']>[0]>[0], accountId: string, now: Date): Promise<void> {
    const budget = await this.deps.store.findBudget(accountId, client);
    if (!budget) return;
    const spent = dollars(await this.deps.store.spentSince(accountId, dayOf(monthStart(now)), client));
    const month = monthOf(now);
    const view = { accountId, month, spent, monthlyLimit: budget.monthlyLimit, detectedAt: now.toISOString() };
    if (warningReached(budget, spent) && (await this.deps.store.markAnnounced(client, accountId, 'warned', month))) {
      await this.deps.events.accountBudgetWarning(client, { ...view, warnAt: budget.warnAt });
    }
    if (budgetReached(budget, spent) && (await this.deps.store.markAnnounced(client, accountId, 'exhausted', month))) {
      await this.deps.events.accountBudgetExhausted(client, { ...view, stopEssential: budget.stopEssential });
      this.deps.logger.warn("an account's budget is spent: its optional platform calls are refused", { accountId, month, spent, monthlyLimit: budget.monthlyLimit });
    }
  }

  /** Null when the account's budget lets the call go ahead; why not otherwise. */
  async refusal(accountId: string, action: SocialAction): Promise<BudgetRefusal | null> {
    const now = this.now();
    const found = await this.deps.store.budgetAndSpend(accountId, dayOf(monthStart(now)));
    if (!found || budgetAllows(found.budget, found.spent, action)) return null;
    const { budget, spent } = found;
    const what = isOptionalSpending(action) ? `${action} is optional spending` : `the budget stops essential calls too (stopEssential)`;
    return {
      message: `account ${accountId}'s monthly budget of $${budget.monthlyLimit} for ${monthOf(now)} is spent ($${dollars(spent)}): ${what}; raise the budget (PUT /v1/accounts/${accountId}/budget) or wait for the next month`,
    };
  }

  async usage(filter: UsageFilter): Promise<{ items: UsageItem[]; total: number }> {
    const items = await this.deps.store.list(filter);
    return { items, total: dollars(items.reduce((sum, item) => sum + item.amount, 0)) };
  }

  async budget(accountId: string): Promise<BudgetView | null> {
    const budget = await this.deps.store.findBudget(accountId);
    return budget ? this.view(budget) : null;
  }

  /**
   * Sets an account's budget: a limit raised above this month's spend resumes optional calls at
   * once and re-arms its announcements; one set at or below the spend announces at once.
   */
  async setBudget(budget: Budget): Promise<BudgetView> {
    const now = this.now();
    const spent = dollars(await this.deps.store.spentSince(budget.accountId, dayOf(monthStart(now))));
    const saved = await this.deps.events.storeAndAnnounce(async (client) => {
      const stored = await this.deps.store.saveBudget(client, budget, { warning: !warningReached(budget, spent), exhausted: !budgetReached(budget, spent) });
      await this.announceBudgetLines(client, budget.accountId, now);
      return stored;
    });
    return this.view(saved, spent);
  }

  removeBudget(accountId: string): Promise<boolean> {
    return this.deps.store.deleteBudget(accountId);
  }

  private async view(budget: StoredBudget, knownSpent?: number): Promise<BudgetView> {
    const now = this.now();
    const spent = knownSpent ?? dollars(await this.deps.store.spentSince(budget.accountId, dayOf(monthStart(now))));
    const { accountId, monthlyLimit, warnAt, stopEssential } = budget;
    return { accountId, monthlyLimit, warnAt, stopEssential, month: monthOf(now), spent, exhausted: budgetReached(budget, spent) };
  }
}
