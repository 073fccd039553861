import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { ApiError, onSessionEnded, setCsrfToken } from './api';
import { consoleApi, ok } from './client';
import type { SessionInfo } from './types';

interface SessionState {
  session: SessionInfo | null;
  /**
   * The session ended while a page was open (expired, signed out elsewhere, revoked; any call
   * answered 401): the page stays as it is, drafts and all, under the sign-in, and is back
   * once the agent signs in again. Nothing shows them as signed in meanwhile.
   */
  ended: boolean;
  loading: boolean;
  refresh: () => Promise<void>;
}

const SessionContext = createContext<SessionState>({ session: null, ended: false, loading: true, refresh: async () => undefined });

export function useSession(): SessionState {
  return useContext(SessionContext);
}

export function SessionProvider({ children }: { children: React.ReactNode }) {
  const [session, setSession] = useState<SessionInfo | null>(null);
  const [ended, setEnded] = useState(false);
  const [loading, setLoading] = useState(true);
  const signedIn = useRef(false);
  const refresh = useCallback(async () => {
    try {
      const info = await ok(consoleApi.GET('/api/session'));
      setCsrfToken(info.csrfToken);
      setSession(info);
      setEnded(false);
      signedIn.current = true;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      setSession(null);
      setEnded(false);
      signedIn.current = false;
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  // Any call told the session has ended: the sign-in shows over the page, which is kept.
  useEffect(
    () =>
      onSessionEnded(() => {
        if (signedIn.current) setEnded(true);
      }),
    [],
  );
  // Nobody calls at the moment it expires: the page ends it itself.
  useEffect(() => {
    if (!session || ended) return;
    const timer = setTimeout(() => setEnded(true), Math.min(2 ** 31 - 1, Math.max(0, Date.parse(session.expiresAt) - Date.now())));
    return () => clearTimeout(timer);
  }, [session, ended]);
  return <SessionContext.Provider value={{ session, ended, loading, refresh }}>{children}</SessionContext.Provider>;
}
