import { AppShell, Box, Button, Center, Group, Loader, Text, Title } from '@mantine/core';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { api } from './api';
import { ErrorBoundary } from './ErrorBoundary';
import { returnPath } from './returnPath';
import { SessionProvider, useSession } from './session';
import { SignIn } from './pages/SignIn';
import { Accounts } from './pages/Accounts';
import { Inbox } from './pages/Inbox';
import { TicketView } from './pages/TicketView';

function Header() {
  const { session, ended, refresh } = useSession();
  const [, navigate] = useLocation();
  const signOut = async () => {
    // A session that had ended already is signed out all the same.
    await api('DELETE', '/api/session').catch(() => undefined);
    await refresh();
    navigate('/signin');
  };
  return (
    <Group h="100%" px="md" justify="space-between">
      <Group>
        <Title order={1} size="h4">
          Support console
        </Title>
        <nav aria-label="Main">
          <Group gap="sm">
            <Link href="/inbox">Inbox</Link>
            <Link href="/accounts">Accounts</Link>
          </Group>
        </nav>
      </Group>
      <Group>
        <Text size="sm">{session && !ended ? `Signed in as ${session.agent}` : 'Session ended'}</Text>
        <Button variant="default" size="xs" onClick={() => void signOut()}>
          Sign out
        </Button>
      </Group>
    </Group>
  );
}

/** The sign-in over a page whose session ended: the page stays mounted (and inert) beneath, so nothing typed is lost. */
function SignInAgain() {
  return (
    <Box role="dialog" aria-modal="true" aria-label="Sign in again" pos="fixed" inset={0} bg="white" style={{ zIndex: 1000, overflow: 'auto' }}>
      <SignIn resume />
    </Box>
  );
}

function Routes() {
  const { session, ended, loading } = useSession();
  const [location] = useLocation();
  if (loading) {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (location.startsWith('/embed/tickets/')) {
    const id = decodeURIComponent(location.slice('/embed/tickets/'.length));
    return session && !ended ? (
      <main>
        <TicketView id={id} embedded />
      </main>
    ) : (
      <Center h="100vh">
        <Text>This embedded session has ended: open the ticket again from the CRM.</Text>
      </Center>
    );
  }
  if (!session) return location === '/signin' ? <SignIn /> : <Redirect to={`/signin?next=${encodeURIComponent(location + window.location.search)}`} />;
  // A launch session shows its ticket's embed only, never the full console.
  if (session.ticketId) return <Redirect to={`/embed/tickets/${encodeURIComponent(session.ticketId)}`} />;
  return (
    <>
      <AppShell header={{ height: 56 }} padding="md" inert={ended}>
        <AppShell.Header>
          <Header />
        </AppShell.Header>
        <AppShell.Main>
          <Switch>
            <Route path="/accounts">{() => <Accounts />}</Route>
            <Route path="/inbox">{() => <Inbox />}</Route>
            <Route path="/tickets/:id">{(params) => <TicketView id={params.id} />}</Route>
            <Route path="/signin">{() => <Redirect to={returnPath(window.location.search)} />}</Route>
            <Route>{() => <Redirect to="/inbox" />}</Route>
          </Switch>
        </AppShell.Main>
      </AppShell>
      {ended && <SignInAgain />}
    </>
  );
}

export function App() {
  return (
    <ErrorBoundary>
      <SessionProvider>
        <Routes />
      </SessionProvider>
    </ErrorBoundary>
  );
}
