import { useState } from 'react';
import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useLocation } from 'wouter';
import { api, ApiError } from '../api';
import { returnPath } from '../returnPath';
import { useSession } from '../session';

/**
 * The sign-in: a page of its own (then on to `?next=`, where the agent was going), or, with
 * `resume`, over a page whose session ended (which is kept as it was, drafts included).
 */
export function SignIn({ resume = false }: { resume?: boolean }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { refresh } = useSession();
  const [, navigate] = useLocation();
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('POST', '/api/session', { token });
      await refresh();
      if (!resume) navigate(returnPath(window.location.search));
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'sign-in failed');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Center component="main" h="100vh">
      <Paper withBorder p="xl" w={420}>
        <form onSubmit={(event) => void submit(event)}>
          <Stack>
            <Title order={1} size="h3">
              Sign in to the support console
            </Title>
            {resume && (
              <Alert color="red" title="Your session has ended">
                Sign in again to carry on where you were; nothing you typed is lost.
              </Alert>
            )}
            <Text size="sm">Use your CRM API credential. It is checked once and exchanged for a session; the page never keeps it.</Text>
            <PasswordInput label="API credential" value={token} onChange={(event) => setToken(event.currentTarget.value)} required autoComplete="off" />
            {error && (
              <Alert color="red" role="alert" title="Not signed in">
                {error}
              </Alert>
            )}
            <Button type="submit" loading={busy}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
