import { useEffect, useState } from 'react';
import { TONE } from '../colors';
import { Alert, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { api, ApiError } from '../api';
import { ConfigEditor } from '../components/ConfigEditor';
import type { AccountView } from '../types';

const STATE_LABEL: Record<string, { label: string; color: string }> = {
  connected: { label: 'Connected', color: TONE.good },
  revoked: { label: 'Revoked', color: TONE.bad },
  needs_reconnect: { label: 'Needs reconnect', color: TONE.warn },
  disconnected: { label: 'Disconnected', color: TONE.neutral },
  webhook_invalid: { label: 'Webhook invalid', color: TONE.bad },
  unknown: { label: 'Unknown', color: TONE.neutral },
};

function ConnectButton() {
  const [error, setError] = useState<string | null>(null);
  const connect = async () => {
    try {
      const { authorizeUrl } = await api<{ authorizeUrl: string }>('POST', '/api/connections');
      window.location.assign(authorizeUrl);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'the connection could not start');
    }
  };
  return (
    <Stack gap="xs">
      <Button onClick={() => void connect()}>Connect an account</Button>
      {error && <Alert color="red" role="alert">{error}</Alert>}
    </Stack>
  );
}

export function Accounts() {
  const [accounts, setAccounts] = useState<AccountView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<AccountView | null>(null);
  useEffect(() => {
    api<{ items: AccountView[] }>('GET', '/api/accounts').then(
      (answer) => setAccounts(answer.items),
      (caught: unknown) => setError(caught instanceof ApiError ? caught.message : 'the accounts could not be read'),
    );
  }, []);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Accounts and partner configuration</Title>
        <ConnectButton />
      </Group>
      {error && <Alert color="red" role="alert">{error}</Alert>}
      <Table aria-label="Connected accounts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Account</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Consumer key</Table.Th>
            <Table.Th>Access token</Table.Th>
            <Table.Th>Configuration</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(accounts ?? []).map((account) => {
            const state = STATE_LABEL[account.state] ?? STATE_LABEL.unknown!;
            return (
              <Table.Tr key={account.accountId} data-testid="account-row">
                <Table.Td>
                  {account.screenName ? `@${account.screenName}` : account.accountId} <Text span size="xs">({account.accountId})</Text>
                </Table.Td>
                <Table.Td>
                  <Badge color={state.color} title={account.stateReason ?? undefined}>{state.label}</Badge>
                </Table.Td>
                <Table.Td>{account.consumerKey ?? '—'}</Table.Td>
                <Table.Td>{account.accessToken ?? '—'}</Table.Td>
                <Table.Td>
                  <Button size="xs" variant="outline" onClick={() => setSelected(account)}>
                    Configure
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {accounts?.length === 0 && <Text>No account is connected yet: connect one.</Text>}
      {selected && <ConfigEditor key={selected.accountId} account={selected} />}
    </Stack>
  );
}
