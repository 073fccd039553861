import { useState } from 'react';
import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useLocation } from 'wouter';
import { ApiError } from '../api';
import { consoleApi, done } from '../client';
import { returnPath } from '../returnPath';
import { useSession } from '../session';

type Field = [string, (value: string) => void];

/** What the agent signs in with: email and password, or (development) an API token. */
function CredentialFields({ withToken, email, password, token }: { withToken: boolean; email: Field; password: Field; token: Field }) {
  if (withToken) {
    return (
      <>
        <Text size="sm">Use a CRM API credential (for development). It is checked once and exchanged for a session; the page never keeps it.</Text>
        <PasswordInput label="API credential" value={token[0]} onChange={(event) => token[1](event.currentTarget.value)} required autoComplete="off" />
      </>
    );
  }
  return (
    <>
      <TextInput label="Email" type="email" value={email[0]} onChange={(event) => email[1](event.currentTarget.value)} required autoComplete="username" />
      <PasswordInput label="Password" value={password[0]} onChange={(event) => password[1](event.currentTarget.value)} required autoComplete="current-password" />
    </>
  );
}

/**
 * The sign-in: an agent's email and password; an API token stays possible (development and
 * scripts) behind a link. Either is exchanged for a session; the page keeps neither. A page of
 * its own (then on to `?next=`, where the agent was going), or, with `resume`, over a page whose
 * session ended (which is kept as it was, drafts included).
 */
export function SignIn({ resume = false }: { resume?: boolean }) {
  const [withToken, setWithToken] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
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
      await done(consoleApi.POST('/api/session', { body: withToken ? { token } : { email, password } }));
      setPassword('');
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
      <Paper withBorder p="xl" w={420} maw="100%">
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
            <CredentialFields withToken={withToken} email={[email, setEmail]} password={[password, setPassword]} token={[token, setToken]} />
            {error && (
              <Alert color="red" role="alert" title="Not signed in">
                {error}
              </Alert>
            )}
            <Button type="submit" loading={busy}>
              Sign in
            </Button>
            <Anchor component="button" type="button" size="sm" onClick={() => (setWithToken(!withToken), setError(null))}>
              {withToken ? 'Use my email and password' : 'Use an API token instead'}
            </Anchor>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
