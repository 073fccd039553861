import type { Pool, PoolClient } from '@crm/db';
import type { Budget, UsageKind } from '../domain/usage';

/** One account's use of one kind on one UTC day. */
export interface UsageItem {
  accountId: string;
  /** `YYYY-MM-DD` (UTC). */
  date: string;
  kind: UsageKind;
  units: number;
  /** Dollars. */
  amount: number;
}

export interface UsageFilter {
  /** null: every account. */
  accountIds: string[] | null;
  /** Inclusive UTC days, `YYYY-MM-DD`. */
  from: string;
  to: string;
}

interface BudgetRow {
  account_id: string;
  monthly_limit: string;
  warn_at: string;
  stop_essential: boolean;
  warned_month: string | null;
  exhausted_month: string | null;
}

export interface StoredBudget extends Budget {
  warnedMonth: string | null;
  exhaustedMonth: string | null;
}

const fromBudgetRow = (row: BudgetRow): StoredBudget => ({
  accountId: row.account_id,
  monthlyLimit: Number(row.monthly_limit),
  warnAt: Number(row.warn_at),
  stopEssential: row.stop_essential,
  warnedMonth: row.warned_month,
  exhaustedMonth: row.exhausted_month,
});

/** Usage per account, UTC day and kind; the resources charged today (deduplication); budgets. */
export class UsageStore {
  constructor(private readonly pool: Pool) {}

  /**
   * Records one priced call in `client`'s transaction: a read counts only the resources the
   * account was not charged for yet on that day. Returns the units charged (0: nothing new).
   */
  async record(client: PoolClient, entry: { accountId: string; day: string; kind: UsageKind; resourceIds: string[] | null; price: number }): Promise<number> {
    let units = 1;
    if (entry.resourceIds !== null) {
      const ids = [...new Set(entry.resourceIds)];
      if (ids.length === 0) return 0;
      const { rowCount } = await client.query(
        `INSERT INTO platform_reads (account_id, kind, resource_id, day) SELECT $1, $2, id, $4::date FROM unnest($3::text[]) AS id
         ON CONFLICT DO NOTHING`,
        [entry.accountId, entry.kind, ids, entry.day],
      );
      units = rowCount ?? 0;
      if (units === 0) return 0;
    }
    await client.query(
      `INSERT INTO platform_usage (account_id, day, kind, units, amount) VALUES ($1, $2::date, $3, $4, $5)
       ON CONFLICT (account_id, day, kind) DO UPDATE SET units = platform_usage.units + EXCLUDED.units, amount = platform_usage.amount + EXCLUDED.amount`,
      [entry.accountId, entry.day, entry.kind, units, (entry.price * units).toFixed(6)],
    );
    return units;
  }

  /** Forgets the resources charged before `day`: they are charged again on a new day anyway. */
  async forgetReadsBefore(day: string): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM platform_reads WHERE day < $1::date', [day]);
    return rowCount ?? 0;
  }

  async list(filter: UsageFilter): Promise<UsageItem[]> {
    const { rows } = await this.pool.query<{ account_id: string; day: string; kind: UsageKind; units: string; amount: string }>(
      `SELECT account_id, to_char(day, 'YYYY-MM-DD') AS day, kind, units, amount FROM platform_usage
        WHERE day BETWEEN $1::date AND $2::date AND ($3::text[] IS NULL OR account_id = ANY($3))
        ORDER BY day, account_id, kind`,
      [filter.from, filter.to, filter.accountIds],
    );
    return rows.map((row) => ({ accountId: row.account_id, date: row.day, kind: row.kind, units: Number(row.units), amount: Number(row.amount) }));
  }

  /** Dollars an account spent from `since` (a UTC day) on. */
  async spentSince(accountId: string, since: string, client: Pool | PoolClient = this.pool): Promise<number> {
    const { rows } = await client.query<{ spent: string | null }>('SELECT sum(amount) AS spent FROM platform_usage WHERE account_id = $1 AND day >= $2::date', [accountId, since]);
    return Number(rows[0]?.spent ?? 0);
  }

  /** An account's budget and what it spent from `since` on, in one round trip; null without a budget. */
  async budgetAndSpend(accountId: string, since: string): Promise<{ budget: StoredBudget; spent: number } | null> {
    const { rows } = await this.pool.query<BudgetRow & { spent: string | null }>(
      `SELECT b.*, (SELECT sum(amount) FROM platform_usage u WHERE u.account_id = b.account_id AND u.day >= $2::date) AS spent
         FROM account_budgets b WHERE b.account_id = $1`,
      [accountId, since],
    );
    const row = rows[0];
    return row ? { budget: fromBudgetRow(row), spent: Number(row.spent ?? 0) } : null;
  }

  async findBudget(accountId: string, client: Pool | PoolClient = this.pool): Promise<StoredBudget | null> {
    const { rows } = await client.query<BudgetRow>('SELECT * FROM account_budgets WHERE account_id = $1', [accountId]);
    return rows[0] ? fromBudgetRow(rows[0]) : null;
  }

  /** Sets a budget; `rearm` forgets this month's announcements (the limit was raised above the spend). */
  async saveBudget(client: PoolClient, budget: Budget, rearm: { warning: boolean; exhausted: boolean }): Promise<StoredBudget> {
    const { rows } = await client.query<BudgetRow>(
      `INSERT INTO account_budgets (account_id, monthly_limit, warn_at, stop_essential) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id) DO UPDATE SET monthly_limit = EXCLUDED.monthly_limit, warn_at = EXCLUDED.warn_at, stop_essential = EXCLUDED.stop_essential,
         warned_month = CASE WHEN $5 THEN NULL ELSE account_budgets.warned_month END,
         exhausted_month = CASE WHEN $6 THEN NULL ELSE account_budgets.exhausted_month END,
         updated_at = now()
       RETURNING *`,
      [budget.accountId, budget.monthlyLimit.toFixed(6), budget.warnAt.toFixed(3), budget.stopEssential, rearm.warning, rearm.exhausted],
    );
    return fromBudgetRow(rows[0]!);
  }

  async deleteBudget(accountId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM account_budgets WHERE account_id = $1', [accountId]);
    return (rowCount ?? 0) > 0;
  }

  /** Marks this month's warning (or exhaustion) announced; false when it already was (by this or another replica). */
  async markAnnounced(client: PoolClient, accountId: string, what: 'warned' | 'exhausted', month: string): Promise<boolean> {
    const column = what === 'warned' ? 'warned_month' : 'exhausted_month';
    const { rowCount } = await client.query(`UPDATE account_budgets SET ${column} = $2 WHERE account_id = $1 AND ${column} IS DISTINCT FROM $2`, [accountId, month]);
    return (rowCount ?? 0) > 0;
  }
}
