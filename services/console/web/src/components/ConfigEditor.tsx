import { useEffect, useState } from 'react';
import { Alert, Button, Fieldset, Group, Loader, NumberInput, SimpleGrid, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { ApiError } from '../api';
import { ok, ticketing, type TicketingSchemas } from '../client';
import { when } from '../format';
import { errorAt, fieldErrors, fieldSentence, notSavedSummary, refusalSummary } from '../fieldErrors';
import { missingOrderFields, ordersDraftOf, ordersInputOf, type OrdersDraft } from '../orders';
import type { AccountView, PartnerConfig } from '../types';

type Cleared<T, K extends keyof T> = Omit<T, K> & { [F in K]: T[F] | null };
/**
 * The form's state: ticketing's configuration, with a number field the agent cleared held as
 * null (never sent: the form asks for a value first) and what ticketing sets itself optional.
 */
type ConfigDraft = Omit<PartnerConfig, 'sla' | 'merge' | 'orders' | 'policy' | 'accountStatus' | 'createdAt' | 'updatedAt'> & {
  sla: Cleared<TicketingSchemas['SlaConfig'], 'firstResponseMinutes' | 'resolutionMinutes'>;
  merge: Cleared<TicketingSchemas['MergeConfig'], 'windowMinutes'>;
  orders?: OrdersDraft | null;
  policy?: PartnerConfig['policy'];
  accountStatus?: PartnerConfig['accountStatus'];
};
type SearchQueryText = string | ConfigDraft['searchQueries'][number];
import { RuleList } from './RuleEditor';
import { RuleTester } from './RuleTester';
import { OrdersConfig } from './OrdersConfig';
import { OrderReferenceTester } from './OrderReferenceTester';
import { searchQueryStateWords } from '../searchQueries';

const defaults = (account: AccountView): ConfigDraft => ({
  pageId: account.accountId,
  pageName: account.name ?? account.screenName,
  consumerKey: account.consumerKey,
  accessToken: account.accessToken,
  sla: { firstResponseMinutes: 60, resolutionMinutes: 1440, businessHours: null, atRiskPercent: null },
  routing: { defaultQueue: 'social', defaultFolder: 'inbox', rules: [] },
  searchQueries: [],
  merge: { enabled: false, windowMinutes: 60 },
});

const queryText = (query: SearchQueryText) => (typeof query === 'string' ? query : query.query);

/** ticketing's configuration as the form holds it (the order options with their defaults filled in). */
const draftOf = (config: PartnerConfig): ConfigDraft => ({ ...config, orders: ordersDraftOf(config.orders) });

function useConfig(account: AccountView) {
  const [config, setConfig] = useState<ConfigDraft | null>(null);
  const [isNew, setIsNew] = useState(false);
  useEffect(() => {
    ok(ticketing.GET('/v1/partner-configs/{pageId}', { params: { path: { pageId: account.accountId } } })).then(
      (found) => setConfig(draftOf(found)),
      (error: unknown) => {
        if (!(error instanceof ApiError) || error.status !== 404) throw error;
        setIsNew(true);
        setConfig(defaults(account));
      },
    );
  }, [account]);
  return { config, setConfig, isNew, setIsNew };
}

function SlaAndMerge({ config, errors, update }: { config: ConfigDraft; errors: Record<string, string>; update: (patch: Partial<ConfigDraft>) => void }) {
  // Mantine gives '' for a cleared field: it stays empty (null), never 0.
  const number = (value: string | number) => (typeof value === 'number' ? value : value.trim() === '' || Number.isNaN(Number(value)) ? null : Number(value));
  return (
    // Side by side on a wide screen; one above the other on a phone, each the screen's width.
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <Fieldset legend="SLA">
        <NumberInput label="First response (minutes)" value={config.sla.firstResponseMinutes ?? ''} error={errorAt(errors, '/sla/firstResponseMinutes')} onChange={(v) => update({ sla: { ...config.sla, firstResponseMinutes: number(v) } })} />
        <NumberInput label="Resolution (minutes)" value={config.sla.resolutionMinutes ?? ''} error={errorAt(errors, '/sla/resolutionMinutes')} onChange={(v) => update({ sla: { ...config.sla, resolutionMinutes: number(v) } })} />
        <Text size="xs" mt="xs">Business hours: around the clock (ticketing counts SLA time continuously).</Text>
      </Fieldset>
      <Fieldset legend="Merge settings">
        <Switch label="Merge a customer's new tickets into the open one" checked={config.merge.enabled} onChange={(e) => update({ merge: { ...config.merge, enabled: e.currentTarget.checked } })} />
        <NumberInput label="Merge window (minutes)" value={config.merge.windowMinutes ?? ''} error={errorAt(errors, '/merge/windowMinutes')} onChange={(v) => update({ merge: { ...config.merge, windowMinutes: number(v) } })} mt="xs" />
      </Fieldset>
    </SimpleGrid>
  );
}

type SearchQueryState = TicketingSchemas['SearchQueryState'];

/** ticketing's state of each saved search query (none for a configuration not saved yet), read again after each save. */
function useSearchQueryStates(pageId: string, revision: number): SearchQueryState[] {
  const [states, setStates] = useState<SearchQueryState[]>([]);
  useEffect(() => {
    let current = true;
    ok(ticketing.GET('/v1/partner-configs/{pageId}/search-queries', { params: { path: { pageId } } })).then(
      ({ items }) => current && setStates(items),
      () => current && setStates([]),
    );
    return () => {
      current = false;
    };
  }, [pageId, revision]);
  return states;
}

function SearchQueries({ config, states, errors, update }: { config: ConfigDraft; states: SearchQueryState[]; errors: Record<string, string>; update: (patch: Partial<ConfigDraft>) => void }) {
  return (
    <Fieldset legend="Search queries">
      <Textarea
        label="One query per line"
        autosize
        minRows={2}
        value={config.searchQueries.map(queryText).join('\n')}
        error={errorAt(errors, '/searchQueries')}
        onChange={(e) => update({ searchQueries: e.currentTarget.value.split('\n') })}
      />
      {states.map((state) => (
        <Text size="xs" key={state.query} data-testid="search-query-state">
          {state.query}: {searchQueryStateWords(state, when)}
        </Text>
      ))}
    </Fieldset>
  );
}

function Credentials({ config, account }: { config: ConfigDraft; account: AccountView }) {
  return (
    <Group>
      <TextInput label="Page id" value={config.pageId} readOnly />
      <TextInput label="Consumer key" value={config.consumerKey ?? account.consumerKey ?? 'not reported yet'} readOnly />
      <TextInput label="Access token" value={config.accessToken ?? account.accessToken ?? 'not reported yet'} readOnly />
    </Group>
  );
}

function RoutingDefaults({ config, errors, update }: { config: ConfigDraft; errors: Record<string, string>; update: (patch: Partial<ConfigDraft>) => void }) {
  return (
    <Group grow>
      <TextInput label="Default queue" value={config.routing.defaultQueue} error={errorAt(errors, '/routing/defaultQueue')} onChange={(e) => update({ routing: { ...config.routing, defaultQueue: e.currentTarget.value } })} />
      <TextInput label="Default folder" value={config.routing.defaultFolder} error={errorAt(errors, '/routing/defaultFolder')} onChange={(e) => update({ routing: { ...config.routing, defaultFolder: e.currentTarget.value } })} />
    </Group>
  );
}

/** The fields the agent left empty (numbers, the orders' tracking client), each with its sentence: the form is not sent while any is. */
function emptyNumbers(config: ConfigDraft): Record<string, string> {
  const numbers: [string, number | null][] = [
    ['/sla/firstResponseMinutes', config.sla.firstResponseMinutes],
    ['/sla/resolutionMinutes', config.sla.resolutionMinutes],
    ['/merge/windowMinutes', config.merge.windowMinutes],
  ];
  const missing = [...numbers.filter(([, value]) => value === null).map(([pointer]): [string, string] => [pointer, 'is required']), ...missingOrderFields(config.orders)];
  return Object.fromEntries(missing.map(([pointer, message]) => [pointer, fieldSentence(pointer, message)]));
}

/** One account's partner configuration, saved as a whole with ticketing's PUT. */
export function ConfigEditor({ account }: { account: AccountView }) {
  const { config, setConfig, isNew, setIsNew } = useConfig(account);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [revision, setRevision] = useState(0);
  const [saving, setSaving] = useState(false);
  const states = useSearchQueryStates(account.accountId, revision);
  if (!config) return <Loader aria-label="Loading the configuration" />;
  const update = (patch: Partial<ConfigDraft>) => setConfig({ ...config, ...patch });
  const save = async () => {
    setMessage(null);
    const empty = emptyNumbers(config);
    if (Object.keys(empty).length) {
      setErrors(empty);
      setMessage({ ok: false, text: notSavedSummary(empty) });
      return;
    }
    setSaving(true);
    try {
      // Every number is filled (emptyNumbers above): the draft is ticketing's input.
      const body = { ...config, searchQueries: config.searchQueries.map(queryText).map((q) => q.trim()).filter(Boolean), orders: ordersInputOf(config.orders ?? null) } as TicketingSchemas['PartnerConfigInput'];
      setConfig(draftOf(await ok(ticketing.PUT('/v1/partner-configs/{pageId}', { params: { path: { pageId: account.accountId } }, body }))));
      setErrors({});
      setIsNew(false);
      setRevision((saved) => saved + 1);
      setMessage({ ok: true, text: 'Saved.' });
    } catch (caught) {
      setErrors(fieldErrors(caught));
      setMessage({ ok: false, text: refusalSummary(caught, 'Not saved: the console could not reach the service; try again.') });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack>
      <Title order={3}>Partner configuration of {account.screenName ? `@${account.screenName}` : account.accountId}{isNew ? ' (not configured yet)' : ''}</Title>
      <Credentials config={config} account={account} />
      <TextInput label="Page name" value={config.pageName ?? ''} error={errorAt(errors, '/pageName')} onChange={(e) => update({ pageName: e.currentTarget.value })} />
      <SlaAndMerge config={config} errors={errors} update={update} />
      <RoutingDefaults config={config} errors={errors} update={update} />
      <RuleList rules={config.routing.rules ?? []} errors={errors} onChange={(rules) => update({ routing: { ...config.routing, rules } })} />
      <SearchQueries config={config} states={states} errors={errors} update={update} />
      <OrdersConfig orders={config.orders ?? null} errors={errors} onChange={(orders) => update({ orders })} />
      {message && (
        <Alert color={message.ok ? 'green' : 'red'} role={message.ok ? 'status' : 'alert'} data-testid="save-result">
          {message.text}
        </Alert>
      )}
      <Button onClick={() => void save()} loading={saving}>
        Save configuration
      </Button>
      <RuleTester pageId={account.accountId} />
      {config.orders && <OrderReferenceTester pageId={account.accountId} clientId={config.orders.trackingClientId || null} />}
    </Stack>
  );
}
