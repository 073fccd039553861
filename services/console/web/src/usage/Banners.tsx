import { useCallback, useEffect, useState } from 'react';
import { Alert, Anchor, Button, Group, Stack } from '@mantine/core';
import { ApiError } from '../api';
import { useOnce } from '../agents/useOnce';
import { TONE } from '../colors';
import { Link } from 'wouter';
import { consoleApi, ok } from '../client';
import { BUDGET_EVENTS, CREDIT_EVENTS, useLiveUpdates, type LiveEventType } from '../live';
import { useSession } from '../session';
import { checkCredit, loadAppStatus, loadBudget, type AppStatus } from './api';
import { budgetAlertOf, budgetEpisode, creditEpisode, dollars, type BudgetAlert } from './model';

const DISMISSED = 'console.dismissedBanners';

/** The banners dismissed in this browser session (by episode): a new episode shows again. */
function useDismissed(): { dismissed: (episode: string) => boolean; dismiss: (episode: string) => void } {
  const [episodes, setEpisodes] = useState<string[]>(() => {
    try {
      return JSON.parse(sessionStorage.getItem(DISMISSED) ?? '[]') as string[];
    } catch {
      return [];
    }
  });
  const dismiss = useCallback((episode: string) => {
    setEpisodes((current) => {
      const next = [...current.filter((known) => known !== episode), episode].slice(-50);
      sessionStorage.setItem(DISMISSED, JSON.stringify(next));
      return next;
    });
  }, []);
  return { dismissed: (episode) => episodes.includes(episode), dismiss };
}

/** Reads `read` now, every `everyMs`, and when one of `types` comes on the live stream. */
function usePolled<T>(read: () => Promise<T>, everyMs: number, types: readonly LiveEventType[]): [T | null, (value: T) => void] {
  const [value, setValue] = useState<T | null>(null);
  const refresh = useCallback(() => void read().then(setValue, () => undefined), [read]);
  useEffect(() => {
    refresh();
    const timer = setInterval(refresh, everyMs);
    return () => clearInterval(timer);
  }, [refresh, everyMs]);
  useLiveUpdates((event) => event && refresh(), types);
  return [value, setValue];
}

/** This month's budget alerts of every account the agent sees, with the accounts' names. */
async function readBudgetAlerts(): Promise<{ alert: BudgetAlert; name: string }[]> {
  const accounts = await ok(consoleApi.GET('/api/accounts'));
  const alerts = await Promise.all(
    accounts.items.map(async (account) => {
      const budget = await loadBudget(account.accountId).catch(() => null);
      const alert = budget && budgetAlertOf(budget);
      return alert ? { alert, name: account.pageName ?? account.name ?? `Account ${account.accountId}` } : null;
    }),
  );
  return alerts.filter((found) => found !== null);
}

function budgetWords({ alert, name }: { alert: BudgetAlert; name: string }): string {
  return alert.level === 'exhausted'
    ? `${name} has spent its monthly budget: ${dollars(alert.spent)} of ${dollars(alert.monthlyLimit)} this month: ${alert.stopEssential ? 'every call for it is refused, replies too,' : 'its optional reads (searches, profiles) are paused'} until the budget is raised or the month ends.`
    : `${name} is near its monthly budget: ${dollars(alert.spent)} of ${dollars(alert.monthlyLimit)} spent this month.`;
}

/** An admin who has added credit asks auth to check now, rather than wait for its next probe. */
function CheckCredit({ onChecked }: { onChecked: (status: AppStatus) => void }) {
  const { busy, run } = useOnce();
  const [problem, setProblem] = useState<string | null>(null);
  const check = () =>
    void run('check', async () => {
      setProblem(null);
      try {
        const status = await checkCredit();
        onChecked(status);
        if (status.outOfCredit) setProblem('The platform still refuses: add credit in its developer console, then check again.');
      } catch (error) {
        setProblem(error instanceof ApiError ? error.message : 'The check failed; try again.');
      }
    });
  return (
    <>
      <Button size="compact-sm" variant="white" color={TONE.bad} loading={busy === 'check'} onClick={check}>
        Check credit now
      </Button>
      {problem && <span role="status">{problem}</span>}
    </>
  );
}

const creditWords = (status: AppStatus) => `Platform credit is spent: replies are held and will be sent when credit returns (${status.heldCommands} waiting).`;

/**
 * The console's banners, above every page: the platform's credit spent (replies held), and for
 * each account the agent sees that reached its budget's warning or limit. Each is read from auth
 * (polled, and read again on the live events that announce a change) and can be dismissed
 * for the browser session; a new episode (credit spent again, another month or level) shows again.
 */
export function StatusBanners() {
  const { session } = useSession();
  const admin = session?.scopes.includes('admin') ?? false;
  const pollMs = session?.settings.pollIntervalMs ?? 4000;
  const [status, setStatus] = usePolled(loadAppStatus, pollMs * 5, CREDIT_EVENTS);
  const [budgets] = usePolled(readBudgetAlerts, pollMs * 15, BUDGET_EVENTS);
  const { dismissed, dismiss } = useDismissed();
  const credit = status?.outOfCredit ? creditEpisode(status.since) : null;
  const shown = (budgets ?? []).filter((found) => !dismissed(budgetEpisode(found.alert)));
  if ((!credit || dismissed(credit)) && shown.length === 0) return null;
  return (
    <Stack gap={0} mb="sm" component="section" aria-label="Notices">
      {credit && !dismissed(credit) && (
        <Alert color={TONE.bad} variant="filled" radius={0} withCloseButton closeButtonLabel="Dismiss this notice" onClose={() => dismiss(credit)} data-testid="credit-banner">
          <Group gap="sm" wrap="wrap">
            <span>{creditWords(status!)}</span>
            {admin && <CheckCredit onChecked={setStatus} />}
          </Group>
        </Alert>
      )}
      {shown.map((found) => (
        <Alert key={budgetEpisode(found.alert)} color={found.alert.level === 'exhausted' ? TONE.bad : TONE.warn} variant="filled" radius={0} withCloseButton closeButtonLabel="Dismiss this notice" onClose={() => dismiss(budgetEpisode(found.alert))} data-testid="budget-banner">
          {budgetWords(found)}{' '}
          <Anchor component={Link} c="white" underline="always" href={`/usage?accountId=${encodeURIComponent(found.alert.accountId)}`}>
            See its usage
          </Anchor>
        </Alert>
      ))}
    </Stack>
  );
}
