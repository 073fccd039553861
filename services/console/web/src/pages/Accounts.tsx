import { useCallback, useEffect, useState } from 'react';
import { TONE } from '../colors';
import { Alert, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { ApiError } from '../api';
import { auth, consoleApi, ok } from '../client';
import { ConfigEditor } from '../components/ConfigEditor';
import { when } from '../format';
import { ACCOUNT_EVENTS, useLiveUpdates } from '../live';
import type { AccountView } from '../types';

const STATE_LABEL: Record<string, { label: string; color: string }> = {
  connected: { label: 'Connected', color: TONE.good },
  revoked: { label: 'Revoked', color: TONE.bad },
  needs_reconnect: { label: 'Needs reconnect', color: TONE.warn },
  disconnected: { label: 'Disconnected', color: TONE.neutral },
  webhook_invalid: { label: 'Webhook invalid', color: TONE.bad },
  unknown: { label: 'Unknown', color: TONE.neutral },
};

const PROTOCOL_LABEL: Record<string, string> = { oauth2: 'OAuth 2.0', oauth1: 'OAuth 1.0a' };

/** Starts auth's connection flow with the chosen protocol; the browser goes to auth's start link. */
function ConnectButtons() {
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState<'oauth1' | 'oauth2' | null>(null);
  const connect = async (protocol: 'oauth1' | 'oauth2') => {
    setStarting(protocol);
    setError(null);
    try {
      const { authorizeUrl } = await ok(auth.POST('/v1/connections', { params: { query: { protocol } } }));
      window.location.assign(authorizeUrl);
    } catch (caught) {
      setStarting(null);
      setError(caught instanceof ApiError ? caught.message : 'the connection could not start');
    }
  };
  return (
    <Stack gap="xs" aria-label="Connect an account" role="group">
      <Group gap="xs">
        <Button onClick={() => void connect('oauth2')} loading={starting === 'oauth2'} aria-describedby="connect-recommended">
          Connect with OAuth 2.0
        </Button>
        <Button variant="outline" onClick={() => void connect('oauth1')} loading={starting === 'oauth1'}>
          Connect with OAuth 1.0a
        </Button>
      </Group>
      <Text size="xs" id="connect-recommended">
        OAuth 2.0 is recommended: the platform&apos;s newer API.
      </Text>
      {error && <Alert color="red" role="alert">{error}</Alert>}
    </Stack>
  );
}

/** One account: name, state (with the silence alarm's badge), protocol, masked keys, Configure. */
function AccountRow({ account, onConfigure }: { account: AccountView; onConfigure: () => void }) {
  const state = STATE_LABEL[account.state] ?? STATE_LABEL.unknown!;
  return (
    <Table.Tr data-testid="account-row">
      <Table.Td>
        {account.screenName ? `@${account.screenName}` : account.accountId} <Text span size="xs">({account.accountId})</Text>
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          <Badge color={state.color} title={account.stateReason ?? undefined}>{state.label}</Badge>
          {account.silence && (
            <Badge color={TONE.warn} data-testid="silence-badge" title={`No delivery since ${when(account.silence.silentSince)}; detected ${when(account.silence.detectedAt)}`}>
              Silent since {when(account.silence.silentSince)}
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>{account.protocol ? PROTOCOL_LABEL[account.protocol] : '—'}</Table.Td>
      <Table.Td>{account.consumerKey ?? '—'}</Table.Td>
      <Table.Td>{account.accessToken ?? '—'}</Table.Td>
      <Table.Td>
        <Button size="xs" variant="outline" onClick={onConfigure}>
          Configure
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

export function Accounts() {
  const [accounts, setAccounts] = useState<AccountView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<AccountView | null>(null);
  const load = useCallback(() => {
    ok(consoleApi.GET('/api/accounts')).then(
      (answer) => {
        setAccounts(answer.items);
        setError(null);
      },
      (caught: unknown) => setError(caught instanceof ApiError ? caught.message : 'the accounts could not be read'),
    );
  }, []);
  useEffect(load, [load]);
  // An account going silent, or delivering again, shows without a reload.
  useLiveUpdates(load, ACCOUNT_EVENTS);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Accounts and partner configuration</Title>
        <ConnectButtons />
      </Group>
      {error && <Alert color="red" role="alert">{error}</Alert>}
      {/* On a phone the table scrolls within its own width; the page never gets wider than the screen. */}
      <Table.ScrollContainer minWidth={760} type="native">
        <Table aria-label="Connected accounts">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Account</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Protocol</Table.Th>
              <Table.Th>Consumer key</Table.Th>
              <Table.Th>Access token</Table.Th>
              <Table.Th>Configuration</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(accounts ?? []).map((account) => (
              <AccountRow key={account.accountId} account={account} onConfigure={() => setSelected(account)} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {accounts?.length === 0 && <Text>No account is connected yet: connect one.</Text>}
      {selected && <ConfigEditor key={selected.accountId} account={selected} />}
    </Stack>
  );
}
