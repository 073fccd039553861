import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Anchor, Group, Loader, NativeSelect, Paper, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useLocation, useSearch } from 'wouter';
import { ApiError } from '../api';
import { consoleApi, ok } from '../client';
import { useSession } from '../session';
import { csvHref, loadBudget, loadUsage, type Budget, type Usage, type UsageQuery } from './api';
import { BudgetEditor, type AccountName } from './BudgetEditor';
import { accountShares, dailySpend, dollars, MONTH, monthOf, rangeOf, recentMonths, topKinds } from './model';
import { SpendChart } from './SpendChart';

/** The page's account and month live in its URL (`/usage?accountId=…&month=2026-11`): a reload or a shared link keeps them. */
function useUsageLocation(): { accountId: string; month: string; change: (next: { accountId?: string; month?: string }) => void } {
  const search = useSearch();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const accountId = params.get('accountId') ?? '';
  const asked = params.get('month') ?? '';
  const month = MONTH.test(asked) ? asked : monthOf(new Date());
  const change = useCallback(
    (next: { accountId?: string; month?: string }) => {
      const query = new URLSearchParams();
      const chosen = { accountId, month, ...next };
      if (chosen.accountId) query.set('accountId', chosen.accountId);
      if (chosen.month !== monthOf(new Date())) query.set('month', chosen.month);
      const text = query.toString();
      navigate(`/usage${text ? `?${text}` : ''}`);
    },
    [accountId, month, navigate],
  );
  return { accountId, month, change };
}

/** The accounts the admin sees, by name, for the filter, the shares and the budgets. */
function useAccountNames(): AccountName[] {
  const [accounts, setAccounts] = useState<AccountName[]>([]);
  useEffect(() => {
    let current = true;
    ok(consoleApi.GET('/api/accounts'))
      .then(({ items }) => current && setAccounts(items.map((account) => ({ accountId: account.accountId, name: account.pageName ?? account.name ?? (account.screenName ? `@${account.screenName}` : `Account ${account.accountId}`) }))))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, []);
  return accounts;
}

function KindsTable({ usage }: { usage: Usage }) {
  const kinds = topKinds(usage.items);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="kinds-title">
      <Title order={3} id="kinds-title" size="h4" mb="xs">
        What the calls were
      </Title>
      {kinds.length === 0 ? (
        <Text>No calls this month.</Text>
      ) : (
        <Table.ScrollContainer minWidth={300}>
          <Table aria-labelledby="kinds-title" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Kind of call</Table.Th>
                <Table.Th ta="right">Calls</Table.Th>
                <Table.Th ta="right">Cost</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {kinds.map((kind) => (
                <Table.Tr key={kind.kind} data-testid="kind-row">
                  <Table.Td>{kind.words}</Table.Td>
                  <Table.Td ta="right">{kind.units.toLocaleString('en')}</Table.Td>
                  <Table.Td ta="right">{dollars(kind.amount)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}

function AccountShares({ usage, names }: { usage: Usage; names: Map<string, string> }) {
  const shares = accountShares(usage.items);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="shares-title">
      <Title order={3} id="shares-title" size="h4" mb="xs">
        Each account&apos;s share
      </Title>
      {shares.length === 0 && <Text>No account spent anything this month.</Text>}
      <Stack gap="xs">
        {shares.map((share) => {
          const name = names.get(share.accountId) ?? `Account ${share.accountId}`;
          return (
            <div key={share.accountId} data-testid="account-share">
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm" truncate="end">
                  {name}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {dollars(share.amount)} ({share.percent}%)
                </Text>
              </Group>
              <Progress value={share.percent} color="blue.8" aria-label={`${name}: ${share.percent}% of the month's spend`} />
            </div>
          );
        })}
      </Stack>
    </Paper>
  );
}

function UsageFilters({ accounts, accountId, month, change }: { accounts: AccountName[]; accountId: string; month: string; change: (next: { accountId?: string; month?: string }) => void }) {
  const months = useMemo(() => recentMonths(new Date()), []);
  const monthChoices = months.some((choice) => choice.value === month) ? months : [{ value: month, label: month }, ...months];
  return (
    <Group gap="sm" align="end" wrap="wrap">
      <NativeSelect label="Account" value={accountId} onChange={(e) => change({ accountId: e.currentTarget.value })} data={[{ value: '', label: 'All accounts' }, ...accounts.map((account) => ({ value: account.accountId, label: account.name }))]} />
      <NativeSelect label="Month" value={month} onChange={(e) => change({ month: e.currentTarget.value })} data={monthChoices} />
    </Group>
  );
}

/** The month's usage of the query, and the chosen account's budget. */
function useUsage(query: UsageQuery) {
  const [usage, setUsage] = useState<Usage | null>(null);
  const [budget, setBudget] = useState<Budget | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    setProblem(null);
    loadUsage(query)
      .then((loaded) => current && setUsage(loaded))
      .catch((error: unknown) => current && setProblem(error instanceof ApiError ? `The usage could not be read: ${error.message}.` : 'The usage could not be read; reload the page.'));
    setBudget(null);
    if (query.accountId)
      loadBudget(query.accountId)
        .then((loaded) => current && setBudget(loaded))
        .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [query]);
  return { usage, budget, setBudget, problem };
}

/** The usage page: whoever may read tickets sees what the accounts they see cost; an admin also sets their budgets. */
export function UsagePage() {
  const { session } = useSession();
  const canEdit = Boolean(session?.scopes.some((scope) => scope === 'admin' || scope === 'accounts:manage'));
  const { accountId, month, change } = useUsageLocation();
  const accounts = useAccountNames();
  const names = useMemo(() => new Map(accounts.map((account) => [account.accountId, account.name])), [accounts]);
  const query = useMemo(() => ({ ...rangeOf(month), ...(accountId ? { accountId } : {}) }), [accountId, month]);
  const { usage, budget, setBudget, problem } = useUsage(query);
  const points = useMemo(() => (usage ? dailySpend(usage.items, month) : []), [usage, month]);
  const budgetSaved = (saved: string, value: Budget | null) => saved === accountId && setBudget(value);
  return (
    <Stack>
      <Group justify="space-between" align="end" wrap="wrap">
        <Title order={2}>Usage</Title>
        <Anchor href={csvHref(query)} download>
          Download CSV
        </Anchor>
      </Group>
      <UsageFilters accounts={accounts} accountId={accountId} month={month} change={change} />
      {problem && <Alert color="red" role="alert">{problem}</Alert>}
      {!usage ? (
        !problem && <Loader aria-label="Loading the usage" />
      ) : (
        <>
          <Paper withBorder p="md" component="section" aria-labelledby="spend-title">
            <Group justify="space-between" wrap="wrap" mb="xs">
              <Title order={3} id="spend-title" size="h4">
                Spend per day
              </Title>
              <Text fw={600} data-testid="usage-total">
                {dollars(usage.total)} this month
              </Text>
            </Group>
            <SpendChart points={points} budget={budget} oneAccount={Boolean(accountId)} />
          </Paper>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <KindsTable usage={usage} />
            <AccountShares usage={usage} names={names} />
          </SimpleGrid>
        </>
      )}
      <BudgetEditor canEdit={canEdit} accounts={accountId ? accounts.filter((account) => account.accountId === accountId) : accounts} onSaved={budgetSaved} />
    </Stack>
  );
}
