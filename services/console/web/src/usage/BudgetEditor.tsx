import { useEffect, useState } from 'react';
import { Alert, Button, Group, NumberInput, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useOnce } from '../agents/useOnce';
import { refusalOf } from '../agents/model';
import { loadBudget, saveBudget, type Budget } from './api';
import { dollars } from './model';

export interface AccountName {
  accountId: string;
  name: string;
}

/** A NumberInput's value as the API takes it: a number, or null for an empty field. */
const amountOf = (value: string | number) => (value === '' ? null : Number(value));

/** What an admin can read of a saved budget, under its form. */
function savedWords(budget: Budget): string {
  if (budget.monthlyLimit == null) return 'No monthly limit.';
  const warning = budget.warningThreshold == null ? 'no warning before it' : `a warning at ${dollars(budget.warningThreshold)}`;
  return `Limit ${dollars(budget.monthlyLimit)} a month, ${warning}.`;
}

type FormValues = { monthlyLimit: string | number; warningThreshold: string | number };

/** The account's saved budget, read once, and the form's values (empty fields for no limit). */
function useBudgetForm(accountId: string) {
  const [saved, setSaved] = useState<Budget | null>(null);
  const [form, setForm] = useState<FormValues>({ monthlyLimit: '', warningThreshold: '' });
  useEffect(() => {
    let current = true;
    loadBudget(accountId)
      .then((budget) => {
        if (!current) return;
        setSaved(budget);
        setForm({ monthlyLimit: budget.monthlyLimit ?? '', warningThreshold: budget.warningThreshold ?? '' });
      })
      .catch(() => current && setSaved({ monthlyLimit: null, warningThreshold: null }));
    return () => {
      current = false;
    };
  }, [accountId]);
  return { saved, setSaved, form, setForm };
}

/** One account's budget: its monthly limit and warning threshold, saved with auth; refusals beside their fields. */
function BudgetForm({ account, onSaved }: { account: AccountName; onSaved: (accountId: string, budget: Budget) => void }) {
  const { saved, setSaved, form, setForm } = useBudgetForm(account.accountId);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [summary, setSummary] = useState<string | null>(null);
  const { busy, run } = useOnce();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    void run('save', async () => {
      setSummary(null);
      const budget = { monthlyLimit: amountOf(form.monthlyLimit), warningThreshold: amountOf(form.warningThreshold) };
      try {
        await saveBudget(account.accountId, budget);
        setErrors({});
        setSaved(budget);
        onSaved(account.accountId, budget);
      } catch (error) {
        const refusal = refusalOf(error, 'The budget could not be saved; try again.');
        setErrors(refusal.fields);
        setSummary(refusal.summary);
      }
    });
  };
  const titleId = `budget-${account.accountId}`;
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby={titleId} data-testid="budget-form">
      <form onSubmit={submit} noValidate>
        <Stack gap="xs">
          <Title order={4} id={titleId} size="h5">
            {account.name}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <NumberInput label="Monthly limit ($)" description="The most the account should spend in a month" min={0} decimalScale={2} prefix="$" value={form.monthlyLimit} onChange={(value) => setForm((f) => ({ ...f, monthlyLimit: value }))} error={errors['/monthlyLimit']} />
            <NumberInput label="Warn at ($)" description="Admins are told when the month's spend reaches it" min={0} decimalScale={2} prefix="$" value={form.warningThreshold} onChange={(value) => setForm((f) => ({ ...f, warningThreshold: value }))} error={errors['/warningThreshold']} />
          </SimpleGrid>
          {summary && <Alert color="red" role="alert">{summary}</Alert>}
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" role="status">
              {saved ? savedWords(saved) : 'Reading the budget…'}
            </Text>
            <Button type="submit" loading={busy === 'save'}>
              Save budget
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** The budget of every account the admin sees (or of the one chosen). */
export function BudgetEditor({ accounts, onSaved }: { accounts: AccountName[]; onSaved: (accountId: string, budget: Budget) => void }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="budgets-title">
      <Title order={3} id="budgets-title" size="h4">
        Budgets
      </Title>
      {accounts.length === 0 ? <Text>No account is connected yet.</Text> : accounts.map((account) => <BudgetForm key={account.accountId} account={account} onSaved={onSaved} />)}
    </Stack>
  );
}
