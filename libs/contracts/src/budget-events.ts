import { Type, type Static } from '@sinclair/typebox';
import { defineContract } from './envelope';

/**
 * Budget events auth publishes on `account.events` (through its outbox, in the transaction that
 * records the spend that crossed the line): an account's platform spend this UTC month reached
 * its budget's warning threshold (`account.budget_warning`), or the budget itself
 * (`account.budget_exhausted`: optional calls are refused from then on). Each once per account and
 * month; raising the budget above the spend makes the next crossing announced again.
 */
export const BudgetEventKeys = {
  warning: 'account.budget_warning',
  exhausted: 'account.budget_exhausted',
} as const;

const budgetView = {
  accountId: Type.String({ pattern: '^[0-9]{1,20}$' }),
  month: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$', description: 'The UTC calendar month the budget is for (`2026-11`).' }),
  spent: Type.Number({ minimum: 0, description: "Dollars the account's platform calls cost this month, when the line was crossed." }),
  monthlyLimit: Type.Number({ minimum: 0, description: "The budget: dollars per UTC month." }),
  detectedAt: Type.String({ format: 'date-time' }),
};

export const AccountBudgetWarningPayloadSchema = Type.Object(
  {
    ...budgetView,
    warnAt: Type.Number({ minimum: 0, maximum: 1, description: 'The fraction of the budget at which the warning is given.' }),
  },
  { additionalProperties: false, description: "An account's platform spend this month reached its budget's warning threshold." },
);
export type AccountBudgetWarningPayload = Static<typeof AccountBudgetWarningPayloadSchema>;
export const AccountBudgetWarning = defineContract('account.budget_warning.v1', AccountBudgetWarningPayloadSchema);

export const AccountBudgetExhaustedPayloadSchema = Type.Object(
  {
    ...budgetView,
    stopEssential: Type.Boolean({ description: 'true: every call of the account is refused until the budget is raised or the month turns; false: only optional ones (search polling, sidebar profile and timeline reads, list reads).' }),
  },
  { additionalProperties: false, description: "An account's platform spend this month reached its budget: auth refuses its optional calls (`budget_exhausted`)." },
);
export type AccountBudgetExhaustedPayload = Static<typeof AccountBudgetExhaustedPayloadSchema>;
export const AccountBudgetExhausted = defineContract('account.budget_exhausted.v1', AccountBudgetExhaustedPayloadSchema);
