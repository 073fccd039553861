import { lazy, Suspense } from 'react';
import { AppShell, Box, Burger, Button, Center, Group, Loader, Text, Title, VisuallyHidden } from '@mantine/core';
import { useDisclosure, useElementSize, useMediaQuery } from '@mantine/hooks';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { consoleApi, done } from './client';
import { ErrorBoundary } from './ErrorBoundary';
import { returnPath } from './returnPath';
import { LiveProvider } from './live';
import { SessionProvider, useSession } from './session';
import { SignIn } from './pages/SignIn';
import { Accounts } from './pages/Accounts';
import { TicketView } from './pages/TicketView';
import { AgentsPage } from './agents/AgentsPage';
import { StatusBanners } from './usage/Banners';
import { useWorkspaceLocation, type WorkspaceState } from './workspace/location';
import { ShortcutsProvider } from './workspace/shortcuts';
import { Views } from './workspace/Views';
import { useViewCounts, Workspace } from './workspace/Workspace';
import './workspace/workspace.css';

// The usage page and its charts load when it is opened: the other screens' bundle stays without them.
const UsagePage = lazy(() => import('./usage/UsagePage').then((module) => ({ default: module.UsagePage })));

/** Mantine's `sm` breakpoint: below it the workspace shows one pane at a time. */
const PHONE = '(max-width: 48em)';

function Header({ views }: { views: { opened: boolean; toggle: () => void } | null }) {
  const { session, ended, refresh } = useSession();
  const [, navigate] = useLocation();
  const admin = session?.scopes.includes('admin') ?? false;
  const signOut = async () => {
    // A session that had ended already is signed out all the same.
    await done(consoleApi.DELETE('/api/session')).catch(() => undefined);
    await refresh();
    navigate('/signin');
  };
  return (
    <Group h="100%" px="sm" justify="space-between" wrap="nowrap" gap="xs">
      <Group wrap="nowrap" gap="sm" style={{ minWidth: 0 }}>
        {views && <Burger opened={views.opened} onClick={views.toggle} hiddenFrom="sm" size="sm" aria-label={views.opened ? 'Hide the views' : 'Show the views'} />}
        <Title order={1} size="h4" visibleFrom="sm">
          Support console
        </Title>
        {/* On a phone the menu, the links and Sign out take the bar's width: the title is for screen readers there. */}
        <VisuallyHidden hiddenFrom="sm">
          <Title order={1}>Support console</Title>
        </VisuallyHidden>
        <nav aria-label="Main">
          <Group gap="sm" wrap="nowrap">
            <Link href="/inbox">Inbox</Link>
            <Link href="/accounts">Accounts</Link>
            {admin && <Link href="/agents">Agents</Link>}
            <Link href="/usage">Usage</Link>
          </Group>
        </nav>
      </Group>
      <Group wrap="nowrap" gap="xs">
        <Text size="sm" visibleFrom="md" truncate="end" maw={260}>
          {session && !ended ? `Signed in as ${session.agent}` : 'Session ended'}
        </Text>
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

/** The signed-in frame: header, the views (inbox routes only) and the page. */
function Frame() {
  const [location] = useLocation();
  const inWorkspace = location === '/inbox' || location.startsWith('/tickets/');
  const phone = useMediaQuery(PHONE) ?? false;
  const [viewsOpen, views] = useDisclosure(false);
  const { counts, load: loadCounts } = useViewCounts();
  const { state, change } = useWorkspaceLocation();
  const { ended } = useSession();
  // The banners' height, so the workspace's panes fit below them.
  const banners = useElementSize();
  const pick = (next: Partial<WorkspaceState>) => {
    change(next);
    views.close();
  };
  return (
    <>
      <AppShell header={{ height: 56 }} navbar={inWorkspace ? { width: 220, breakpoint: 'sm', collapsed: { mobile: !viewsOpen } } : undefined} padding={inWorkspace ? 0 : 'md'} inert={ended}>
        <AppShell.Header>
          <Header views={inWorkspace ? { opened: viewsOpen, toggle: views.toggle } : null} />
        </AppShell.Header>
        {inWorkspace && (
          <AppShell.Navbar aria-label="Views" data-testid="views">
            <Views state={state} counts={counts} onPick={pick} />
          </AppShell.Navbar>
        )}
        <AppShell.Main style={{ '--console-banners-height': `${banners.height}px` } as React.CSSProperties}>
          <div ref={banners.ref}>
            <StatusBanners />
          </div>
          {inWorkspace ? (
            // One Workspace for the list and an open conversation: opening one keeps the list as it is.
            <Workspace phone={phone} onCountsStale={() => void loadCounts()} />
          ) : (
            <Switch>
              <Route path="/accounts">{() => <Accounts />}</Route>
              <Route path="/agents">{() => <AgentsPage />}</Route>
              <Route path="/usage">
                {() => (
                  <Suspense fallback={<Loader aria-label="Loading the usage page" />}>
                    <UsagePage />
                  </Suspense>
                )}
              </Route>
              <Route path="/signin">{() => <Redirect to={returnPath(window.location.search)} />}</Route>
              <Route>{() => <Redirect to="/inbox" />}</Route>
            </Switch>
          )}
        </AppShell.Main>
      </AppShell>
      {ended && <SignInAgain />}
    </>
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
  return <Frame />;
}

export function App() {
  return (
    <ErrorBoundary>
      <SessionProvider>
        <LiveProvider>
          <ShortcutsProvider>
            <Routes />
          </ShortcutsProvider>
        </LiveProvider>
      </SessionProvider>
    </ErrorBoundary>
  );
}
