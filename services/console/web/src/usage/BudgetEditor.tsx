import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Group, NumberInput, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useOnce } from '../agents/useOnce';
import { refusalOf } from '../agents/model';
import { loadBudget, removeBudget, saveBudget, type Budget, type BudgetChange } from './api';
import { dollars, warningAmount } from './model';

export interface AccountName {
  accountId: string;
  name: string;
}

interface FormValues {
  monthlyLimit: string | number;
  /** Percent of the limit (auth keeps the fraction). */
  warnPercent: string | number;
  stopEssential: boolean;
}

const EMPTY: FormValues = { monthlyLimit: '', warnPercent: 80, stopEssential: false };

/** What an admin can read of the saved budget, under its form. */
function savedWords(budget: Budget | null): string {
  if (!budget) return 'No budget: this account’s calls are not limited.';
  const stop = budget.stopEssential ? 'every call stops' : 'optional reads stop, replies go on';
  return `${dollars(budget.spent)} of ${dollars(budget.monthlyLimit)} spent this month; the warning comes at ${dollars(warningAmount(budget))}; at the limit ${stop}.`;
}

/** The form's values checked in plain words (each beside its field), or the change to send. */
function checked(form: FormValues): { errors: Record<string, string>; change: BudgetChange | null } {
  const errors: Record<string, string> = {};
  if (form.monthlyLimit === '' || Number(form.monthlyLimit) < 0) errors['/monthlyLimit'] = 'Enter the most the account may spend in a month, in dollars (0 or more)';
  const percent = form.warnPercent === '' ? NaN : Number(form.warnPercent);
  if (!(percent >= 0 && percent <= 100)) errors['/warnAt'] = 'Enter a percentage of the limit from 0 to 100';
  if (Object.keys(errors).length) return { errors, change: null };
  return { errors, change: { monthlyLimit: Number(form.monthlyLimit), warnAt: percent / 100, stopEssential: form.stopEssential } };
}

/** The account's saved budget, read once, and the form's values. */
function useBudgetForm(accountId: string) {
  const [saved, setSaved] = useState<Budget | null | undefined>(undefined);
  const [form, setForm] = useState<FormValues>(EMPTY);
  const show = (budget: Budget | null) => {
    setSaved(budget);
    setForm(budget ? { monthlyLimit: budget.monthlyLimit, warnPercent: Math.round(budget.warnAt * 100), stopEssential: budget.stopEssential } : EMPTY);
  };
  useEffect(() => {
    let current = true;
    loadBudget(accountId).then(
      (budget) => current && show(budget),
      () => current && setSaved(null),
    );
    return () => {
      current = false;
    };
  }, [accountId]);
  return { saved, show, form, setForm };
}

/** One account's budget: limit, warning and what stops at the limit, saved with auth; problems beside their fields. */
function BudgetForm({ account, canEdit, onSaved }: { account: AccountName; canEdit: boolean; onSaved: (accountId: string, budget: Budget | null) => void }) {
  const { saved, show, form, setForm } = useBudgetForm(account.accountId);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [summary, setSummary] = useState<string | null>(null);
  const { busy, run } = useOnce();
  const attempt = (name: string, work: () => Promise<Budget | null>) =>
    void run(name, async () => {
      setSummary(null);
      try {
        const budget = await work();
        setErrors({});
        show(budget);
        onSaved(account.accountId, budget);
      } catch (error) {
        const refusal = refusalOf(error, 'The budget could not be saved; try again.');
        setErrors(refusal.fields['/warnAt'] ? { ...refusal.fields, '/warnAt': 'Enter a percentage of the limit from 0 to 100' } : refusal.fields);
        setSummary(refusal.summary);
      }
    });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const { errors: found, change } = checked(form);
    setErrors(found);
    if (change) attempt('save', () => saveBudget(account.accountId, change));
  };
  const titleId = `budget-${account.accountId}`;
  if (!canEdit) return <BudgetText titleId={titleId} name={account.name} saved={saved} />;
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby={titleId} data-testid="budget-form">
      <form onSubmit={submit} noValidate>
        <Stack gap="xs">
          <Title order={4} id={titleId} size="h5">
            {account.name}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <NumberInput label="Monthly limit ($)" description="The most the account may spend in a calendar month (UTC)" min={0} decimalScale={2} value={form.monthlyLimit} onChange={(value) => setForm((f) => ({ ...f, monthlyLimit: value }))} error={errors['/monthlyLimit']} />
            <NumberInput label="Warn at (% of the limit)" description="Admins are told when the month's spend reaches it" min={0} max={100} clampBehavior="none" value={form.warnPercent} onChange={(value) => setForm((f) => ({ ...f, warnPercent: value }))} error={errors['/warnAt']} />
          </SimpleGrid>
          <Checkbox label="At the limit, stop replies and direct messages too (otherwise only optional reads stop)" checked={form.stopEssential} onChange={(e) => setForm((f) => ({ ...f, stopEssential: e.currentTarget.checked }))} error={errors['/stopEssential']} />
          {summary && <Alert color="red" role="alert">{summary}</Alert>}
          <Text size="sm" role="status">
            {saved === undefined ? 'Reading the budget…' : savedWords(saved)}
          </Text>
          <Group gap="xs">
            <Button type="submit" loading={busy === 'save'}>
              Save budget
            </Button>
            {saved && (
              <Button variant="default" loading={busy === 'remove'} onClick={() => attempt('remove', async () => (await removeBudget(account.accountId), null))}>
                Remove budget
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** An account's budget as words, for whoever may read it but not change it. */
function BudgetText({ titleId, name, saved }: { titleId: string; name: string; saved: Budget | null | undefined }) {
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby={titleId} data-testid="budget-form">
      <Title order={4} id={titleId} size="h5">
        {name}
      </Title>
      <Text size="sm">{saved === undefined ? 'Reading the budget…' : savedWords(saved)}</Text>
    </Paper>
  );
}

/** The budget of every account the admin sees (or of the one chosen). */
export function BudgetEditor({ accounts, canEdit, onSaved }: { accounts: AccountName[]; canEdit: boolean; onSaved: (accountId: string, budget: Budget | null) => void }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="budgets-title">
      <Title order={3} id="budgets-title" size="h4">
        Budgets
      </Title>
      {!canEdit && <Text size="sm">An admin sets the accounts&apos; budgets.</Text>}
      {accounts.length === 0 ? <Text>No account is connected yet.</Text> : accounts.map((account) => <BudgetForm key={account.accountId} account={account} canEdit={canEdit} onSaved={onSaved} />)}
    </Stack>
  );
}
